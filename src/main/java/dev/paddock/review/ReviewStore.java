package dev.paddock.review;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** The rows of {@code review_comments}; each change is written with its event in one transaction. */
public final class ReviewStore {
    private static final String COLUMNS =
            "id, sandbox_id, commit_id, path, line, side, quoted, body, author," + " created_at, review_round";

    private final Jdbc jdbc;
    private final EventLog events;
    private final Clock clock;

    public ReviewStore(Database db, EventLog events, Clock clock) {
        this.jdbc = db.jdbc();
        this.events = events;
        this.clock = clock;
    }

    /** What a new comment says; the store adds its id, time and (none yet) round. */
    record Draft(
            String sandboxId,
            String commit,
            String path,
            Integer line,
            ReviewComment.Side side,
            String quoted,
            String body,
            String author) {}

    /** Stores a comment with its event. */
    ReviewComment add(Draft d, EventDraft event) throws StoreException {
        long id = jdbc.inTransaction(tx -> {
            long newId = tx.insert(
                    "INSERT INTO review_comments (sandbox_id, commit_id, path, line, side, quoted, body, author,"
                            + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    d.sandboxId(),
                    d.commit(),
                    d.path(),
                    d.line(),
                    d.side() == null ? null : d.side().id(),
                    d.quoted(),
                    d.body(),
                    d.author(),
                    clock.instant());
            events.append(tx, event);
            return newId;
        });
        return find(id).orElseThrow();
    }

    /** A comment by its id. */
    public Optional<ReviewComment> find(long id) throws StoreException {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM review_comments WHERE id = ?", ReviewStore::row, id);
    }

    /** The sandbox's comments, oldest first. */
    public List<ReviewComment> of(String sandboxId) throws StoreException {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM review_comments WHERE sandbox_id = ? ORDER BY id",
                ReviewStore::row,
                sandboxId);
    }

    /** Deletes a comment with its event. @return whether it was there */
    boolean delete(long id, EventDraft event) throws StoreException {
        return jdbc.inTransaction(tx -> {
            if (tx.update("DELETE FROM review_comments WHERE id = ?", id) == 0) {
                return false;
            }
            events.append(tx, event);
            return true;
        });
    }

    /** The number the sandbox's next request for changes gets: 1, then one more than the last. */
    int nextRound(String sandboxId) throws StoreException {
        return jdbc.inTransaction(tx -> (int) tx.queryLong(
                        "SELECT COALESCE(MAX(review_round), 0) FROM review_comments WHERE sandbox_id = ?", sandboxId)
                + 1);
    }

    /**
     * Marks the comments as sent in {@code round}, those still unsent only.
     *
     * @return how many were marked
     */
    int markSent(List<ReviewComment> sent, int round) throws StoreException {
        return jdbc.inTransaction(tx -> {
            int n = 0;
            for (ReviewComment c : sent) {
                n += tx.update(
                        "UPDATE review_comments SET review_round = ? WHERE id = ? AND review_round IS NULL",
                        round,
                        c.id());
            }
            return n;
        });
    }

    private static ReviewComment row(ResultSet rs) throws SQLException {
        String side = rs.getString(6);
        return new ReviewComment(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                Jdbc.nullableInt(rs, 5),
                side == null ? null : ReviewComment.Side.of(side),
                rs.getString(7),
                rs.getString(8),
                rs.getString(9),
                Jdbc.instant(rs, 10),
                Jdbc.nullableInt(rs, 11));
    }
}
