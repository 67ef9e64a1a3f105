package dev.paddock.checkpoint;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.paddock.common.Json;
import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** The {@code checkpoints} table: one row per checkpoint, its change lists as JSON arrays. */
final class CheckpointStore {
    private static final String COLUMNS = "sandbox_id, iteration, commit_id, tree_id, head_commit, ref_name, message,"
            + " turn, added_paths, modified_paths, deleted_paths, created_at";
    private static final TypeReference<List<String>> PATHS = new TypeReference<>() {};

    private final Jdbc jdbc;

    CheckpointStore(Database db) {
        this.jdbc = db.jdbc();
    }

    void insert(Checkpoint c) throws StoreException {
        CheckpointChanges ch = c.changes();
        jdbc.update(
                "INSERT INTO checkpoints (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                c.sandboxId(),
                c.number(),
                c.commit(),
                c.tree(),
                c.head(),
                c.ref(),
                c.message(),
                c.turn(),
                json(ch.added()),
                json(ch.modified()),
                json(ch.deleted()),
                c.createdAt());
    }

    /** A sandbox's checkpoints, oldest first. */
    List<Checkpoint> list(String sandboxId) throws StoreException {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM checkpoints WHERE sandbox_id = ? ORDER BY iteration",
                CheckpointStore::map,
                sandboxId);
    }

    Optional<Checkpoint> find(String sandboxId, int number) throws StoreException {
        return jdbc.queryOne(
                "SELECT " + COLUMNS + " FROM checkpoints WHERE sandbox_id = ? AND iteration = ?",
                CheckpointStore::map,
                sandboxId,
                number);
    }

    /** The newest checkpoint of a sandbox. */
    Optional<Checkpoint> latest(String sandboxId) throws StoreException {
        return jdbc.queryOne(
                "SELECT " + COLUMNS + " FROM checkpoints WHERE sandbox_id = ? ORDER BY iteration DESC" + " LIMIT 1",
                CheckpointStore::map,
                sandboxId);
    }

    /** Records that a rollback made the worktree {@code tree} right after checkpoint {@code number} was taken. */
    void markRestored(String sandboxId, int number, String tree) throws StoreException {
        jdbc.update(
                "UPDATE checkpoints SET restored_tree = ? WHERE sandbox_id = ? AND iteration = ?",
                tree,
                sandboxId,
                number);
    }

    /**
     * The tree the worktree held after the newest checkpoint, as far as Paddock knows: the tree a rollback wrote
     * right after it, else its own tree; empty when the sandbox has no checkpoint.
     */
    Optional<String> lastKnownTree(String sandboxId) throws StoreException {
        return jdbc.queryOne(
                "SELECT COALESCE(restored_tree, tree_id) FROM checkpoints WHERE sandbox_id = ? ORDER BY"
                        + " iteration DESC LIMIT 1",
                rs -> rs.getString(1),
                sandboxId);
    }

    /** The highest number a sandbox's checkpoints have used, or 0. */
    int highest(String sandboxId) throws StoreException {
        return jdbc.queryOne(
                        "SELECT COALESCE(MAX(iteration), 0) FROM checkpoints WHERE sandbox_id = ?",
                        rs -> rs.getInt(1),
                        sandboxId)
                .orElse(0);
    }

    /** Every sandbox that has a checkpoint row. */
    List<String> sandboxes() throws StoreException {
        return jdbc.query("SELECT DISTINCT sandbox_id FROM checkpoints ORDER BY sandbox_id", rs -> rs.getString(1));
    }

    int delete(String sandboxId, int number) throws StoreException {
        return jdbc.update("DELETE FROM checkpoints WHERE sandbox_id = ? AND iteration = ?", sandboxId, number);
    }

    int deleteAll(String sandboxId) throws StoreException {
        return jdbc.update("DELETE FROM checkpoints WHERE sandbox_id = ?", sandboxId);
    }

    private static Checkpoint map(ResultSet rs) throws SQLException {
        return new Checkpoint(
                rs.getString("sandbox_id"),
                rs.getInt("iteration"),
                rs.getString("commit_id"),
                rs.getString("tree_id"),
                rs.getString("head_commit"),
                rs.getString("ref_name"),
                rs.getString("message"),
                Jdbc.nullableInt(rs, "turn"),
                new CheckpointChanges(
                        paths(rs.getString("added_paths")),
                        paths(rs.getString("modified_paths")),
                        paths(rs.getString("deleted_paths"))),
                Jdbc.instant(rs, "created_at"));
    }

    private static String json(List<String> paths) {
        try {
            return Json.mapper().writeValueAsString(paths);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A list of strings is always JSON", e);
        }
    }

    private static List<String> paths(String json) throws SQLException {
        if (json == null || json.isBlank()) {
            return List.of();
        }
        try {
            return Json.mapper().readValue(json, PATHS);
        } catch (JsonProcessingException e) {
            throw new SQLException("A checkpoint's path list is not a JSON array: " + e.getOriginalMessage(), e);
        }
    }
}
