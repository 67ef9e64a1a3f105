package dev.paddock.merge;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * One entry of a repository's merge queue (a row of {@code merge_requests}), an immutable snapshot; built by
 * naming its fields ({@link #builder()}, {@link #toBuilder()}).
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
 * @param stepStartedAt when the running entry entered its step; with no step (not running), when it last left
 *                      running (the same instant as {@code finishedAt} when that move finished it), or when a
 *                      person retried it; null before it first ran
 * @param finishedAt when it was merged, failed for good or cancelled (null for a conflict: it waits for a person)
 */
public record MergeEntry(long id, long repositoryId, String sandboxId, String branch, MergeState state,
                         MergeStep step, int attempts, Boolean lastTestPassed, String result, String mergeCommit,
                         String baseBefore, String theirsCommit, MergeStrategy strategy, String requestedBy,
                         Path worktree, Path testLog, Long testPid, Instant testPidStartedAt, String testContainer,
                         boolean mainTreePending,
                         Instant enqueuedAt, Instant startedAt, Instant stepStartedAt, Instant finishedAt) {

    /** A builder with every field unset (null, zero or false). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's fields, to make a changed copy. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.repositoryId = repositoryId;
        b.sandboxId = sandboxId;
        b.branch = branch;
        b.state = state;
        b.step = step;
        b.attempts = attempts;
        b.lastTestPassed = lastTestPassed;
        b.result = result;
        b.mergeCommit = mergeCommit;
        b.baseBefore = baseBefore;
        b.theirsCommit = theirsCommit;
        b.strategy = strategy;
        b.requestedBy = requestedBy;
        b.worktree = worktree;
        b.testLog = testLog;
        b.testPid = testPid;
        b.testPidStartedAt = testPidStartedAt;
        b.testContainer = testContainer;
        b.mainTreePending = mainTreePending;
        b.enqueuedAt = enqueuedAt;
        b.startedAt = startedAt;
        b.stepStartedAt = stepStartedAt;
        b.finishedAt = finishedAt;
        return b;
    }

    /** Builds a {@link MergeEntry} by naming its fields; unset ones are null, zero or false. */
    public static final class Builder {
        private long id;
        private long repositoryId;
        private String sandboxId;
        private String branch;
        private MergeState state;
        private MergeStep step;
        private int attempts;
        private Boolean lastTestPassed;
        private String result;
        private String mergeCommit;
        private String baseBefore;
        private String theirsCommit;
        private MergeStrategy strategy;
        private String requestedBy;
        private Path worktree;
        private Path testLog;
        private Long testPid;
        private Instant testPidStartedAt;
        private String testContainer;
        private boolean mainTreePending;
        private Instant enqueuedAt;
        private Instant startedAt;
        private Instant stepStartedAt;
        private Instant finishedAt;

        private Builder() {
        }

        public Builder id(long value) {
            this.id = value;
            return this;
        }

        public Builder repositoryId(long value) {
            this.repositoryId = value;
            return this;
        }

        public Builder sandboxId(String value) {
            this.sandboxId = value;
            return this;
        }

        public Builder branch(String value) {
            this.branch = value;
            return this;
        }

        public Builder state(MergeState value) {
            this.state = value;
            return this;
        }

        public Builder step(MergeStep value) {
            this.step = value;
            return this;
        }

        public Builder attempts(int value) {
            this.attempts = value;
            return this;
        }

        public Builder lastTestPassed(Boolean value) {
            this.lastTestPassed = value;
            return this;
        }

        public Builder result(String value) {
            this.result = value;
            return this;
        }

        public Builder mergeCommit(String value) {
            this.mergeCommit = value;
            return this;
        }

        public Builder baseBefore(String value) {
            this.baseBefore = value;
            return this;
        }

        public Builder theirsCommit(String value) {
            this.theirsCommit = value;
            return this;
        }

        public Builder strategy(MergeStrategy value) {
            this.strategy = value;
            return this;
        }

        public Builder requestedBy(String value) {
            this.requestedBy = value;
            return this;
        }

        public Builder worktree(Path value) {
            this.worktree = value;
            return this;
        }

        public Builder testLog(Path value) {
            this.testLog = value;
            return this;
        }

        public Builder testPid(Long value) {
            this.testPid = value;
            return this;
        }

        public Builder testPidStartedAt(Instant value) {
            this.testPidStartedAt = value;
            return this;
        }

        public Builder testContainer(String value) {
            this.testContainer = value;
            return this;
        }

        public Builder mainTreePending(boolean value) {
            this.mainTreePending = value;
            return this;
        }

        public Builder enqueuedAt(Instant value) {
            this.enqueuedAt = value;
            return this;
        }

        public Builder startedAt(Instant value) {
            this.startedAt = value;
            return this;
        }

        public Builder stepStartedAt(Instant value) {
            this.stepStartedAt = value;
            return this;
        }

        public Builder finishedAt(Instant value) {
            this.finishedAt = value;
            return this;
        }

        public MergeEntry build() {
            return new MergeEntry(id, repositoryId, sandboxId, branch, state, step, attempts, lastTestPassed, result,
                    mergeCommit, baseBefore, theirsCommit, strategy, requestedBy, worktree, testLog, testPid,
                    testPidStartedAt, testContainer, mainTreePending, enqueuedAt, startedAt, stepStartedAt, finishedAt);
        }
    }


    /**
     * How long the current attempt has run (running: up to {@code now}), or how long the last one ran, from
     * {@code startedAt} to the moment it left running (merged, failed, conflict, cancelled, or back in the queue).
     * The one definition for the CLI, the API and the panel.
     *
     * @return a non-negative duration; null when it never ran, while it waits in the queue (see {@link #waitingSince}),
     *         or after a retry (the last attempt's end is no longer known)
     */
    public Duration elapsed(Instant now) {
        if (startedAt == null) {
            return null;
        }
        Instant end;
        if (state == MergeState.RUNNING) {
            end = now;
        } else if (state == MergeState.QUEUED) {
            return null;
        } else {
            end = stepStartedAt != null && step == null ? stepStartedAt : finishedAt;
        }
        return end == null || end.isBefore(startedAt) ? null : Duration.between(startedAt, end);
    }

    /** How long a running entry has been in its step, up to {@code now}; null otherwise. */
    public Duration stepElapsed(Instant now) {
        return state != MergeState.RUNNING || stepStartedAt == null ? null
                : Duration.between(stepStartedAt, now).isNegative() ? Duration.ZERO : Duration.between(stepStartedAt, now);
    }

    /**
     * Since when a queued entry waits: its enqueuing, or later, when it went back in the queue (a failed attempt,
     * a retry); null for an entry that is not queued.
     */
    public Instant waitingSince() {
        if (state != MergeState.QUEUED) {
            return null;
        }
        return step == null && stepStartedAt != null && enqueuedAt != null && stepStartedAt.isAfter(enqueuedAt)
                ? stepStartedAt : enqueuedAt;
    }

    /**
     * The attempts made, counting the one under way or the one it ended with ({@code attempts} counts failed ones
     * only): running, merged or in conflict, the failed ones plus this one; failed for good or queued, the failed
     * ones, and so while it waits for a policy review (stopped before an attempt that counts); cancelled while
     * running, the failed ones plus the cancelled one (its {@code finishedAt} equals the moment it left running),
     * else the failed ones.
     */
    public int attemptsMade() {
        return switch (state) {
            case RUNNING, MERGED, CONFLICT -> attempts + 1;
            case FAILED, QUEUED, POLICY_REVIEW -> attempts;
            case CANCELLED -> attempts + (finishedAt != null && finishedAt.equals(stepStartedAt) && startedAt != null
                    && !startedAt.isAfter(finishedAt) ? 1 : 0);
        };
    }

    /** Short text naming the entry in messages: {@code #12 agent/fix (fix-001)}. */
    public String label() {
        return "#" + id + " " + branch + (sandboxId == null ? "" : " (" + sandboxId + ")");
    }
}
