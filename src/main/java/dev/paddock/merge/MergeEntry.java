package dev.paddock.merge;

import java.nio.file.Path;
import java.time.Instant;

/**
 * One entry of a repository's merge queue (a row of {@code merge_requests}), an immutable snapshot.
 *
 * @param sandboxId the sandbox whose branch it merges, or null for a branch a person enqueued
 * @param attempts failed attempts so far (tests failed or timed out, git failed); conflicts do not count
 * @param lastTestPassed whether the last test run passed; null when none ran (orders the queue: passed first)
 * @param result last outcome in words (why it failed, which files conflict, ...)
 * @param mergeCommit the merge commit on base once merged; while merging, the candidate about to become base
 * @param baseBefore base's commit when the attempt started (ours)
 * @param theirsCommit the branch's commit being merged (theirs)
 * @param worktree the private merge worktree while one exists (kept for a conflict), else null
 * @param testLog the test command's output file of the last run, or null
 * @param testPid the running test's process (host or bubblewrap run; its process group), or null
 * @param testPidStartedAt when that process started (tells a reused pid apart), or null
 * @param testContainer the id of the container the test runs in (container-tier sandbox), or null
 */
public record MergeEntry(long id, long repositoryId, String sandboxId, String branch, MergeState state,
                         MergeStep step, int attempts, Boolean lastTestPassed, String result, String mergeCommit,
                         String baseBefore, String theirsCommit, MergeStrategy strategy, String requestedBy,
                         Path worktree, Path testLog, Long testPid, Instant testPidStartedAt, String testContainer,
                         boolean mainTreePending,
                         Instant enqueuedAt, Instant startedAt, Instant stepStartedAt, Instant finishedAt) {

    /** Short text naming the entry in messages: {@code #12 agent/fix (fix-001)}. */
    public String label() {
        return "#" + id + " " + branch + (sandboxId == null ? "" : " (" + sandboxId + ")");
    }
}
