package dev.paddock.api;

import dev.paddock.merge.MergeEntry;
import java.time.Duration;
import java.time.Instant;

/**
 * A merge queue entry as the API shows it.
 *
 * @param position 1-based place in the queue for a queued entry (0 = running), null otherwise
 * @param attempts failed attempts so far ({@link MergeEntry#attempts()})
 * @param elapsedMs {@link MergeEntry#elapsed}: the running attempt's time so far, or the last attempt's length
 *                  (null while queued or when it never ran)
 * @param attemptsMade {@link MergeEntry#attemptsMade()}: attempts made, counting the one under way or that merged
 */
public record MergeView(
        long id,
        String sandboxId,
        String branch,
        String state,
        String step,
        Integer position,
        int attempts,
        Boolean lastTestPassed,
        String result,
        String mergeCommit,
        String baseBefore,
        String strategy,
        String requestedBy,
        String worktree,
        String testLog,
        Instant enqueuedAt,
        Instant startedAt,
        Instant stepStartedAt,
        Instant finishedAt,
        Long elapsedMs,
        int attemptsMade) {

    /** The view of an entry; {@code position} as computed by the caller. */
    public static MergeView of(MergeEntry e, Integer position, Instant now) {
        Duration d = e.elapsed(now);
        Long elapsed = d == null ? null : d.toMillis();
        MergeEntry.Request req = e.request();
        MergeEntry.Attempt a = e.attempt();
        return new MergeView(
                e.id(),
                req.sandboxId(),
                req.branch(),
                e.state().id(),
                e.step() == null ? null : e.step().id(),
                position,
                a.attempts(),
                a.lastTestPassed(),
                a.result(),
                a.mergeCommit(),
                a.baseBefore(),
                req.strategy().id(),
                req.requestedBy(),
                a.worktree() == null ? null : a.worktree().toString(),
                a.testLog() == null ? null : a.testLog().toString(),
                req.enqueuedAt(),
                a.startedAt(),
                a.stepStartedAt(),
                a.finishedAt(),
                elapsed,
                e.attemptsMade());
    }
}
