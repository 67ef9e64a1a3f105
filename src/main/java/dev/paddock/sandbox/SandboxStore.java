package dev.paddock.sandbox;

import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** Sandbox records in the store. */
public final class SandboxStore {
    private static final String COLUMNS = "id, repository_id, task, agent_command, tier, branch, base_branch,"
            + " base_commit, worktree_path, container_id, state, version, created_at, started_at, finished_at,"
            + " last_heartbeat_at, progress, lease_ms, lease_expires_at, iteration, retry_count, max_retries,"
            + " exit_code, last_error, cpu_limit_nanos, memory_limit_bytes, pids_limit";

    private final Jdbc jdbc;

    public SandboxStore(Database db) {
        this.jdbc = db.jdbc();
    }

    /** The sandboxes of a repository that are not closed, newest first. */
    public List<SandboxRecord> listOpen(long repositoryId) throws StoreException {
        return jdbc.query("SELECT " + COLUMNS + " FROM sandboxes WHERE repository_id = ? AND state <> 'closed'"
                + " ORDER BY created_at DESC, id DESC", SandboxStore::map, repositoryId);
    }

    static SandboxRecord map(ResultSet rs) throws SQLException {
        return new SandboxRecord(rs.getString("id"), rs.getLong("repository_id"), rs.getString("task"),
                rs.getString("agent_command"), Tier.of(rs.getString("tier")), rs.getString("branch"),
                rs.getString("base_branch"), rs.getString("base_commit"), rs.getString("worktree_path"),
                rs.getString("container_id"), SandboxState.of(rs.getString("state")), rs.getLong("version"),
                Jdbc.instant(rs, "created_at"), Jdbc.instant(rs, "started_at"), Jdbc.instant(rs, "finished_at"),
                Jdbc.instant(rs, "last_heartbeat_at"), rs.getString("progress"), rs.getLong("lease_ms"),
                Jdbc.instant(rs, "lease_expires_at"), rs.getInt("iteration"), rs.getInt("retry_count"),
                rs.getInt("max_retries"), Jdbc.nullableInt(rs, "exit_code"), rs.getString("last_error"),
                Jdbc.nullableLong(rs, "cpu_limit_nanos"), Jdbc.nullableLong(rs, "memory_limit_bytes"),
                Jdbc.nullableLong(rs, "pids_limit"));
    }
}
