package dev.paddock.worktree;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.errors.ConfigInvalidException;
import org.eclipse.jgit.storage.file.FileBasedConfig;
import org.eclipse.jgit.util.FS;

/**
 * The git operations behind a sandbox's worktree: validating a branch name the way git does,
 * creating the branch and the worktree, giving the worktree its own identity, telling what would be
 * lost by removing it, and removing it. Git's decisions go through the git CLI with argument lists
 * (JGit has no worktree API, and git's own rules are the ones that count); a few plain reads and writes
 * of git's files (which branch a worktree has checked out, a worktree's own config) are done in-process.
 */
public final class WorktreeManager {
    /** What Paddock adds to {@code .git/info/exclude} so sandboxes never show as untracked files. */
    public static final String EXCLUDE_LINE = "/.worktrees/";

    private final GitCli git;
    private final Submodules submodules;

    public WorktreeManager(GitCli git) {
        this.git = git;
        this.submodules = new Submodules(git);
    }

    /** What the submodules of worktrees hold ({@link Submodules}). */
    public Submodules submodules() {
        return submodules;
    }

    /** How a branch's full ref name starts. */
    public static final String HEADS = "refs/heads/";

    /**
     * Checks a branch name with {@code git check-ref-format --branch}, git's own rules, and normalises it: a
     * branch's full ref name ({@code refs/heads/zz}) means the branch {@code zz} (git itself would create
     * {@code refs/heads/refs/heads/zz}). Other {@code refs/...} names (a tag, a remote-tracking branch) and names
     * that git expands to a commit id ({@code @{-1}} after a detached checkout) are refused.
     *
     * @return the short branch name as git normalises it
     * @throws GitException with the reason when the name is not valid
     */
    public String checkBranchName(Path repo, String branch) throws GitException {
        if (branch == null || branch.isBlank()) {
            throw new GitException("The branch name is empty.");
        }
        String name = branch.startsWith(HEADS) ? branch.substring(HEADS.length()) : branch;
        GitCli.Result r = git.run(repo, "check-ref-format", "--branch", name);
        if (!r.ok() || name.startsWith("-") || name.isEmpty()) {
            throw new GitException("\"" + branch + "\" is not a valid branch name (git check-ref-format refuses it).");
        }
        String normalised = r.stdout().strip();
        if (normalised.startsWith("refs/")) {
            throw new GitException("\"" + branch + "\" is not a branch name: it would make the branch " + HEADS
                    + normalised + ". Give the branch's short name (e.g. zz for " + HEADS + "zz).");
        }
        if (normalised.matches("[0-9a-f]{40}|[0-9a-f]{64}")) {
            throw new GitException(
                    "\"" + branch + "\" names the commit " + normalised + ", not a branch; give a" + " branch name.");
        }
        return normalised;
    }

    /**
     * The full ref name git gives a revision ({@code git rev-parse --symbolic-full-name}): {@code refs/heads/main}
     * for {@code main}, {@code HEAD} on a branch or {@code refs/heads/main}; {@code refs/remotes/origin/main} for
     * {@code origin/main}; {@code refs/tags/v1} for a tag; {@code HEAD} for a detached HEAD. Empty when the
     * revision is no ref (a commit id, {@code main~2}) or names nothing.
     */
    public Optional<String> fullRefName(Path repo, String revision) throws GitException {
        GitCli.Result r =
                git.run(repo, "rev-parse", "--verify", "--quiet", "--symbolic-full-name", "--end-of-options", revision);
        String full = r.ok() ? r.stdout().strip() : "";
        return full.isEmpty() ? Optional.empty() : Optional.of(full);
    }

    /**
     * The commit a revision names ({@code main}, a commit id, a tag).
     *
     * @throws GitException when it names no commit
     */
    public String resolveCommit(Path repo, String revision) throws GitException {
        GitCli.Result r = git.run(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}");
        if (!r.ok() || r.stdout().isBlank()) {
            throw new GitException("\"" + revision + "\" names no commit in " + repo + ".");
        }
        return r.stdout().strip();
    }

    /** Whether the local branch exists. */
    public boolean branchExists(Path repo, String branch) throws GitException {
        return git.run(repo, "show-ref", "--verify", "--quiet", "refs/heads/" + branch)
                .ok();
    }

    /**
     * The worktree where {@code branch} is checked out, if any: read in-process from git's own files
     * ({@link WorktreeHeads}), or from {@code git worktree list} where those files cannot be read with certainty.
     *
     * @throws GitException when git cannot list the worktrees
     */
    public Optional<Path> checkedOutIn(GitRepository repo, String branch) throws GitException {
        WorktreeHeads.Answer a = WorktreeHeads.find(repo.mainWorktree(), branch);
        return a.known() ? a.checkout() : checkedOutIn(repo.mainWorktree(), branch);
    }

    /** The worktree where {@code branch} is checked out, if any (asks {@code git worktree list}). */
    public Optional<Path> checkedOutIn(Path repo, String branch) throws GitException {
        for (PorcelainParser.Entry e : PorcelainParser.list(git, repo)) {
            if (branch.equals(e.info().branch())) {
                return Optional.of(e.info().path());
            }
        }
        return Optional.empty();
    }

    /**
     * Adds {@link #EXCLUDE_LINE} to the repository's {@code info/exclude} unless it is there: local to
     * this clone, nothing to commit.
     */
    public void excludeWorktreesDir(GitRepository repo) throws GitException {
        Path exclude = repo.commonDir().resolve("info").resolve("exclude");
        try {
            List<String> lines =
                    Files.exists(exclude) ? Files.readAllLines(exclude, StandardCharsets.UTF_8) : List.of();
            if (lines.stream()
                    .map(String::strip)
                    .anyMatch(l -> l.equals(EXCLUDE_LINE)
                            || l.equals(".worktrees/")
                            || l.equals(".worktrees")
                            || l.equals("/.worktrees"))) {
                return;
            }
            Files.createDirectories(exclude.getParent());
            String prefix = Files.exists(exclude) && Files.size(exclude) > 0 && !endsWithNewline(exclude) ? "\n" : "";
            Files.writeString(
                    exclude,
                    prefix + "# Paddock's sandboxes (worktrees)\n" + EXCLUDE_LINE + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new GitException("Cannot update " + exclude + ": " + e.getMessage(), e);
        }
    }

    private static boolean endsWithNewline(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return bytes.length == 0 || bytes[bytes.length - 1] == '\n';
    }

    /**
     * {@code git worktree add}: creates {@code branch} at {@code startCommit} when {@code newBranch},
     * else checks out the existing branch, writing the files with one checkout worker per core.
     *
     * @throws GitException with git's reason when it refuses (path exists, branch checked out elsewhere, ...)
     */
    public void add(Path repo, Path worktree, String branch, boolean newBranch, String startCommit)
            throws GitException {
        // Parallel checkout (git 2.32+, git-config(1) checkout.workers: below one = one worker per logical core;
        // only used above checkout.thresholdForParallelism files, 100 by default); older gits ignore the key.
        List<String> args = new ArrayList<>(List.of("-c", "checkout.workers=0", "worktree", "add", "--quiet"));
        if (newBranch) {
            args.addAll(List.of("-b", branch, "--", worktree.toString(), startCommit));
        } else {
            args.addAll(List.of("--", worktree.toString(), branch));
        }
        GitCli.Result r = git.run(repo, args, GitCli.LONG_TIMEOUT);
        if (!r.ok()) {
            throw new GitException("git worktree add failed: " + r.errorLine());
        }
    }

    /**
     * Gives the worktree its own {@code user.name} and {@code user.email}, so the agent's commits say
     * who made them: per-worktree configuration ({@code extensions.worktreeConfig}, git 2.20+), which
     * leaves the repository's and the user's identity alone. The worktree's {@code config.worktree} is
     * written in-process with JGit's config writer (under git's lock file, {@code config.worktree.lock});
     * git itself sets the extension the first time a repository needs it.
     *
     * @throws GitException when the worktree's git files cannot be read or written
     */
    public void setIdentity(Path worktree, String name, String email) throws GitException {
        Path gitDir = gitDirOf(worktree);
        try {
            Path common = WorktreeHeads.commonDirOf(gitDir);
            FileBasedConfig shared =
                    new FileBasedConfig(common.resolve("config").toFile(), FS.DETECTED);
            shared.load();
            if (!shared.getBoolean("extensions", "worktreeConfig", false)) {
                git.runOk(worktree, "config", "extensions.worktreeConfig", "true");
            }
            FileBasedConfig own =
                    new FileBasedConfig(gitDir.resolve("config.worktree").toFile(), FS.DETECTED);
            own.load();
            own.setString("user", null, "name", name);
            own.setString("user", null, "email", email);
            own.save();
        } catch (IOException | ConfigInvalidException e) {
            throw new GitException("Cannot set the identity of " + worktree + ": " + e.getMessage(), e);
        }
    }

    /** The git directory of a worktree ({@link WorktreeHeads#gitDirOf}). */
    private static Path gitDirOf(Path worktree) throws GitException {
        try {
            Path dir = WorktreeHeads.gitDirOf(worktree);
            if (dir == null) {
                throw new GitException(worktree + " has no .git folder or file naming its git directory.");
            }
            return dir;
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new GitException("Cannot read " + worktree.resolve(".git") + ": " + e.getMessage(), e);
        }
    }

    /**
     * The health fingerprint of a worktree: where git says its top level is, the branch
     * and commit checked out, its status, and the identity it commits with. Three git processes run side by
     * side: {@code status --porcelain=v2 --branch} (branch, commit and changes in one answer),
     * {@code rev-parse --show-toplevel} and {@code config --get-regexp user.(name|email)}.
     *
     * @throws GitException when git cannot read the worktree
     */
    public Fingerprint fingerprint(Path worktree) throws GitException {
        return startFingerprint(worktree, false).finish();
    }

    /**
     * Starts the parts of a worktree's fingerprint that do not depend on its identity ({@code status} and
     * {@code rev-parse --show-toplevel}) on other threads, so the caller can set the identity meanwhile;
     * {@link FingerprintProbe#finish} then reads the identity and waits for the rest.
     *
     * @param freshCheckout git has just written the worktree's files: {@code status} then runs without
     *     {@code core.preloadIndex}. Files written in the second the index was written are "racily clean" to
     *     git (it compares whole seconds) and are read again whatever the preload found, so its threads (up to
     *     20 for 10,000 files) only add a second stat of each file: 10-15 ms less on 10,000 files, 2 cores.
     */
    public FingerprintProbe startFingerprint(Path worktree, boolean freshCheckout) {
        return FingerprintProbe.start(git, worktree, freshCheckout);
    }

    /**
     * A worktree's health fingerprint.
     *
     * @param changedFiles uncommitted or untracked paths (0 = clean)
     */
    public record Fingerprint(
            String toplevel, String branch, String head, int changedFiles, String userName, String userEmail) {}

    /**
     * Uncommitted and untracked paths of a worktree, as {@code git status --porcelain} lines ("XY path"). A
     * submodule with changes of its own is one line ({@code " M lib"}, whatever the configuration's
     * {@code ignore} says); what is inside it is {@link Submodules#work}.
     */
    public List<String> uncommitted(Path worktree) throws GitException {
        List<String> args = Submodules.withNoCommands(
                "--no-optional-locks", "status", "--porcelain=v1", "--untracked-files=all", "--ignore-submodules=none");
        String out = git.runOk(worktree, args.toArray(String[]::new));
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    /**
     * Commits on {@code branch} that {@code base} does not contain, as "short-id subject", newest first.
     *
     * @param base a full ref name ({@code refs/heads/main}) or a commit id
     */
    public List<String> unmergedCommits(Path repo, String branch, String base) throws GitException {
        GitCli.Result r = git.run(repo, "log", "--format=%h %s", HEADS + branch, "--not", base, "--");
        if (!r.ok()) {
            throw new GitException("Cannot compare " + branch + " with " + base + ": " + r.errorLine());
        }
        return r.stdout().lines().filter(l -> !l.isBlank()).toList();
    }

    /**
     * Whether every commit of {@code branch} is in {@code base}.
     *
     * @param base a full ref name ({@code refs/heads/main}) or a commit id
     */
    public boolean isMerged(Path repo, String branch, String base) throws GitException {
        return git.run(repo, "merge-base", "--is-ancestor", HEADS + branch, base)
                .ok();
    }

    /**
     * The worktrees git knows of ({@code git worktree list --porcelain}), main first, bare entries left out;
     * locked and prunable ones included with their reasons. No subjects, no dirty state.
     *
     * @throws GitException when git cannot list them
     */
    public List<WorktreeInfo> list(Path repo) throws GitException {
        return PorcelainParser.list(git, repo).stream()
                .filter(e -> !e.bare())
                .map(PorcelainParser.Entry::info)
                .toList();
    }

    /**
     * Whether {@code dir} is the top level of a git worktree itself (not merely a folder inside another
     * repository's work tree, where git would answer for that repository).
     */
    public boolean isWorktreeRoot(Path dir) throws GitException {
        if (!Files.isDirectory(dir) || !Files.exists(dir.resolve(".git"))) {
            return false;
        }
        GitCli.Result r = git.run(dir, "rev-parse", "--path-format=absolute", "--show-toplevel");
        if (!r.ok()) {
            return false;
        }
        try {
            return Path.of(r.stdout().strip()).toRealPath().equals(dir.toRealPath());
        } catch (IOException e) {
            return false;
        }
    }

    /** The branch checked out in a worktree, or null when its HEAD is detached. */
    public String headBranch(Path worktree) throws GitException {
        GitCli.Result r = git.run(worktree, "symbolic-ref", "--quiet", "--short", "HEAD");
        return r.ok() ? r.stdout().strip() : null;
    }

    /**
     * Commits that only the worktree's HEAD reaches, no branch ("short-id subject", newest first): what a
     * detached HEAD would take with it when the worktree goes. Empty when HEAD is on a branch.
     */
    public List<String> commitsOnlyInHead(Path worktree) throws GitException {
        GitCli.Result r = git.run(worktree, "log", "--format=%h %s", "HEAD", "--not", "--branches", "--");
        if (!r.ok()) {
            throw new GitException("Cannot list the commits of " + worktree + ": " + r.errorLine());
        }
        return r.stdout().lines().filter(l -> !l.isBlank()).toList();
    }

    /** The best common ancestor of two revisions, if they have one. */
    public Optional<String> mergeBase(Path repo, String a, String b) throws GitException {
        GitCli.Result r = git.run(repo, "merge-base", "--end-of-options", a, b);
        return r.ok() && !r.stdout().isBlank() ? Optional.of(r.stdout().strip()) : Optional.empty();
    }

    /**
     * Stages everything in a worktree ({@code git add -A}) and commits it with the worktree's own identity.
     * Hooks are off ({@code --no-verify}, no hooks path): a hook an agent wrote must not run in Paddock's
     * process; signing is off too, the commit is the agent's, not the user's.
     *
     * <p>Changes inside a submodule are not staged by {@code git add -A} (only a submodule's moved HEAD is, as its
     * new gitlink), nor are files in an uninitialised submodule's folder: when that is all there is, nothing is
     * committed.
     *
     * <p>{@code leaveOut} (paths relative to the worktree) stays unstaged: for example a submodule whose new commit
     * exists only in this worktree, whose pointer must not be committed.
     *
     * @return the new commit id, or empty when nothing could be staged
     * @throws GitException when git refuses (no identity, ...)
     */
    public Optional<String> commitAll(Path worktree, String message, java.util.Collection<String> leaveOut)
            throws GitException {
        git.runOk(worktree, "add", "-A");
        if (!leaveOut.isEmpty()) {
            List<String> reset = new ArrayList<>(List.of("reset", "--quiet", "--"));
            leaveOut.forEach(p -> reset.add(":(literal)" + p));
            git.runOk(worktree, reset.toArray(String[]::new));
        }
        if (git.run(worktree, "diff", "--cached", "--quiet", "--ignore-submodules=none")
                .ok()) {
            return Optional.empty();
        }
        git.runOk(
                worktree,
                "-c",
                "core.hooksPath=/dev/null",
                "-c",
                "commit.gpgsign=false",
                "commit",
                "--quiet",
                "--no-verify",
                "-m",
                message);
        return Optional.of(git.runOk(worktree, "rev-parse", "HEAD").strip());
    }

    /** {@code git worktree remove [--force]}. */
    public void remove(Path repo, Path worktree, boolean force) throws GitException {
        List<String> args = new ArrayList<>(List.of("worktree", "remove"));
        if (force) {
            args.addAll(List.of("--force", "--force")); // twice: also when locked
        }
        args.add(worktree.toString());
        GitCli.Result r = git.run(repo, args, GitCli.LONG_TIMEOUT);
        if (!r.ok()) {
            throw new GitException("git worktree remove failed: " + r.errorLine());
        }
    }

    /** What git says when it refuses to remove a worktree with an initialised submodule without force. */
    static final String SUBMODULES_REFUSAL = "working trees containing submodules cannot be moved or removed";

    /**
     * Whether {@link #remove} failed because the worktree has an initialised submodule: git refuses those without
     * force, whether or not they hold work (builtin/worktree.c, {@code validate_no_submodules}).
     */
    public static boolean refusedForSubmodules(GitException e) {
        return e.getMessage() != null && e.getMessage().contains(SUBMODULES_REFUSAL);
    }

    /** Deletes a local branch; {@code force} also when it is not merged ({@code -D}). */
    public void deleteBranch(Path repo, String branch, boolean force) throws GitException {
        GitCli.Result r = git.run(repo, "branch", force ? "-D" : "-d", "--", branch);
        if (!r.ok()) {
            throw new GitException("git branch " + (force ? "-D" : "-d") + " " + branch + " failed: " + r.errorLine());
        }
    }

    /** {@code git worktree prune}: forgets worktrees whose directories are gone. */
    public void prune(Path repo) throws GitException {
        git.runOk(repo, "worktree", "prune");
    }

    /**
     * What a worktree changed since {@code baseCommit}: committed, staged, unstaged and untracked,
     * as added, modified and deleted repository-relative paths (renames count as a deletion and an
     * addition); inside submodules, what their own status lists.
     */
    public ChangeList changes(Path worktree, String baseCommit) throws GitException {
        return ChangedPaths.since(git, submodules, worktree, baseCommit);
    }

    /** Paths a worktree added, modified and deleted: a structured change list. */
    public record ChangeList(List<String> added, List<String> modified, List<String> deleted) {
        public int size() {
            return added.size() + modified.size() + deleted.size();
        }
    }
}
