package dev.paddock.events;

import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;

/**
 * The append-only audit log. Events are only ever inserted; nothing updates them, and they are deleted only when
 * older than the retention the settings give ({@link EventRetention}) or when a forgotten repository is detached.
 *
 * <p>Every appended event is published on the {@link EventBus} once its transaction committed (a caller's
 * transaction included): never before, and never when it rolls back.
 */
public final class EventLog {
    private static final String COLUMNS = "id, at, repository_id, sandbox_id, kind, message, details";
    /** Longest message stored ({@code events.message} is VARCHAR(4096)), in characters. */
    public static final int MESSAGE_MAX = 4096;

    private final Jdbc jdbc;
    private final Clock clock;
    private final EventBus bus;

    /** A log whose events nobody in this process hears of (tools and tests that need no bus). */
    public EventLog(Database db, Clock clock) {
        this(db, clock, null);
    }

    /** @param bus where committed events are published; null for none */
    public EventLog(Database db, Clock clock, EventBus bus) {
        this.jdbc = db.jdbc();
        this.clock = clock;
        this.bus = bus;
    }

    /** Appends events in one transaction of their own. */
    public void append(List<EventDraft> drafts) throws StoreException {
        if (drafts.isEmpty()) {
            return;
        }
        jdbc.inTransaction(tx -> {
            for (EventDraft d : drafts) {
                append(tx, d);
            }
            return null;
        });
    }

    /** Appends one event in its own transaction. */
    public void append(EventDraft draft) throws StoreException {
        append(List.of(draft));
    }

    /**
     * Appends an event inside a caller's transaction, so a state change and its event commit
     * together or not at all.
     */
    public long append(Jdbc.Tx tx, EventDraft d) throws SQLException {
        // Microseconds: what the column keeps, so the published event equals the stored one.
        java.time.Instant at = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MICROS);
        String message = bounded(d.message());
        long id = tx.insert(
                "INSERT INTO events (at, repository_id, sandbox_id, kind, message, details)"
                        + " VALUES (?, ?, ?, ?, ?, ?)",
                at,
                d.repositoryId(),
                d.sandboxId(),
                d.kind(),
                message,
                d.details());
        if (bus != null) {
            Event stored = new Event(id, at, d.repositoryId(), d.sandboxId(), d.kind(), message, d.details());
            tx.afterCommit(() -> bus.publish(stored));
        }
        return id;
    }

    /**
     * A message of at most {@link #MESSAGE_MAX} characters: a message is a sentence for people (what it is about is
     * in the details), but some quote a text that came from outside (an error, a reason), and a long one must not
     * make the change it records fail with it.
     */
    static String bounded(String message) {
        if (message == null || message.length() <= MESSAGE_MAX) {
            return message;
        }
        int cut = MESSAGE_MAX - 1;
        if (Character.isHighSurrogate(message.charAt(cut - 1))) {
            cut--;
        }
        return message.substring(0, cut) + "…";
    }

    /**
     * Deletes the events older than {@code cutoff}, at most {@code limit} of them in one transaction.
     *
     * @return how many were deleted
     */
    public int deleteOlderThan(java.time.Instant cutoff, int limit) throws StoreException {
        // Not DELETE ... LIMIT, which PostgreSQL lacks, nor DELETE ... WHERE id IN (a subquery with LIMIT), which H2
        // runs ~150 times slower (75 s for 40,000 of 50,000 events, 0.5 s this way): the last id of the batch first,
        // then the old events up to it, which are the batch (the oldest ids first).
        return jdbc.inTransaction(tx -> {
            long last = tx.queryLong(
                    "SELECT COALESCE(MAX(id), 0) FROM (SELECT id FROM events WHERE at < ? ORDER BY id LIMIT ?) oldest",
                    cutoff,
                    limit);
            return last == 0 ? 0 : tx.update("DELETE FROM events WHERE id <= ? AND at < ?", last, cutoff);
        });
    }

    /**
     * The newest events of a repository (and events with no repository), newest first.
     *
     * @param limit maximum number of events returned
     */
    public List<Event> recent(long repositoryId, int limit) throws StoreException {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM events WHERE repository_id = ? OR repository_id IS NULL"
                        + " ORDER BY id DESC LIMIT ?",
                EventLog::map,
                repositoryId,
                limit);
    }

    /**
     * The newest events of a repository (and events with no repository), newest first, without their details
     * ({@link Event#details()} is null): for lists that show only the line, read often. The details column is a large
     * object, and H2 keeps each one such a query returns for minutes (its LOB_TIMEOUT): with a dashboard that reloads
     * its 200 newest events on every change, tens of thousands of them.
     *
     * @param limit maximum number of events returned
     */
    public List<Event> recentLines(long repositoryId, int limit) throws StoreException {
        return jdbc.query(
                "SELECT id, at, repository_id, sandbox_id, kind, message FROM events"
                        + " WHERE repository_id = ? OR repository_id IS NULL ORDER BY id DESC LIMIT ?",
                rs -> map(rs, false),
                repositoryId,
                limit);
    }

    /** At most {@code limit} events with ids above {@code id}, oldest first. */
    public List<Event> after(long id, int limit) throws StoreException {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM events WHERE id > ? ORDER BY id LIMIT ?", EventLog::map, id, limit);
    }

    /** The highest event id stored (0 when none). */
    public long lastId() throws StoreException {
        return jdbc.queryOne("SELECT COALESCE(MAX(id), 0) FROM events", rs -> rs.getLong(1))
                .orElse(0L);
    }

    /** Events of one sandbox, oldest first. */
    public List<Event> ofSandbox(String sandboxId) throws StoreException {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM events WHERE sandbox_id = ? ORDER BY id", EventLog::map, sandboxId);
    }

    private static Event map(ResultSet rs) throws SQLException {
        return map(rs, true);
    }

    /** @param details whether the row has a details column (else the event's details are null) */
    private static Event map(ResultSet rs, boolean details) throws SQLException {
        return new Event(
                rs.getLong("id"),
                Jdbc.instant(rs, "at"),
                Jdbc.nullableLong(rs, "repository_id"),
                rs.getString("sandbox_id"),
                rs.getString("kind"),
                rs.getString("message"),
                details ? rs.getString("details") : null);
    }
}
