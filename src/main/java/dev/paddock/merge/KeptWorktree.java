package dev.paddock.merge;

import dev.paddock.isolation.LinkedWorktree;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.WorktreeChanges;
import dev.paddock.worktree.WorktreeHeads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one merge worktree a repository keeps between entries ({@code <repo>/.worktrees/.merge/kept}), so an entry
 * with a test command does not check the whole tree out and delete it again (see
 * docs/decisions/0021-kept-merge-worktree.md). A clean merge's test takes it where it is
 * ({@link #checkOutInPlace}); an attempt that merges in the worktree (conflicts, the rebase strategy) takes it to
 * the entry's own path ({@link MergeGit#worktreeOf}, {@link #checkOut}). Either way it is checked out detached and
 * forced at the commit to test, cleaned of every untracked and ignored file, and then checked: HEAD is that commit,
 * nothing is modified, untracked or ignored, no merge or rebase is under way. Any doubt, and it is removed and a new
 * one added. When an attempt at the entry's path ends its worktree is given back (moved to {@code kept}) unless one
 * is kept already or a rebase or the like is under way in it; a conflicted entry keeps its worktree for a person.
 */
final class KeptWorktree {
    private static final Logger LOG = LoggerFactory.getLogger(KeptWorktree.class);
    /**
     * Admin-directory files a forced checkout does not undo: work under way, and a worktree's own configuration (a
     * test may write the admin directory; settings it left there must not reach the next entry's git commands).
     */
    private static final List<String> UNDER_WAY = List.of(
            "rebase-merge",
            "rebase-apply",
            "CHERRY_PICK_HEAD",
            "REVERT_HEAD",
            "BISECT_LOG",
            "sequencer",
            "config.worktree");
    /**
     * One lock per repository: a person's resolution gives a worktree back while the queue takes one (both through
     * the queue's one instance).
     */
    private final Map<Path, Object> locks = new ConcurrentHashMap<>();

    /**
     * The {@code git clean} started in a repository's kept worktree when a test in it ended ({@link #cleanAfterTest});
     * true when it ran and succeeded. The next take waits for it and then runs no clean of its own.
     */
    private final Map<Path, Future<Boolean>> cleans = new ConcurrentHashMap<>();

    private final MergeGit merge;
    private final GitCli git;
    /** Where {@link #cleanAfterTest} runs (beside the queue's thread). */
    private final ExecutorService background;

    KeptWorktree(MergeGit merge, ExecutorService background) {
        this.merge = merge;
        this.git = merge.cli();
        this.background = background;
    }

    /** {@code <repo>/.worktrees/.merge/kept}. */
    static Path of(Path repo) {
        return repo.resolve(WorktreeChanges.KEPT_MERGE_WORKTREE); // not a number: no entry's
    }

    /**
     * Puts a clean worktree detached at {@code commit} at {@code wt} (the entry's own path, for a merge made in the
     * worktree): the kept one moved there when it is whole ({@code git worktree move} refuses one whose {@code .git}
     * and admin directory do not name each other), else a new one.
     *
     * @throws GitException when no worktree can be made
     */
    void checkOut(Path repo, Path wt, String commit) throws GitException {
        boolean cleaned = awaitClean(repo);
        synchronized (lock(repo)) {
            Path kept = of(repo);
            if (Files.isDirectory(kept)) {
                merge.removeIfPresent(repo, wt); // a leftover of this entry's id (a killed Paddock's)
                if (move(repo, kept, wt) && refresh(wt, commit, cleaned)) {
                    return;
                }
                merge.remove(repo, kept);
            }
            merge.addWorktree(repo, wt, commit);
        }
    }

    /**
     * Makes the kept worktree itself clean and detached at {@code commit}, where it is (no move: nothing of a clean
     * merge's test needs the entry's own path), and returns it. It is used only when its {@code .git} file and its
     * admin directory still name each other in this repository ({@link #linkedHere}): every git command that follows
     * runs in it, and one whose {@code .git} a test pointed elsewhere would act there. Otherwise, or when it cannot
     * be made clean, it is removed and a new one added at the same path.
     *
     * @throws GitException when no worktree can be made
     */
    Path checkOutInPlace(Path repo, String commit) throws GitException {
        boolean cleaned = awaitClean(repo);
        synchronized (lock(repo)) {
            Path kept = of(repo);
            if (Files.isDirectory(kept)) {
                if (linkedHere(repo, kept) && refresh(kept, commit, cleaned)) {
                    return kept;
                }
                LOG.info("The kept merge worktree {} is replaced", kept);
                merge.remove(repo, kept);
            }
            merge.addWorktree(repo, kept, commit);
            return kept;
        }
    }

    /**
     * Whether {@code wt} is a linked worktree of {@code repo} whose {@code .git} file names an admin directory
     * {@code <common dir>/worktrees/<name>} of this repository that names {@code wt} back (its {@code gitdir} file)
     * and shares this repository's common directory: what {@code git worktree move} checks before it moves one.
     * Read in this process; false on any doubt.
     */
    static boolean linkedHere(Path repo, Path wt) {
        try {
            Path repoGitDir = WorktreeHeads.gitDirOf(repo);
            if (repoGitDir == null) {
                return false;
            }
            Path common = WorktreeHeads.commonDirOf(repoGitDir).toRealPath();
            Path admin = LinkedWorktree.adminDirOf(wt).toRealPath();
            if (!common.resolve("worktrees").equals(admin.getParent())
                    || !WorktreeHeads.commonDirOf(admin).toRealPath().equals(common)) {
                return false;
            }
            Path back = Path.of(Files.readString(admin.resolve("gitdir"), StandardCharsets.UTF_8)
                    .strip());
            return admin.resolve(back).toRealPath().equals(wt.resolve(".git").toRealPath());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Starts {@code git clean -ffdx} in the kept worktree once a test in it has ended (every process of the test is
     * gone by then), beside the queue's thread: what the test left is deleted while base moves, and the next take
     * ({@link #checkOutInPlace}, {@link #checkOut}) waits for it instead of cleaning. That take still checks the
     * worktree with {@code git status} and cleans again when it lists anything. Nothing when {@code wt} is not the
     * kept worktree.
     */
    void cleanAfterTest(Path repo, Path wt) {
        if (!wt.equals(of(repo))) {
            return;
        }
        try {
            Future<Boolean> clean = background.submit(() -> linkedHere(repo, wt)
                    && git.run(wt, List.of("clean", "-q", "-ffdx"), GitCli.LONG_TIMEOUT)
                            .ok());
            Future<Boolean> before = cleans.put(key(repo), clean);
            if (before != null) {
                before.cancel(false); // not waited for by anyone: the next take waits for the newer one
            }
        } catch (RejectedExecutionException e) {
            LOG.debug("The queue is closing: the next take cleans {}", wt);
        }
    }

    /** Waits for the clean {@link #cleanAfterTest} started in {@code repo}'s kept worktree: whether it succeeded. */
    private boolean awaitClean(Path repo) {
        Future<Boolean> clean = cleans.remove(key(repo));
        if (clean == null) {
            return false;
        }
        try {
            return clean.get(GitCli.LONG_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | CancellationException e) {
            return false;
        }
    }

    /** Keeps an ended attempt's worktree for the next entry, unless one is kept already; else removes it. */
    void giveBack(Path repo, Path wt) throws GitException {
        if (!Files.exists(wt)) {
            return;
        }
        synchronized (lock(repo)) {
            if (!Files.exists(of(repo)) && !underWay(wt) && move(repo, wt, of(repo))) {
                return;
            }
            merge.remove(repo, wt);
        }
    }

    private Object lock(Path repo) {
        return locks.computeIfAbsent(key(repo), p -> new Object());
    }

    private static Path key(Path repo) {
        return repo.toAbsolutePath().normalize();
    }

    /** {@code git worktree move}: false when git refuses (a worktree with submodules, a locked one). */
    private boolean move(Path repo, Path from, Path to) throws GitException {
        GitCli.Result r = git.run(repo, "worktree", "move", from.toString(), to.toString());
        if (!r.ok()) {
            LOG.info("Cannot move the merge worktree {} to {}: {}", from, to, r.errorLine());
        }
        return r.ok();
    }

    /**
     * Checks {@code commit} out in {@code wt}, detached and forced (which also ends a merge under way; a branch never
     * moves, whatever HEAD was), cleans it, and checks it is exactly that commit's tree.
     *
     * @param cleaned whether {@code wt} was cleaned after the last test in it ended ({@link #cleanAfterTest}): no
     *     clean before the check then, and one (with a second check) only when the check lists untracked or ignored
     *     files
     */
    private boolean refresh(Path wt, String commit, boolean cleaned) throws GitException {
        if (underWay(wt)
                || !git.run(wt, List.of("checkout", "-q", "-f", "--detach", commit), GitCli.LONG_TIMEOUT)
                        .ok()
                || !cleaned && !clean(wt)) {
            LOG.info("The kept merge worktree {} cannot be checked out again; a new one is made", wt);
            return false;
        }
        boolean whole = whole(wt, commit);
        if (!whole && cleaned) { // something appeared after the clean that followed the last test: cleaned here
            whole = clean(wt) && whole(wt, commit);
        }
        if (!whole) {
            LOG.info("The kept merge worktree {} is not clean after a checkout; a new one is made", wt);
        }
        return whole;
    }

    private boolean clean(Path wt) throws GitException {
        return git.run(wt, List.of("clean", "-q", "-ffdx"), GitCli.LONG_TIMEOUT).ok();
    }

    /** Whether {@code wt} is exactly {@code commit}'s tree, detached: HEAD, index, files, nothing untracked. */
    private boolean whole(Path wt, String commit) throws GitException {
        // One look for both: HEAD ("# branch.oid") and any entry at all (modified, untracked, ignored).
        GitCli.Result status = git.run(
                wt,
                List.of(
                        "status",
                        "--porcelain=v2",
                        "--branch",
                        "--ignored",
                        "--untracked-files=all",
                        "--ignore-submodules=none"),
                GitCli.LONG_TIMEOUT);
        return status.ok()
                && status.stdout().lines().allMatch(l -> l.startsWith("# "))
                && status.stdout().lines().anyMatch(l -> l.equals("# branch.oid " + commit))
                && status.stdout().lines().anyMatch(l -> l.equals("# branch.head (detached)"))
                && !underWay(wt)
                && !Files.exists(adminFile(wt, "MERGE_HEAD"));
    }

    /**
     * Whether a rebase, cherry-pick or the like is under way in {@code wt} (or its admin directory cannot be read).
     */
    private static boolean underWay(Path wt) {
        return UNDER_WAY.stream().anyMatch(f -> Files.exists(adminFile(wt, f)));
    }

    /** A file of {@code wt}'s admin directory; one that exists when the directory cannot be found (any doubt). */
    private static Path adminFile(Path wt, String name) {
        try {
            return LinkedWorktree.adminDirOf(wt).resolve(name);
        } catch (IOException | RuntimeException e) {
            return wt; // exists: taken as work under way
        }
    }
}
