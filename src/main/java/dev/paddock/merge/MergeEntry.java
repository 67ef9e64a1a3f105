package dev.paddock.merge;

import dev.paddock.isolation.RunRef;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * One entry of a repository's merge queue (a row of {@code merge_requests}), an immutable snapshot; built by
 * naming its fields ({@link #builder()}, {@link #toBuilder()}), never by position; {@link MergeStore} maps its row in
 * one place.
 *
 * <p>Its identity and where it is sit at the top; the rest is grouped: what was asked ({@link Request}), the current
 * or last attempt and its outcome ({@link Attempt}), and where the attempt's test run is ({@link RunRef}).
 *
 * @param id the row's id
 * @param repositoryId store id of the repository
 * @param state where it is in the queue
 * @param step the running entry's step, or null when it is not running
 * @param request what was asked: which branch, merged how, by whom, when
 * @param attempt the current or last attempt: its times, its commits, its worktree, its test run and its outcome
 * @param testRun the running test's process (host or bubblewrap run; its process group) or container (container-tier
 *     sandbox), as recorded; {@link RunRef#NONE} when no test runs
 */
public record MergeEntry(
        long id,
        long repositoryId,
        MergeState state,
        MergeStep step,
        Request request,
        Attempt attempt,
        RunRef testRun) {

    /**
     * What was asked: the branch to merge and how, fixed when the entry is enqueued.
     *
     * @param sandboxId the sandbox whose branch it merges, or null for a branch a person enqueued
     * @param branch the branch it merges
     * @param strategy how it merges
     * @param requestedBy who enqueued it
     * @param enqueuedAt when it was enqueued
     */
    public record Request(
            String sandboxId, String branch, MergeStrategy strategy, String requestedBy, Instant enqueuedAt) {}

    /**
     * The current or last attempt, and its outcome.
     *
     * @param attempts failed attempts so far (tests failed or timed out, git failed); conflicts do not count
     * @param startedAt when the current or last attempt started, or null before the first
     * @param stepStartedAt when the running entry entered its step; with no step (not running), when it last left
     *     running (the same instant as {@code finishedAt} when that move finished it), or when a person retried it;
     *     null before it first ran
     * @param finishedAt when it was merged, failed for good or cancelled (null for a conflict: it waits for a person)
     * @param baseBefore base's commit when the attempt started (ours)
     * @param theirsCommit the branch's commit being merged (theirs)
     * @param mergeCommit the merge commit on base once merged; while merging, the candidate about to become base
     * @param worktree the private merge worktree while one exists (kept for a conflict), else null
     * @param mainTreePending whether the worktree that has base checked out still has to follow the merge (its files
     *     brought to the merged base; {@link MergeRecovery} does it after a restart)
     * @param testLog the test command's output file of the last run, or null
     * @param lastTestPassed whether the last test run passed; null when none ran (orders the queue: passed first)
     * @param result last outcome in words (why it failed, which files conflict, ...)
     */
    public record Attempt(
            int attempts,
            Instant startedAt,
            Instant stepStartedAt,
            Instant finishedAt,
            String baseBefore,
            String theirsCommit,
            String mergeCommit,
            Path worktree,
            boolean mainTreePending,
            Path testLog,
            Boolean lastTestPassed,
            String result) {}

    public MergeEntry {
        testRun = testRun == null ? RunRef.NONE : testRun;
    }

    /** A builder with every field unset (null, zero or false). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's fields, to make a changed copy. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.repositoryId = repositoryId;
        b.state = state;
        b.step = step;
        b.sandboxId = request.sandboxId();
        b.branch = request.branch();
        b.strategy = request.strategy();
        b.requestedBy = request.requestedBy();
        b.enqueuedAt = request.enqueuedAt();
        b.attempts = attempt.attempts();
        b.startedAt = attempt.startedAt();
        b.stepStartedAt = attempt.stepStartedAt();
        b.finishedAt = attempt.finishedAt();
        b.baseBefore = attempt.baseBefore();
        b.theirsCommit = attempt.theirsCommit();
        b.mergeCommit = attempt.mergeCommit();
        b.worktree = attempt.worktree();
        b.mainTreePending = attempt.mainTreePending();
        b.testLog = attempt.testLog();
        b.lastTestPassed = attempt.lastTestPassed();
        b.result = attempt.result();
        b.testPid = testRun.pid();
        b.testPidStartedAt = testRun.startedAt();
        b.testContainer = testRun.engineId();
        return b;
    }

    /**
     * Builds a {@link MergeEntry} by naming its fields; unset ones are null, zero or false. Its setters are flat (one a
     * field, named as the store's columns); {@link #build()} groups them.
     */
    public static final class Builder {
        private long id;
        private long repositoryId;
        private MergeState state;
        private MergeStep step;
        private String sandboxId;
        private String branch;
        private MergeStrategy strategy;
        private String requestedBy;
        private Instant enqueuedAt;
        private int attempts;
        private Instant startedAt;
        private Instant stepStartedAt;
        private Instant finishedAt;
        private String baseBefore;
        private String theirsCommit;
        private String mergeCommit;
        private Path worktree;
        private boolean mainTreePending;
        private Path testLog;
        private Boolean lastTestPassed;
        private String result;
        private Long testPid;
        private Instant testPidStartedAt;
        private String testContainer;

        private Builder() {}

        public Builder id(long value) {
            this.id = value;
            return this;
        }

        public Builder repositoryId(long value) {
            this.repositoryId = value;
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

        /** {@link Request#sandboxId()}. */
        public Builder sandboxId(String value) {
            this.sandboxId = value;
            return this;
        }

        /** {@link Request#branch()}. */
        public Builder branch(String value) {
            this.branch = value;
            return this;
        }

        /** {@link Request#strategy()}. */
        public Builder strategy(MergeStrategy value) {
            this.strategy = value;
            return this;
        }

        /** {@link Request#requestedBy()}. */
        public Builder requestedBy(String value) {
            this.requestedBy = value;
            return this;
        }

        /** {@link Request#enqueuedAt()}. */
        public Builder enqueuedAt(Instant value) {
            this.enqueuedAt = value;
            return this;
        }

        /** {@link Attempt#attempts()}. */
        public Builder attempts(int value) {
            this.attempts = value;
            return this;
        }

        /** {@link Attempt#startedAt()}. */
        public Builder startedAt(Instant value) {
            this.startedAt = value;
            return this;
        }

        /** {@link Attempt#stepStartedAt()}. */
        public Builder stepStartedAt(Instant value) {
            this.stepStartedAt = value;
            return this;
        }

        /** {@link Attempt#finishedAt()}. */
        public Builder finishedAt(Instant value) {
            this.finishedAt = value;
            return this;
        }

        /** {@link Attempt#baseBefore()}. */
        public Builder baseBefore(String value) {
            this.baseBefore = value;
            return this;
        }

        /** {@link Attempt#theirsCommit()}. */
        public Builder theirsCommit(String value) {
            this.theirsCommit = value;
            return this;
        }

        /** {@link Attempt#mergeCommit()}. */
        public Builder mergeCommit(String value) {
            this.mergeCommit = value;
            return this;
        }

        /** {@link Attempt#worktree()}. */
        public Builder worktree(Path value) {
            this.worktree = value;
            return this;
        }

        /** {@link Attempt#mainTreePending()}. */
        public Builder mainTreePending(boolean value) {
            this.mainTreePending = value;
            return this;
        }

        /** {@link Attempt#testLog()}. */
        public Builder testLog(Path value) {
            this.testLog = value;
            return this;
        }

        /** {@link Attempt#lastTestPassed()}. */
        public Builder lastTestPassed(Boolean value) {
            this.lastTestPassed = value;
            return this;
        }

        /** {@link Attempt#result()}. */
        public Builder result(String value) {
            this.result = value;
            return this;
        }

        /** {@link RunRef#pid()} of {@link MergeEntry#testRun()}. */
        public Builder testPid(Long value) {
            this.testPid = value;
            return this;
        }

        /** {@link RunRef#startedAt()} of {@link MergeEntry#testRun()}. */
        public Builder testPidStartedAt(Instant value) {
            this.testPidStartedAt = value;
            return this;
        }

        /** {@link RunRef#engineId()} of {@link MergeEntry#testRun()}: the container's id. */
        public Builder testContainer(String value) {
            this.testContainer = value;
            return this;
        }

        public MergeEntry build() {
            return new MergeEntry(
                    id,
                    repositoryId,
                    state,
                    step,
                    new Request(sandboxId, branch, strategy, requestedBy, enqueuedAt),
                    new Attempt(
                            attempts,
                            startedAt,
                            stepStartedAt,
                            finishedAt,
                            baseBefore,
                            theirsCommit,
                            mergeCommit,
                            worktree,
                            mainTreePending,
                            testLog,
                            lastTestPassed,
                            result),
                    new RunRef(testPid, testPidStartedAt, testContainer));
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
        Instant started = attempt.startedAt();
        if (started == null) {
            return null;
        }
        Instant end;
        if (state == MergeState.RUNNING) {
            end = now;
        } else if (state == MergeState.QUEUED) {
            return null;
        } else {
            end = attempt.stepStartedAt() != null && step == null ? attempt.stepStartedAt() : attempt.finishedAt();
        }
        return end == null || end.isBefore(started) ? null : Duration.between(started, end);
    }

    /** How long a running entry has been in its step, up to {@code now}; null otherwise. */
    public Duration stepElapsed(Instant now) {
        Instant since = attempt.stepStartedAt();
        return state != MergeState.RUNNING || since == null
                ? null
                : Duration.between(since, now).isNegative() ? Duration.ZERO : Duration.between(since, now);
    }

    /**
     * Since when a queued entry waits: its enqueuing, or later, when it went back in the queue (a failed attempt,
     * a retry); null for an entry that is not queued.
     */
    public Instant waitingSince() {
        if (state != MergeState.QUEUED) {
            return null;
        }
        Instant left = attempt.stepStartedAt();
        Instant enqueued = request.enqueuedAt();
        return step == null && left != null && enqueued != null && left.isAfter(enqueued) ? left : enqueued;
    }

    /**
     * The attempts made, counting the one under way or the one it ended with ({@code attempts} counts failed ones
     * only): running, merged or in conflict, the failed ones plus this one; failed for good or queued, the failed
     * ones, and so while it waits for a policy review (stopped before an attempt that counts); cancelled while
     * running, the failed ones plus the cancelled one (its {@code finishedAt} equals the moment it left running),
     * else the failed ones.
     */
    public int attemptsMade() {
        Attempt a = attempt;
        return switch (state) {
            case RUNNING, MERGED, CONFLICT -> a.attempts() + 1;
            case FAILED, QUEUED, POLICY_REVIEW -> a.attempts();
            case CANCELLED ->
                a.attempts()
                        + (a.finishedAt() != null
                                        && a.finishedAt().equals(a.stepStartedAt())
                                        && a.startedAt() != null
                                        && !a.startedAt().isAfter(a.finishedAt())
                                ? 1
                                : 0);
        };
    }

    /** Short text naming the entry in messages: {@code #12 agent/fix (fix-001)}. */
    public String label() {
        return "#" + id + " " + request.branch()
                + (request.sandboxId() == null ? "" : " (" + request.sandboxId() + ")");
    }
}
