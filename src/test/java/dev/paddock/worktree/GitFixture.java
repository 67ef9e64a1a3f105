package dev.paddock.worktree;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real git repository in a temporary directory, driven through the git command line the way a
 * user's terminal would. Hermetic: the user's global and system git configuration are not read,
 * and author/committer are fixed.
 *
 * <p>Paths are real paths (symlinks resolved), so they compare equal to what git reports.
 */
public final class GitFixture {
    private static final List<String> REDIRECTING_VARS = List.of("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE",
            "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
            "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM");

    private final Path dir;

    private GitFixture(Path dir) {
        this.dir = dir;
    }

    /** Creates {@code dir} (and parents) and runs {@code git init -b main} in it. */
    public static GitFixture init(Path dir) {
        try {
            Files.createDirectories(dir);
            Path real = dir.toRealPath();
            run(real, "init", "-q", "-b", "main");
            return new GitFixture(real);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Initialises a repository with one commit ({@code README.md}, subject {@code Initial commit}). */
    public static GitFixture withInitialCommit(Path dir) {
        GitFixture repo = init(dir);
        repo.write("README.md", "# demo\n");
        repo.commitAll("Initial commit");
        return repo;
    }

    /** The main worktree's directory (real path). */
    public Path dir() {
        return dir;
    }

    /** Runs git in the main worktree and returns its stdout; fails the test when git fails. */
    public String git(String... args) {
        return run(dir, args);
    }

    /** Runs git in the main worktree and returns its stdout stripped of surrounding whitespace. */
    public String gitLine(String... args) {
        return git(args).strip();
    }

    /** The full commit id a revision resolves to in {@code worktree}. */
    public static String revParse(Path worktree, String rev) {
        return run(worktree, "rev-parse", rev).strip();
    }

    /** Writes a file relative to the main worktree, creating parent directories. */
    public Path write(String relative, String content) {
        return write(dir, relative, content);
    }

    /** Writes a file relative to any directory (e.g. a linked worktree), creating parent directories. */
    public static Path write(Path base, String relative, String content) {
        try {
            Path file = base.resolve(relative);
            Files.createDirectories(file.getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stages everything and commits in the main worktree; returns the new commit id. */
    public String commitAll(String message) {
        return commitAll(dir, message);
    }

    /** Stages everything and commits in {@code worktree}; returns the new commit id. */
    public static String commitAll(Path worktree, String message) {
        run(worktree, "add", "-A");
        run(worktree, "commit", "-q", "-m", message);
        return revParse(worktree, "HEAD");
    }

    /**
     * Adds {@code .worktrees/} to {@code .git/info/exclude}, as the BRIEF has Paddock do for its sandbox
     * directory; without it, worktrees nested there show as untracked files of the main worktree.
     */
    public GitFixture excludeWorktreesDir() {
        try {
            Path exclude = dir.resolve(".git/info/exclude");
            Files.createDirectories(exclude.getParent());
            Files.writeString(exclude, "/.worktrees/\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code git worktree add -b branch path} from the main worktree; returns the real path. */
    public Path addWorktree(Path path, String newBranch) {
        git("worktree", "add", "-q", "-b", newBranch, path.toString());
        return realPath(path);
    }

    /** {@code git worktree add --detach path [commit]}; returns the real path. */
    public Path addDetachedWorktree(Path path, String commit) {
        git("worktree", "add", "-q", "--detach", path.toString(), commit);
        return realPath(path);
    }

    /** Runs git with {@code -C dir}; returns stdout; throws {@link AssertionError} with stderr when it fails. */
    public static String run(Path dir, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.add("-C");
        cmd.add(dir.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null")
                .toFile()));
        Map<String, String> env = pb.environment();
        REDIRECTING_VARS.forEach(env::remove);
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        env.put("GIT_AUTHOR_NAME", "Fixture Author");
        env.put("GIT_AUTHOR_EMAIL", "author@example.com");
        env.put("GIT_COMMITTER_NAME", "Fixture Committer");
        env.put("GIT_COMMITTER_EMAIL", "committer@example.com");
        env.put("GIT_TERMINAL_PROMPT", "0");
        env.put("LC_ALL", "C");
        try {
            Path errFile = Files.createTempFile("gitfixture", ".err");
            try {
                pb.redirectError(errFile.toFile());
                Process p = pb.start();
                byte[] out = p.getInputStream().readAllBytes();
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new AssertionError("git " + String.join(" ", args) + " did not finish in 30 s");
                }
                if (p.exitValue() != 0) {
                    throw new AssertionError("git " + String.join(" ", args) + " failed in " + dir + " (exit "
                            + p.exitValue() + "): " + Files.readString(errFile, StandardCharsets.UTF_8));
                }
                return new String(out, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(errFile);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running git", e);
        }
    }

    /** Deletes a directory tree (e.g. a worktree behind git's back). */
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

    /** The real path of an existing directory. */
    public static Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
