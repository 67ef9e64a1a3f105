package dev.paddock.merge;

import dev.paddock.worktree.GitException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * The in-core merge of an entry (tips, {@code git merge-tree --write-tree}, {@code git commit-tree}, the files it
 * adds) started on
 * another thread while the queue's thread checks base's checked-out tree with {@code git status}: the two touch
 * different things (the object database; the checkout's index and files), so the clean path waits for the slower
 * of the two instead of their sum. Nothing is recorded and no ref moves here: when the checkout turns out dirty,
 * the result is dropped (at most a commit object nobody points at, which {@code git gc} prunes; the queue does not
 * start another one while it keeps refusing, see {@link MergeQueue}).
 */
final class EarlyMerge {
    /**
     * What was prepared.
     *
     * @param tips base's and the branch's tips as read at the start
     * @param tree the merged tree; empty when not merged in core (a tip missing, nothing to merge, or conflicts)
     * @param candidate the merge commit of {@code tree} (parents: base's tip, the branch's tip); null without a tree
     * @param added the files the merge adds to base ({@link MergeGit#addedPaths}); null when not known
     */
    record Result(InProcessGit.Tips tips, Optional<String> tree, String candidate, List<String> added) {}

    private final CompletableFuture<Result> future;

    private EarlyMerge(CompletableFuture<Result> future) {
        this.future = future;
    }

    /** Starts the merge of {@code branch} into {@code baseBranch} of {@code repo} on {@code executor}. */
    static EarlyMerge start(
            MergeGit git, Path repo, String baseBranch, String branch, String message, Executor executor) {
        return new EarlyMerge(CompletableFuture.supplyAsync(
                () -> {
                    try {
                        InProcessGit.Tips tips = git.tips(repo, "refs/heads/" + baseBranch, "refs/heads/" + branch);
                        if (tips.ours().isEmpty() || tips.theirs().isEmpty() || tips.theirsInOurs()) {
                            return new Result(tips, Optional.empty(), null, null);
                        }
                        Optional<String> tree = git.mergeTree(
                                        repo, tips.ours().get(), tips.theirs().get())
                                .filter(t -> !t.isEmpty());
                        if (tree.isEmpty()) {
                            return new Result(tips, tree, null, null);
                        }
                        String candidate = git.commitTree(
                                repo,
                                tree.get(),
                                message,
                                tips.ours().get(),
                                tips.theirs().get());
                        return new Result(
                                tips,
                                tree,
                                candidate,
                                git.addedPaths(repo, tips.ours().get(), tree.get()));
                    } catch (GitException e) {
                        throw new CompletionException(e);
                    }
                },
                executor));
    }

    /**
     * Waits for the result.
     *
     * @throws GitException what git said when a step failed
     */
    Result result() throws GitException {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof GitException g) {
                throw g;
            }
            throw e;
        }
    }
}
