package dev.paddock.api;

import dev.paddock.merge.MergeEntry;
import java.time.Duration;
import java.time.Instant;

/**
 * A merge queue entry as the API shows it.
 *
 * @param position 1-based place in the queue for a queued entry (0 = running), null otherwise
 * @param elapsedMs time since the current attempt started for a running entry, or the last attempt's length
 */
public record MergeView(long id, String sandboxId, String branch, String state, String step, Integer position,
                        int attempts, Boolean lastTestPassed, String result, String mergeCommit, String baseBefore,
                        String strategy, String requestedBy, String worktree, String testLog, Instant enqueuedAt,
                        Instant startedAt, Instant stepStartedAt, Instant finishedAt, Long elapsedMs) {

    /** The view of an entry; {@code position} as computed by the caller. */
    public static MergeView of(MergeEntry e, Integer position, Instant now) {
        Long elapsed = e.startedAt() == null ? null
                : Duration.between(e.startedAt(), e.finishedAt() != null ? e.finishedAt() : now).toMillis();
        return new MergeView(e.id(), e.sandboxId(), e.branch(), e.state().id(), e.step() == null ? null : e.step().id(),
                position, e.attempts(), e.lastTestPassed(), e.result(), e.mergeCommit(), e.baseBefore(),
                e.strategy().id(), e.requestedBy(), e.worktree() == null ? null : e.worktree().toString(),
                e.testLog() == null ? null : e.testLog().toString(), e.enqueuedAt(), e.startedAt(), e.stepStartedAt(),
                e.finishedAt(), elapsed);
    }
}
