package dev.paddock.status;

import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** Computes the header tiles from the store in one transaction. */
public final class CountsQuery {
    private static final Duration DAY = Duration.ofHours(24);

    private final Jdbc jdbc;
    private final Clock clock;

    public CountsQuery(Database db, Clock clock) {
        this.jdbc = db.jdbc();
        this.clock = clock;
    }

    /** The tiles of one repository, as of now. */
    public Counts of(long repositoryId) throws StoreException {
        Instant since = clock.instant().minus(DAY);
        return jdbc.inTransaction(tx -> new Counts(
                tx.queryLong(
                        "SELECT COUNT(*) FROM sandboxes WHERE repository_id = ?"
                                + " AND state IN ('running', 'retrying', 'merging', 'cleaning')",
                        repositoryId),
                tx.queryLong(
                        "SELECT COUNT(*) FROM sandboxes WHERE repository_id = ? AND state = 'pending'", repositoryId),
                // From the events: a failed run moves on at once (retrying, or awaiting a person).
                tx.queryLong(
                        "SELECT COUNT(DISTINCT sandbox_id) FROM events WHERE repository_id = ?"
                                + " AND kind IN ('sandbox.failed', 'sandbox.timeout') AND at >= ?",
                        repositoryId,
                        since),
                // Real merges only: an entry whose branch was already in base is merged without a merge commit.
                tx.queryLong(
                        "SELECT COUNT(*) FROM merge_requests WHERE repository_id = ?"
                                + " AND state = 'merged' AND merge_commit IS NOT NULL AND finished_at >= ?",
                        repositoryId,
                        since),
                tx.queryLong(
                                "SELECT COUNT(*) FROM sandboxes WHERE repository_id = ?"
                                        + " AND state IN ('awaiting_human', 'conflict')",
                                repositoryId)
                        + tx.queryLong(
                                "SELECT COUNT(*) FROM approvals WHERE repository_id = ? AND state = 'pending'",
                                repositoryId),
                // The rows the sandbox package shows as waiting: of the sandbox's current run, in a state that keeps
                // them.
                tx.queryLong(
                        "SELECT COUNT(*) FROM sandbox_waiting w JOIN sandboxes s ON s.id = w.sandbox_id"
                                + " AND s.iteration = w.run WHERE s.repository_id = ?"
                                + " AND s.state IN ('running', 'done', 'failed', 'timeout', 'awaiting_human')",
                        repositoryId),
                tx.queryLong(
                        "SELECT COUNT(*) FROM sandboxes WHERE repository_id = ? AND state = 'review'", repositoryId)));
    }
}
