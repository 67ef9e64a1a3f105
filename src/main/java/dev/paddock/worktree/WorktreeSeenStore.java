package dev.paddock.worktree;

import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;

/**
 * The last state Paddock saw of each worktree ({@code worktrees_seen}), so that changes made while
 * nothing was watching are still recorded as events on the next scan.
 */
public final class WorktreeSeenStore {
    private final Jdbc jdbc;
    private final Clock clock;

    public WorktreeSeenStore(Database db, Clock clock) {
        this.jdbc = db.jdbc();
        this.clock = clock;
    }

    /** The stored worktrees of a repository (subject not stored: null). Empty when never scanned. */
    public List<WorktreeInfo> load(long repositoryId) throws StoreException {
        return jdbc.query(
                "SELECT path, head, branch, detached, dirty, locked, prunable, missing FROM worktrees_seen"
                        + " WHERE repository_id = ? ORDER BY path",
                rs -> new WorktreeInfo(
                        Path.of(rs.getString("path")),
                        rs.getString("head"),
                        rs.getString("branch"),
                        rs.getBoolean("detached"),
                        false,
                        rs.getBoolean("locked") ? "" : null,
                        rs.getBoolean("prunable") ? "" : null,
                        null,
                        Jdbc.nullableBoolean(rs, "dirty"),
                        0,
                        rs.getBoolean("missing")),
                repositoryId);
    }

    /** Replaces the stored worktrees of a repository inside the caller's transaction. */
    public void replace(Jdbc.Tx tx, long repositoryId, List<WorktreeInfo> worktrees) throws SQLException {
        tx.update("DELETE FROM worktrees_seen WHERE repository_id = ?", repositoryId);
        for (WorktreeInfo w : worktrees) {
            tx.update(
                    "INSERT INTO worktrees_seen (repository_id, path, head, branch, detached, dirty, locked,"
                            + " prunable, missing, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    repositoryId,
                    w.path().toString(),
                    w.head(),
                    w.branch(),
                    w.detached(),
                    w.dirty(),
                    w.locked(),
                    w.prunable(),
                    w.missing(),
                    clock.instant());
        }
    }

    /** The underlying helper, for callers that write events in the same transaction. */
    public Jdbc jdbc() {
        return jdbc;
    }
}
