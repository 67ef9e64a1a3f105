package dev.paddock.testing;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real git repository in a test's temporary directory, driven through the git command-line tool
 * (an argument list through {@link ProcessBuilder}, never a shell string).
 *
 * <p>Typical use:
 * <pre>{@code
 * @TempDir Path tmp;
 * TempRepo repo = TempRepo.init(tmp.resolve("repo"));          // branch main, one commit
 * repo.commitFile("src/App.java", "class App {}", "Add App");
 * Path wt = repo.addWorktree(tmp.resolve("wt-login"), "feature/login");
 * TempRepo.write(wt, "src/Login.java", "class Login {}");         // any worktree: static write/commitAll
 * TempRepo.commitAll(wt, "Add Login");
 * repo.lockWorktree(wt, "agent running");
 * }</pre>
 *
 * <p>What it guarantees, so tests do not depend on the machine's git setup:
 * <ul>
 *   <li>{@link #dir()} and every path it returns are real paths ({@link Path#toRealPath}), the form git
 *       prints in {@code git worktree list}, so they compare equal to what Paddock reports.</li>
 *   <li>The repository has its own {@code user.name}/{@code user.email} (also used by code under test
 *       that commits in it), {@code commit.gpgsign=false} and initial branch {@code main}.</li>
 *   <li>Its git commands ignore the global and system git configuration; variables that would point
 *       git elsewhere ({@code GIT_DIR}, {@code GIT_WORK_TREE}, ...) are removed; prompts are off;
 *       {@code LC_ALL=C} keeps git's messages in English.</li>
 *   <li>A failing git command throws {@link GitFailure} with the command, exit code and stderr.</li>
 * </ul>
 */
public final class TempRepo {
    /** Identity written into every repository this helper creates. */
    public static final String USER_NAME = "Paddock Test";

    public static final String USER_EMAIL = "test@paddock.invalid";

    private static final List<String> REDIRECTING_VARS = List.of(
            "GIT_DIR",
            "GIT_WORK_TREE",
            "GIT_INDEX_FILE",
            "GIT_OBJECT_DIRECTORY",
            "GIT_ALTERNATE_OBJECT_DIRECTORIES",
            "GIT_COMMON_DIR",
            "GIT_NAMESPACE",
            "GIT_CEILING_DIRECTORIES",
            "GIT_DISCOVERY_ACROSS_FILESYSTEM",
            "GIT_PREFIX");
    private static final long TIMEOUT_S = 30;

    private final Path dir;

    private TempRepo(Path dir) {
        this.dir = dir;
    }

    /** A git command that exited with a non-zero code (or could not run). */
    public static final class GitFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        GitFailure(String message) {
            super(message);
        }
    }

    /**
     * Result of a git command.
     *
     * @param stdout standard output, decoded as UTF-8
     * @param stderr standard error, decoded as UTF-8
     */
    public record Result(int exitCode, String stdout, String stderr) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    /**
     * Creates {@code dir} (and parents) and a repository in it on branch {@code main} with one
     * commit ("Initial commit", adding {@code README.md}).
     */
    public static TempRepo init(Path dir) {
        TempRepo repo = initEmpty(dir);
        repo.commitFile("README.md", "# test repository\n", "Initial commit");
        return repo;
    }

    /** An existing repository made by this helper (e.g. a copy of one), at its real path. */
    public static TempRepo open(Path dir) {
        try {
            return new TempRepo(dir.toRealPath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Creates {@code dir} and a repository in it on branch {@code main} with no commit yet. */
    public static TempRepo initEmpty(Path dir) {
        Path real = createDirectories(dir);
        git(real, "init", "--quiet", "--initial-branch=main");
        TempRepo repo = new TempRepo(real);
        repo.git("config", "user.name", USER_NAME);
        repo.git("config", "user.email", USER_EMAIL);
        repo.git("config", "commit.gpgsign", "false");
        return repo;
    }

    /**
     * Creates a bare repository in {@code dir} (no working tree) and returns its real path. When
     * {@code withCommit} is true it gets one commit on {@code main} (made in a scratch clone beside it).
     */
    public static Path initBare(Path dir, boolean withCommit) {
        Path real = createDirectories(dir);
        git(real, "init", "--quiet", "--bare", "--initial-branch=main");
        if (withCommit) {
            Path scratch = real.resolveSibling(real.getFileName() + "-scratch");
            TempRepo seed = init(scratch);
            seed.git("push", "--quiet", real.toString(), "main");
        }
        return real;
    }

    /** The main worktree of the repository (a real path). */
    public Path dir() {
        return dir;
    }

    /** Runs {@code git -C dir() args...}, requires success, and returns its stdout. */
    public String git(String... args) {
        return git(dir, args);
    }

    /** Writes a file (UTF-8) relative to the main worktree, creating parent directories. */
    public TempRepo write(String relativePath, String content) {
        write(dir, relativePath, content);
        return this;
    }

    /**
     * Writes a file (UTF-8) relative to any directory, such as a linked worktree, creating parent
     * directories; returns the file.
     */
    public static Path write(Path worktree, String relativePath, String content) {
        Path file = worktree.resolve(relativePath);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** Stages everything in the main worktree and commits; returns the new commit id. */
    public String commitAll(String message) {
        return commitAll(dir, message);
    }

    /** Stages everything in {@code worktree} and commits there; returns the new commit id. */
    public static String commitAll(Path worktree, String message) {
        git(worktree, "add", "--all");
        git(worktree, "commit", "--quiet", "--allow-empty", "-m", message);
        return revParse(worktree, "HEAD");
    }

    /** Writes one file in the main worktree and commits it; returns the new commit id. */
    public String commitFile(String relativePath, String content, String message) {
        write(relativePath, content);
        return commitAll(message);
    }

    /** The commit id of the main worktree's HEAD. */
    public String head() {
        return revParse(dir, "HEAD");
    }

    /** The full commit id {@code rev} resolves to in {@code worktree}. */
    public static String revParse(Path worktree, String rev) {
        return git(worktree, "rev-parse", rev).strip();
    }

    /** Creates a branch at the current HEAD without checking it out. */
    public TempRepo branch(String name) {
        git("branch", name);
        return this;
    }

    /**
     * Adds a linked worktree at {@code path} on a new branch {@code newBranch} (started at HEAD) and
     * returns its real path.
     */
    public Path addWorktree(Path path, String newBranch) {
        git("worktree", "add", "--quiet", "-b", newBranch, path.toString());
        return realPath(path);
    }

    /** Adds a linked worktree at {@code path} checking out an existing branch; returns its real path. */
    public Path addWorktreeOnBranch(Path path, String existingBranch) {
        git("worktree", "add", "--quiet", path.toString(), existingBranch);
        return realPath(path);
    }

    /** Adds a linked worktree at {@code path} with a detached HEAD at the current commit; returns its real path. */
    public Path addDetachedWorktree(Path path) {
        return addDetachedWorktree(path, "HEAD");
    }

    /** Adds a linked worktree at {@code path} with a detached HEAD at {@code commit}; returns its real path. */
    public Path addDetachedWorktree(Path path, String commit) {
        git("worktree", "add", "--quiet", "--detach", path.toString(), commit);
        return realPath(path);
    }

    /** Locks a linked worktree; {@code reason} may be null for a lock without a reason. */
    public TempRepo lockWorktree(Path worktree, String reason) {
        if (reason == null) {
            git("worktree", "lock", worktree.toString());
        } else {
            git("worktree", "lock", "--reason", reason, worktree.toString());
        }
        return this;
    }

    /** Removes a linked worktree ({@code --force} when {@code force}). */
    public TempRepo removeWorktree(Path worktree, boolean force) {
        if (force) {
            git("worktree", "remove", "--force", worktree.toString());
        } else {
            git("worktree", "remove", worktree.toString());
        }
        return this;
    }

    /**
     * Adds {@code /.worktrees/} to {@code .git/info/exclude}, so that worktrees nested there (where
     * Paddock puts its sandboxes) do not show as untracked files of the main worktree.
     */
    public TempRepo excludeWorktreesDir() {
        try {
            Path exclude = dir.resolve(".git/info/exclude");
            Files.createDirectories(exclude.getParent());
            Files.writeString(
                    exclude,
                    "/.worktrees/\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * Adds {@code library} (a repository made by this helper) as a submodule at {@code path} of the main worktree
     * through a {@code file://} URL, and commits it ("Add submodule PATH"); returns the new commit id. git refuses
     * file:// submodules by default since 2.38.1; {@code protocol.file.allow=always} is given on this command only.
     */
    public String addSubmodule(TempRepo library, String path) {
        git(
                "-c",
                "protocol.file.allow=always",
                "submodule",
                "--quiet",
                "add",
                library.dir().toUri().toString(),
                path);
        git("commit", "--quiet", "-m", "Add submodule " + path);
        return head();
    }

    /**
     * Initialises and checks out every submodule of {@code worktree} ({@code git submodule update --init
     * --recursive}) and gives each the helper's identity, so tests can commit in them.
     */
    public static void initSubmodules(Path worktree) {
        git(worktree, "-c", "protocol.file.allow=always", "submodule", "--quiet", "update", "--init", "--recursive");
        for (String line : git(worktree, "submodule", "status", "--recursive").split("\n")) {
            String[] parts = line.strip().split(" ");
            if (parts.length >= 2) {
                Path sub = worktree.resolve(parts[1]);
                git(sub, "config", "user.name", USER_NAME);
                git(sub, "config", "user.email", USER_EMAIL);
                git(sub, "config", "commit.gpgsign", "false");
            }
        }
    }

    /** Deletes a directory tree if it exists, e.g. a worktree or the whole repository behind git's back. */
    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code git -C dir args...}, requires exit code 0, and returns stdout. */
    public static String git(Path dir, String... args) {
        Result r = run(dir, args);
        if (!r.ok()) {
            throw new GitFailure("git " + String.join(" ", args) + " failed in " + dir + " (exit " + r.exitCode()
                    + "): " + r.stderr().strip());
        }
        return r.stdout();
    }

    /** Runs {@code git -C dir args...} and returns its result whatever the exit code. */
    public static Result run(Path dir, String... args) {
        List<String> cmd = new ArrayList<>(args.length + 3);
        cmd.add("git");
        cmd.add("-C");
        cmd.add(dir.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Map<String, String> env = pb.environment();
        REDIRECTING_VARS.forEach(env::remove);
        env.put("GIT_TERMINAL_PROMPT", "0");
        env.put("LC_ALL", "C");
        // Hermetic: the machine's global and system git configuration (hooks, gpg signing, default
        // branch, autocrlf...) cannot change what a test builds. Paddock's own git calls still read them.
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        // A test reads a worktree while its agent may be committing in it: like Paddock's own reads, it
        // must never take the index lock (`git status` refreshes the index when it can).
        env.put("GIT_OPTIONAL_LOCKS", "0");
        try {
            Process p = pb.start();
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
            String out = readAll(p.getInputStream());
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new GitFailure("git " + String.join(" ", args) + " took longer than " + TIMEOUT_S + " s");
            }
            return new Result(p.exitValue(), out, err.join());
        } catch (IOException e) {
            throw new GitFailure("cannot run git: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GitFailure("interrupted while running git " + String.join(" ", args));
        }
    }

    private static String readAll(InputStream in) {
        try (in) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            in.transferTo(buf);
            return buf.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
            return dir.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
