package dev.paddock.merge;

import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.WorktreeHeads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The git work of the merge queue, through the git CLI (argument lists, never a shell string): the private merge
 * worktree {@code <repo>/.worktrees/.merge/<entry-id>} detached at base, the {@code --no-ff --no-commit} merge in
 * it, the commit, and the compare-and-set move of base ({@code git update-ref refs/heads/<base> <new> <old>}).
 * Read-only questions (the tips of base and a branch, ancestry, where base is checked out, whether the checked-out
 * tree can follow a merge) are answered in this process when that is certain ({@link InProcessGit},
 * {@link WorktreeHeads}), else by git; everything that writes stays with git.
 */
public final class MergeGit {
    /** Folder of the merge worktrees inside {@code <repo>/.worktrees/}. */
    public static final String MERGE_DIR =
            dev.paddock.worktree.WorktreeChanges.MERGE_WORKTREES.getFileName().toString();
    /** Identity of the queue's merge commits when the repository has none configured. */
    static final List<String> IDENTITY =
            List.of("-c", "user.name=Paddock merge queue", "-c", "user.email=merge-queue@paddock.invalid");

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(MergeGit.class);

    private final GitCli git;

    public MergeGit(GitCli git) {
        this.git = git;
    }

    /** The git CLI underneath (for {@link PolicyGate}'s own read-only questions). */
    GitCli cli() {
        return git;
    }

    /** {@code <repo>/.worktrees/.merge}. */
    public static Path mergeRoot(Path repo) {
        return repo.resolve(dev.paddock.worktree.WorktreeChanges.MERGE_WORKTREES);
    }

    /** The merge worktree of an entry. */
    public static Path worktreeOf(Path repo, long entryId) {
        return mergeRoot(repo).resolve(Long.toString(entryId));
    }

    /**
     * Commit id of a ref or revision, or empty when it names nothing. A branch ({@code refs/heads/...}) is read in
     * this process; anything else, or a repository JGit cannot read, by {@code git rev-parse}.
     */
    public Optional<String> resolve(Path dir, String rev) throws GitException {
        if (rev.startsWith("refs/heads/")) {
            try {
                return InProcessGit.resolve(dir, rev);
            } catch (IOException | RuntimeException e) {
                LOG.debug("JGit cannot resolve {} in {} ({}); asking git", rev, dir, e.toString());
            }
        }
        return resolveCli(dir, rev);
    }

    /**
     * Whether {@code refs/heads/<branch>} exists: seen in git's ref files ({@link WorktreeHeads#branchFileExists}),
     * else resolved ({@link #resolve}).
     */
    public boolean branchExists(Path repo, String branch) throws GitException {
        return WorktreeHeads.branchFileExists(repo, branch)
                || resolve(repo, "refs/heads/" + branch).isPresent();
    }

    private Optional<String> resolveCli(Path dir, String rev) throws GitException {
        GitCli.Result r = git.run(dir, "rev-parse", "-q", "--verify", rev + "^{commit}");
        return r.ok() ? Optional.of(r.stdout().strip()) : Optional.empty();
    }

    /** Commit ids of two revisions in one git call (each empty when it names nothing). */
    public List<Optional<String>> resolveBoth(Path dir, String a, String b) throws GitException {
        GitCli.Result pair = git.run(dir, "rev-parse", "--revs-only", a + "^{commit}", b + "^{commit}");
        List<String> ids = pair.ok() ? pair.stdout().lines().map(String::strip).toList() : List.of();
        if (ids.size() == 2 && ids.stream().allMatch(id -> id.matches("[0-9a-f]{40,64}"))) {
            return List.of(Optional.of(ids.get(0)), Optional.of(ids.get(1)));
        }
        return List.of(resolveCli(dir, a), resolveCli(dir, b)); // one is missing: say which
    }

    /**
     * The tips of base and of a branch (refs, e.g. {@code refs/heads/main}) and whether the branch's tip is already
     * in base, read in this process; by git ({@code rev-parse}, {@code merge-base --is-ancestor}) when JGit cannot
     * read the repository.
     */
    InProcessGit.Tips tips(Path repo, String oursRef, String theirsRef) throws GitException {
        try {
            return InProcessGit.tips(repo, oursRef, theirsRef);
        } catch (IOException | RuntimeException e) {
            LOG.debug("JGit cannot read {} ({}); asking git", repo, e.toString());
        }
        List<Optional<String>> both = resolveBoth(repo, oursRef, theirsRef);
        boolean in = both.get(0).isPresent()
                && both.get(1).isPresent()
                && isAncestorCli(repo, both.get(1).get(), both.get(0).get());
        return new InProcessGit.Tips(both.get(0), both.get(1), in);
    }

    /**
     * Whether {@code ancestor} is an ancestor of (or equal to) {@code commit}: two commit ids are answered in this
     * process, revisions (HEAD, ...) and repositories JGit cannot read by {@code git merge-base --is-ancestor}.
     */
    public boolean isAncestor(Path dir, String ancestor, String commit) throws GitException {
        if (isId(ancestor) && isId(commit)) {
            try {
                return InProcessGit.isAncestor(dir, ancestor, commit);
            } catch (IOException | RuntimeException e) {
                LOG.debug("JGit cannot read {} ({}); asking git", dir, e.toString());
            }
        }
        return isAncestorCli(dir, ancestor, commit);
    }

    /** A full SHA-1 commit id (what JGit reads; anything else goes to git). */
    private static boolean isId(String s) {
        return s != null && s.length() == 40 && s.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f');
    }

    private boolean isAncestorCli(Path dir, String ancestor, String commit) throws GitException {
        return git.run(dir, "merge-base", "--is-ancestor", ancestor, commit).ok();
    }

    /** Creates the merge worktree detached at {@code commit} (removing a leftover one first). */
    public void addWorktree(Path repo, Path wt, String commit) throws GitException {
        remove(repo, wt);
        try {
            Files.createDirectories(wt.getParent());
        } catch (IOException e) {
            throw new GitException("Cannot create " + wt.getParent() + ": " + e.getMessage(), e);
        }
        GitCli.Result r =
                git.run(repo, List.of("worktree", "add", "--detach", wt.toString(), commit), GitCli.LONG_TIMEOUT);
        if (!r.ok()) {
            throw new GitException("Cannot create the merge worktree " + wt + ": " + r.errorLine());
        }
    }

    /** Removes a merge worktree (forced: it is Paddock's own) and its registration; nothing when absent. */
    public void remove(Path repo, Path wt) throws GitException {
        if (Files.exists(wt)) {
            git.run(repo, List.of("worktree", "remove", "--force", "--force", wt.toString()), GitCli.LONG_TIMEOUT);
            deleteTree(wt);
        }
        git.run(repo, "worktree", "prune");
    }

    /** {@link #remove} only when the folder exists (no git call otherwise). */
    public void removeIfPresent(Path repo, Path wt) throws GitException {
        if (Files.exists(wt)) {
            remove(repo, wt);
        }
    }

    /** The merge worktrees on disk (folders under {@code .worktrees/.merge}), by entry id. */
    public List<Long> leftoverIds(Path repo) {
        Path root = mergeRoot(repo);
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        List<Long> ids = new ArrayList<>();
        try (Stream<Path> s = Files.list(root)) {
            s.forEach(p -> {
                try {
                    ids.add(Long.parseLong(p.getFileName().toString()));
                } catch (NumberFormatException ignored) {
                    // not ours
                }
            });
        } catch (IOException e) {
            return List.of();
        }
        return ids;
    }

    /** Outcome of the merge step. */
    public enum MergeOutcome {
        /** Merged without conflict, not committed yet. */
        CLEAN,
        /** Stopped on conflicts; the worktree holds the conflicted state. */
        CONFLICT,
        /** Nothing to merge: the branch is already in base. */
        UP_TO_DATE
    }

    /**
     * {@code git merge --no-ff --no-commit <theirs>} in the merge worktree (ours = its HEAD, base).
     *
     * @throws GitException when git fails for another reason than conflicts
     */
    public MergeOutcome mergeNoCommit(Path wt, String theirs) throws GitException {
        if (isAncestor(wt, theirs, "HEAD")) {
            return MergeOutcome.UP_TO_DATE;
        }
        GitCli.Result r = git.run(
                wt, withIdentity(wt, "merge", "--no-ff", "--no-commit", "--no-edit", theirs), GitCli.LONG_TIMEOUT);
        if (r.ok()) {
            return MergeOutcome.CLEAN;
        }
        if (!unmerged(wt).isEmpty()) {
            return MergeOutcome.CONFLICT;
        }
        throw new GitException("git merge failed in " + wt + ": " + r.errorLine());
    }

    /**
     * Rebases a detached copy of {@code theirs} onto {@code onto} in the merge worktree and returns the rebased
     * tip, then leaves the worktree detached at {@code onto} again. The agent's branch is not moved.
     *
     * @return empty when the rebase stops on a conflict (it is aborted; the merge then shows the conflicts)
     */
    public Optional<String> rebased(Path wt, String onto, String theirs) throws GitException {
        run(wt, "checkout", "-q", "--detach", theirs);
        GitCli.Result r = git.run(wt, withIdentity(wt, "rebase", "-q", onto), GitCli.LONG_TIMEOUT);
        Optional<String> tip = Optional.empty();
        if (r.ok()) {
            tip = resolve(wt, "HEAD");
        } else {
            git.run(wt, "rebase", "--abort");
        }
        run(wt, "checkout", "-q", "--detach", onto);
        return tip;
    }

    /** Paths git left unmerged in the worktree. */
    public List<String> unmerged(Path wt) throws GitException {
        String out = git.run(wt, "diff", "--name-only", "--diff-filter=U").stdout();
        return out.lines().filter(l -> !l.isBlank()).distinct().toList();
    }

    /** Commits what is staged in the merge worktree (the merge's parents come from MERGE_HEAD) and returns it. */
    public String commit(Path wt, String message) throws GitException {
        GitCli.Result r =
                git.run(wt, withIdentity(wt, "commit", "-q", "--no-verify", "-m", message), GitCli.LONG_TIMEOUT);
        if (!r.ok()) {
            throw new GitException("Cannot commit the merge in " + wt + ": " + r.errorLine());
        }
        return resolve(wt, "HEAD").orElseThrow();
    }

    /**
     * Moves {@code refs/heads/<branch>} from {@code expected} to {@code to} only if it still is at {@code expected}
     * (git locks the ref and compares: the compare-and-set that keeps base whole).
     *
     * @return whether it moved
     */
    public boolean moveRef(Path repo, String branch, String to, String expected, String reason) throws GitException {
        return git.run(repo, "update-ref", "-m", reason, "refs/heads/" + branch, to, expected)
                .ok();
    }

    /**
     * The worktree that has {@code branch} checked out, if any (main or linked): read from git's admin files
     * ({@link WorktreeHeads}), or from {@code git worktree list --porcelain} when they cannot be read with certainty.
     */
    public Optional<Path> checkedOutAt(Path repo, String branch) throws GitException {
        WorktreeHeads.Answer a = WorktreeHeads.find(repo, branch);
        return a.known() ? a.checkout() : checkedOutAtCli(repo, branch);
    }

    /** {@link #checkedOutAt} by {@code git worktree list --porcelain}. */
    Optional<Path> checkedOutAtCli(Path repo, String branch) throws GitException {
        String out = git.runOk(repo, "worktree", "list", "--porcelain");
        Path current = null;
        for (String line : out.split("\n")) {
            if (line.startsWith("worktree ")) {
                current = Path.of(line.substring("worktree ".length()));
            } else if (line.equals("branch refs/heads/" + branch) && current != null) {
                return Optional.of(current);
            }
        }
        return Optional.empty();
    }

    /**
     * Tracked files with uncommitted changes in a worktree ({@code git status --porcelain}, untracked files not
     * counted), as paths.
     */
    public List<String> changedTrackedFiles(Path tree) throws GitException {
        String out = git.runOk(tree, "status", "--porcelain=v1", "--untracked-files=no");
        return out.lines().filter(l -> l.length() > 3).map(l -> l.substring(3)).toList();
    }

    /**
     * Whether {@code git read-tree -m -u from to} would refuse in {@code tree} (a dry run, {@code -n}: nothing
     * changes): an untracked file where the change adds one, a local change in a file it changes, an index that
     * does not match {@code from}.
     *
     * @return git's reasons, one per line, or null when it would succeed
     */
    public String followRefRefusal(Path tree, String from, String to) throws GitException {
        GitCli.Result r = git.run(tree, List.of("read-tree", "-m", "-u", "-n", from, to), GitCli.LONG_TIMEOUT);
        if (r.ok()) {
            return null;
        }
        return String.join(
                "; ",
                r.stderr()
                        .lines()
                        .map(String::strip)
                        .filter(l -> !l.isEmpty())
                        .map(l -> l.replaceFirst("^(fatal|error): ", ""))
                        .toList());
    }

    /**
     * {@link #followRefRefusal(Path, String, String)} without git's dry run when it cannot refuse: the caller has
     * just found the tree clean with {@code git status} (its index is base's tree, which the compare-and-set of
     * base then holds to) and {@code added} (the files the merge adds, {@link InProcessGit#addedPaths}) all have
     * nothing in their way on disk. Otherwise (or with {@code added} null) git's dry run says why.
     */
    public String followRefRefusal(Path tree, String from, String to, List<String> added) throws GitException {
        if (added != null && added.stream().allMatch(p -> InProcessGit.freeOnDisk(tree, p))) {
            return null;
        }
        return followRefRefusal(tree, from, to);
    }

    /** The files {@code to} adds to {@code from}; null when that cannot be told in this process. */
    List<String> addedPaths(Path repo, String from, String to) {
        try {
            return InProcessGit.addedPaths(repo, from, to).orElse(null);
        } catch (IOException | RuntimeException e) {
            LOG.debug("JGit cannot read {} ({}); git's dry run decides", repo, e.toString());
            return null;
        }
    }

    /**
     * Brings a clean worktree's index and files from {@code from} to {@code to} after its branch ref moved:
     * {@code git read-tree -m -u from to}, a two-tree merge that changes only the files that differ between the
     * two commits and refuses to overwrite anything it would lose.
     *
     * @return false when the index no longer matches {@code from} (nothing was touched)
     */
    public boolean followRef(Path tree, String from, String to) throws GitException {
        return followRef(tree, from, to, true);
    }

    /**
     * {@link #followRef(Path, String, String)}, with the index check skipped when a dry run
     * ({@link #followRefRefusal}) has just checked it.
     */
    public boolean followRef(Path tree, String from, String to, boolean checkIndex) throws GitException {
        if (checkIndex
                && !git.run(tree, "diff-index", "--cached", "--quiet", from).ok()) {
            return false;
        }
        GitCli.Result r = git.run(tree, List.of("read-tree", "-m", "-u", from, to), GitCli.LONG_TIMEOUT);
        if (!r.ok()) {
            throw new GitException("Cannot update the files of " + tree + " to " + to + ": " + r.errorLine());
        }
        return true; // read-tree -u records the stat data of what it writes: no refresh needed
    }

    /** Writes the staged state as a tree and returns its id. */
    public String writeTree(Path wt) throws GitException {
        return git.runOk(wt, "write-tree").strip();
    }

    /**
     * Merges in core ({@code git merge-tree --write-tree}) and returns the result tree, or empty on conflicts.
     */
    public Optional<String> mergeTree(Path repo, String ours, String theirs) throws GitException {
        GitCli.Result r = git.run(repo, "merge-tree", "--write-tree", ours, theirs);
        return r.ok() ? Optional.of(r.stdout().lines().findFirst().orElse("").strip()) : Optional.empty();
    }

    /** A commit of {@code tree} with the given parents (first parent first). */
    public String commitTree(Path repo, String tree, String message, String... parents) throws GitException {
        List<String> args = new ArrayList<>(List.of("commit-tree", tree, "-m", message));
        for (String p : parents) {
            args.add("-p");
            args.add(p);
        }
        GitCli.Result r = git.run(repo, args, GitCli.DEFAULT_TIMEOUT);
        if (!r.ok()) { // most often: no identity configured; the queue's own then
            List<String> withId = new ArrayList<>(IDENTITY);
            withId.addAll(args);
            r = git.run(repo, withId, GitCli.DEFAULT_TIMEOUT);
        }
        if (!r.ok()) {
            throw new GitException("git commit-tree failed: " + r.errorLine());
        }
        return r.stdout().strip();
    }

    /** Checks the merge worktree out detached at {@code commit}, forced. */
    public void checkoutDetached(Path wt, String commit) throws GitException {
        run(wt, "checkout", "-q", "-f", "--detach", commit);
    }

    /** Aborts a merge in progress, if any. */
    public void abortMerge(Path wt) throws GitException {
        git.run(wt, "merge", "--abort");
    }

    /** Stages a file (written or deleted). */
    public void stage(Path wt, String path, boolean deleted) throws GitException {
        if (deleted) {
            run(wt, "rm", "-q", "-f", "--ignore-unmatch", "--", path);
        } else {
            run(wt, "add", "--", path);
        }
    }

    /**
     * Puts a resolved file of a merge in progress back into the index as unmerged (the stages git recorded when it
     * was staged: {@code git update-index --unresolve}); the work tree file keeps its resolved text.
     *
     * @return whether git could (false after the merge was committed once: there is nothing to restore then)
     */
    public boolean unstageResolution(Path wt, String path) throws GitException {
        return git.run(wt, "update-index", "--unresolve", "./" + path).ok(); // it takes no "--"
    }

    /**
     * Resolves {@code path} in a conflicted merge worktree by keeping one side's version byte for byte
     * ({@code git checkout --ours|--theirs}, then staged); a side that deleted the file deletes it.
     *
     * @return false when that side has no such file (it was deleted there) and the file was removed
     * @throws GitException when git fails for another reason
     */
    public boolean keepSide(Path wt, String path, boolean theirs) throws GitException {
        return keepSide(wt, path, theirs ? "--theirs" : "--ours");
    }

    /**
     * Resolves {@code path} in a merge worktree by keeping its version in {@code commit} byte for byte
     * ({@code git checkout <commit> -- path}, which also stages it); absent there, the file is removed. Unlike
     * {@code --ours}/{@code --theirs} this still works after the merge was committed once (a finish whose test
     * failed), when the index no longer holds the two sides and {@code --theirs} would silently keep what is staged.
     *
     * @param commit the side's commit (ours: base as the merge started; theirs: the branch tip merged)
     * @return false when that side has no such file and the file was removed
     * @throws GitException when git fails for another reason
     */
    public boolean keepVersion(Path wt, String path, String commit) throws GitException {
        return keepSide(wt, path, commit);
    }

    private boolean keepSide(Path wt, String path, String source) throws GitException {
        GitCli.Result r = git.run(wt, "checkout", source, "--", path);
        if (r.ok()) {
            run(wt, "add", "--", path);
            return true;
        }
        run(wt, "rm", "-q", "-f", "--ignore-unmatch", "--", path);
        return false;
    }

    private void run(Path dir, String... args) throws GitException {
        git.runOk(dir, args);
    }

    private List<String> withIdentity(Path dir, String... args) throws GitException {
        List<String> out = new ArrayList<>(identity(dir));
        out.addAll(List.of(args));
        return out;
    }

    private List<String> identity(Path dir) throws GitException {
        return git.run(dir, "config", "user.email").ok() ? List.of() : IDENTITY;
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: prune drops the registration anyway
                }
            });
        } catch (IOException ignored) {
            // gone meanwhile
        }
    }
}
