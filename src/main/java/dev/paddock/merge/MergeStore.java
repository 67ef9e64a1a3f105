package dev.paddock.merge;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The merge queue's rows: entries ({@code merge_requests}), their conflicted files ({@code conflicts}) and the
 * repositories' merge settings. Every state change is a compare-and-set on the state and writes its event in
 * the same transaction. Callers name the columns they change with typed {@link MergeChange} columns; the SQL names
 * live here and in {@link MergeChange}, and rows become {@link MergeEntry}s in one place ({@link MergeRows}).
 */
public final class MergeStore {
    /** Order of the queue: entries whose last test passed first, then oldest first. */
    private static final String QUEUE_ORDER =
            " ORDER BY CASE WHEN last_test_passed = TRUE THEN 0 ELSE 1 END, enqueued_at, id";

    private final Jdbc jdbc;
    private final EventLog events;
    private final Clock clock;

    public MergeStore(Database db, EventLog events, Clock clock) {
        this.jdbc = db.jdbc();
        this.events = events;
        this.clock = clock;
    }

    /** Now, by the store's clock. */
    Instant now() {
        return clock.instant();
    }

    /** Inserts a queued entry and its event; returns it (read back in the same transaction). */
    public MergeEntry insert(
            long repositoryId, String sandboxId, String branch, MergeStrategy strategy, String who, EventDraft event)
            throws StoreException {
        return jdbc.inTransaction(tx -> {
            long newId = tx.insert(
                    "INSERT INTO merge_requests (repository_id, sandbox_id, branch, state, attempts,"
                            + " strategy, requested_by, enqueued_at) VALUES (?, ?, ?, 'queued', 0, ?, ?, ?)",
                    repositoryId,
                    sandboxId,
                    branch,
                    strategy.id(),
                    who,
                    clock.instant());
            events.append(tx, MergeRows.withEntry(event, newId));
            return read(tx, newId);
        });
    }

    private static MergeEntry read(Jdbc.Tx tx, long id) throws SQLException {
        return tx.queryOne("SELECT " + MergeRows.COLUMNS + " FROM merge_requests WHERE id = ?", MergeRows::entry, id)
                .orElseThrow(() -> new SQLException("merge request " + id + " vanished inside its transaction"));
    }

    /** One entry. */
    public Optional<MergeEntry> find(long id) throws StoreException {
        return jdbc.queryOne("SELECT " + MergeRows.COLUMNS + " FROM merge_requests WHERE id = ?", MergeRows::entry, id);
    }

    /**
     * A repository's entries: the running one, those waiting for a policy review, the queued ones in queue order
     * (all of these whatever the limit), then the others newest first up to {@code limit} in all.
     */
    public List<MergeEntry> list(long repositoryId, int limit) throws StoreException {
        List<MergeEntry> out = new ArrayList<>(jdbc.query(
                "SELECT " + MergeRows.COLUMNS + " FROM merge_requests WHERE"
                        + " repository_id = ? AND state IN ('running', 'policy_review', 'queued') ORDER BY CASE WHEN state ="
                        + " 'running' THEN 0 WHEN state = 'policy_review' THEN 1 ELSE 2 END, CASE WHEN last_test_passed = TRUE"
                        + " THEN 0 ELSE 1 END, enqueued_at, id",
                MergeRows::entry,
                repositoryId));
        out.addAll(jdbc.query(
                "SELECT " + MergeRows.COLUMNS + " FROM merge_requests WHERE repository_id = ? AND state NOT IN"
                        + " ('running', 'policy_review', 'queued') ORDER BY id DESC LIMIT ?",
                MergeRows::entry,
                repositoryId,
                Math.max(0, limit - out.size())));
        return out;
    }

    /** Every entry in one state, oldest first. */
    public List<MergeEntry> inState(MergeState state) throws StoreException {
        return jdbc.query(
                "SELECT " + MergeRows.COLUMNS + " FROM merge_requests WHERE state = ? ORDER BY id",
                MergeRows::entry,
                state.id());
    }

    /** The next entry the repository's queue takes, if any. */
    public Optional<MergeEntry> next(long repositoryId) throws StoreException {
        return jdbc.queryOne(
                "SELECT " + MergeRows.COLUMNS + " FROM merge_requests WHERE repository_id = ? AND state = 'queued'"
                        + QUEUE_ORDER + " LIMIT 1",
                MergeRows::entry,
                repositoryId);
    }

    /** Repositories with queued entries. */
    public List<Long> repositoriesWithQueued() throws StoreException {
        return jdbc.query(
                "SELECT DISTINCT repository_id FROM merge_requests WHERE state = 'queued'", rs -> rs.getLong(1));
    }

    /** Whether the sandbox has an entry enqueued at or after {@code since} (its current run is already handled). */
    public boolean hasEntrySince(String sandboxId, Instant since) throws StoreException {
        return jdbc.queryOne(
                        "SELECT 1 FROM merge_requests WHERE sandbox_id = ? AND enqueued_at >= ? LIMIT 1",
                        rs -> 1,
                        sandboxId,
                        since)
                .isPresent();
    }

    /** The sandbox's newest entry, whatever its state, if it has any. */
    public Optional<MergeEntry> latestOf(String sandboxId) throws StoreException {
        return jdbc.queryOne(
                "SELECT " + MergeRows.COLUMNS + " FROM merge_requests WHERE sandbox_id = ? ORDER BY id DESC LIMIT 1",
                MergeRows::entry,
                sandboxId);
    }

    /** The sandbox's entry that is queued, running, in conflict or waiting for a policy review, if any. */
    public Optional<MergeEntry> openOf(String sandboxId) throws StoreException {
        return jdbc.queryOne(
                "SELECT " + MergeRows.COLUMNS + " FROM merge_requests WHERE sandbox_id = ? AND state IN"
                        + " ('queued', 'running', 'conflict', 'policy_review') ORDER BY id DESC LIMIT 1",
                MergeRows::entry,
                sandboxId);
    }

    /** The policy review facts of an entry (empty lists and nulls when it never needed one). */
    public Optional<PolicyReview> review(long id) throws StoreException {
        return jdbc.queryOne(
                "SELECT review_commit, review_files, approved_commit, approved_by, approved_at FROM"
                        + " merge_requests WHERE id = ?",
                rs -> new PolicyReview(
                        id,
                        rs.getString(1),
                        MergeRows.files(rs.getString(2)),
                        rs.getString(3),
                        rs.getString(4),
                        Jdbc.instant(rs, "approved_at")),
                id);
    }

    /**
     * Moves an entry from {@code from} to {@code to} with the given change, only if it is still in {@code from};
     * writes {@code event} (may be null) in the same transaction. A move out of running also sets
     * {@code step_started_at} to the moment it left running, unless {@code change} sets it.
     *
     * @return whether it happened
     */
    boolean move(long id, MergeState from, MergeState to, MergeChange change, EventDraft event) throws StoreException {
        return moveTx(id, from, to, change, event, List.of(), false).moved();
    }

    /**
     * {@link #move}, and the entry as it is after the move, read in the same transaction, with more events after
     * {@code event}.
     *
     * @return the moved entry, empty when it was not in {@code from} (nothing written)
     */
    Optional<MergeEntry> moveAndRead(
            long id, MergeState from, MergeState to, MergeChange change, EventDraft event, List<EventDraft> more)
            throws StoreException {
        Moved m = moveTx(id, from, to, change, event, more, true);
        return m.moved() ? Optional.of(m.entry()) : Optional.empty();
    }

    /** Whether a move happened, and the entry read back after it (null when not asked for). */
    private record Moved(boolean moved, MergeEntry entry) {}

    private Moved moveTx(
            long id,
            MergeState from,
            MergeState to,
            MergeChange change,
            EventDraft event,
            List<EventDraft> more,
            boolean read)
            throws StoreException {
        if (from == MergeState.RUNNING && to != MergeState.RUNNING && !change.sets(MergeChange.STEP_STARTED_AT)) {
            // With no step, step_started_at says when it left running (MergeEntry#elapsed); the instant of
            // finished_at when this move finishes it, so that both name the same moment.
            Instant finished = change.get(MergeChange.FINISHED_AT);
            change = MergeChange.of()
                    .with(change)
                    .set(MergeChange.STEP_STARTED_AT, finished != null ? finished : clock.instant());
        }
        StringBuilder sql = new StringBuilder("UPDATE merge_requests SET state = ?");
        List<Object> params = new ArrayList<>();
        params.add(to.id());
        change.appendSets(sql, params, ", ");
        sql.append(" WHERE id = ? AND state = ?");
        params.add(id);
        params.add(from.id());
        return jdbc.inTransaction(tx -> {
            if (tx.update(sql.toString(), params.toArray()) != 1) {
                return new Moved(false, null);
            }
            if (event != null) {
                events.append(tx, MergeRows.withEntry(event, id));
            }
            for (EventDraft ev : more) {
                events.append(tx, MergeRows.withEntry(ev, id));
            }
            return new Moved(true, read ? read(tx, id) : null);
        });
    }

    /**
     * Sets columns of an entry whatever its state and appends its events, in one transaction, and returns the
     * entry as it is then (one write per step of the queue instead of one per fact).
     *
     * @param drafts the events, in order; may be empty
     * @throws StoreException also when there is no such entry (nothing written)
     */
    MergeEntry update(long id, MergeChange change, List<EventDraft> drafts) throws StoreException {
        StringBuilder sql = new StringBuilder("UPDATE merge_requests SET ");
        List<Object> params = new ArrayList<>();
        change.appendSets(sql, params, "");
        sql.append(" WHERE id = ?");
        params.add(id);
        return jdbc.inTransaction(tx -> {
            if (tx.update(sql.toString(), params.toArray()) != 1) {
                throw new SQLException("no merge request " + id);
            }
            for (EventDraft ev : drafts) {
                events.append(tx, MergeRows.withEntry(ev, id));
            }
            return read(tx, id);
        });
    }

    /** Sets columns of an entry whatever its state (facts of the running attempt, not a state change). */
    void set(long id, MergeChange change) throws StoreException {
        StringBuilder sql = new StringBuilder("UPDATE merge_requests SET ");
        List<Object> params = new ArrayList<>();
        change.appendSets(sql, params, "");
        sql.append(" WHERE id = ?");
        params.add(id);
        jdbc.update(sql.toString(), params.toArray());
    }

    /** Appends an event about an entry. */
    public void event(long id, EventDraft event) throws StoreException {
        events.append(MergeRows.withEntry(event, id));
    }

    // --- conflicts -------------------------------------------------------------------------------------------

    /** A stored conflicted file (row of {@code conflicts}). */
    public record StoredConflict(
            long id,
            long mergeRequestId,
            String path,
            String kind,
            String conflictClass,
            String hunksJson,
            String resolution,
            String resolvedBy,
            Instant resolvedAt) {
        /** Whether a person (or the queue) resolved it. */
        public boolean resolved() {
            return resolvedAt != null;
        }
    }

    /** Replaces the conflicted files of an entry. */
    public void replaceConflicts(long mergeRequestId, List<StoredConflict> files) throws StoreException {
        jdbc.inTransaction(tx -> {
            tx.update("DELETE FROM conflicts WHERE merge_request_id = ?", mergeRequestId);
            for (StoredConflict c : files) {
                tx.insert(
                        "INSERT INTO conflicts (merge_request_id, path, kind, conflict_class, hunks) VALUES (?, ?, ?, ?, ?)",
                        mergeRequestId,
                        c.path(),
                        c.kind(),
                        c.conflictClass(),
                        c.hunksJson());
            }
            return null;
        });
    }

    /** The conflicted files of an entry, by path. */
    public List<StoredConflict> conflicts(long mergeRequestId) throws StoreException {
        return jdbc.query(
                "SELECT id, merge_request_id, path, kind, conflict_class, hunks, resolution, resolved_by,"
                        + " resolved_at FROM conflicts WHERE merge_request_id = ? ORDER BY path",
                rs -> new StoredConflict(
                        rs.getLong(1),
                        rs.getLong(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getString(6),
                        rs.getString(7),
                        rs.getString(8),
                        Jdbc.instant(rs, "resolved_at")),
                mergeRequestId);
    }

    /** Records a file's resolution and its event. @return whether the file is a conflicted file of the entry */
    public boolean resolve(long mergeRequestId, String path, String resolution, String who, EventDraft event)
            throws StoreException {
        return jdbc.inTransaction(tx -> {
            if (tx.update(
                            "UPDATE conflicts SET resolution = ?, resolved_by = ?, resolved_at = ? WHERE"
                                    + " merge_request_id = ? AND path = ?",
                            resolution,
                            who,
                            clock.instant(),
                            mergeRequestId,
                            path)
                    == 0) {
                return false;
            }
            events.append(tx, MergeRows.withEntry(event, mergeRequestId));
            return true;
        });
    }

    /**
     * Reopens a resolved file of an entry waiting in the conflict queue: its resolution is cleared and {@code event}
     * appended, in one transaction that first takes the entry's row while it is in state conflict. The queue's move
     * to running that finishes a resolved merge takes the same row, so either the file is reopened before it (and the
     * finish sees an unresolved file) or the finish started and nothing is reopened.
     *
     * @return false when the entry is not in state conflict or the file is not a resolved file of it (nothing written)
     */
    public boolean unresolve(long mergeRequestId, String path, EventDraft event) throws StoreException {
        return jdbc.inTransaction(tx -> {
            if (tx.update(
                            "UPDATE merge_requests SET state = state WHERE id = ? AND state = ?",
                            mergeRequestId,
                            MergeState.CONFLICT.id())
                    != 1) {
                return false;
            }
            if (tx.update(
                            "UPDATE conflicts SET resolution = NULL, resolved_by = NULL, resolved_at = NULL WHERE"
                                    + " merge_request_id = ? AND path = ? AND resolved_at IS NOT NULL",
                            mergeRequestId,
                            path)
                    != 1) {
                return false;
            }
            events.append(tx, MergeRows.withEntry(event, mergeRequestId));
            return true;
        });
    }

    // --- repository settings -------------------------------------------------------------------------------

    /** A repository's merge settings. @throws StoreException also when there is no such repository */
    public MergeSettings settings(long repositoryId) throws StoreException {
        return jdbc.queryOne(
                        "SELECT merge_strategy, test_command, test_timeout_ms, max_merge_attempts, auto_resolve,"
                                + " merge_review, merge_target, merge_remote, merge_pull_request"
                                + " FROM repositories WHERE id = ?",
                        rs -> new MergeSettings(
                                MergeStrategy.of(rs.getString(1)),
                                rs.getString(2),
                                Duration.ofMillis(rs.getLong(3)),
                                rs.getInt(4),
                                AutoResolveMode.of(rs.getString(5)),
                                ReviewMode.of(rs.getString(6)),
                                new MergeTarget(
                                        MergeTarget.Kind.of(rs.getString(7)), rs.getString(8), rs.getBoolean(9))),
                        repositoryId)
                .orElseThrow(() -> new StoreException("no repository with id " + repositoryId));
    }

    /** Stores a repository's merge settings. */
    public void setSettings(long repositoryId, MergeSettings s) throws StoreException {
        setSettings(repositoryId, s, List.of());
    }

    /** Stores a repository's merge settings and, in the same transaction, the events saying what changed. */
    public void setSettings(long repositoryId, MergeSettings s, List<EventDraft> changes) throws StoreException {
        jdbc.inTransaction(tx -> {
            tx.update(
                    "UPDATE repositories SET merge_strategy = ?, test_command = ?, test_timeout_ms = ?,"
                            + " max_merge_attempts = ?, auto_resolve = ?, merge_review = ?, merge_target = ?,"
                            + " merge_remote = ?, merge_pull_request = ? WHERE id = ?",
                    s.strategy().id(),
                    s.hasTest() ? s.testCommand().strip() : null,
                    s.testTimeout().toMillis(),
                    s.maxAttempts(),
                    s.autoResolve().id(),
                    s.review().id(),
                    s.target().kind().id(),
                    s.target().remote(),
                    s.target().pullRequest(),
                    repositoryId);
            for (EventDraft e : changes) {
                events.append(tx, e);
            }
            return null;
        });
    }

    /** A repository's regenerate commands: file name or path → command, sorted by file. */
    public java.util.SortedMap<String, String> regenerateCommands(long repositoryId) throws StoreException {
        java.util.SortedMap<String, String> out = new java.util.TreeMap<>();
        jdbc.query(
                        "SELECT file_pattern, command FROM merge_regenerate_commands WHERE repository_id = ?",
                        rs -> new String[] {rs.getString(1), rs.getString(2)},
                        repositoryId)
                .forEach(r -> out.put(r[0], r[1]));
        return out;
    }

    /**
     * Sets (or, for a null command, removes) the command that regenerates a file of a repository, with the events
     * saying what changed, in one transaction.
     */
    public void setRegenerateCommand(long repositoryId, String file, String command, List<EventDraft> changes)
            throws StoreException {
        jdbc.inTransaction(tx -> {
            tx.update(
                    "DELETE FROM merge_regenerate_commands WHERE repository_id = ? AND file_pattern = ?",
                    repositoryId,
                    file);
            if (command != null) {
                tx.update(
                        "INSERT INTO merge_regenerate_commands (repository_id, file_pattern, command)"
                                + " VALUES (?, ?, ?)",
                        repositoryId,
                        file,
                        command);
            }
            for (EventDraft e : changes) {
                events.append(tx, e);
            }
            return null;
        });
    }
}
