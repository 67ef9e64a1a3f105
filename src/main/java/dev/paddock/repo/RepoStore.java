package dev.paddock.repo;

import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** Registered repositories in the store. */
public final class RepoStore {
    private static final String COLUMNS =
            "id, path, name, base_branch, merge_strategy, test_command, created_at, last_opened_at";

    private final Jdbc jdbc;
    private final Clock clock;

    public RepoStore(Database db, Clock clock) {
        this.jdbc = db.jdbc();
        this.clock = clock;
    }

    /**
     * Registers a repository, or marks an already registered one as just opened.
     *
     * @param path absolute path of the main worktree
     * @param baseBranch base branch to record when the repository is new (kept when it exists)
     * @return the stored record and whether it was new
     */
    public Registration register(Path path, String baseBranch) throws StoreException {
        String key = path.toString();
        return jdbc.inTransaction(tx -> {
            var now = clock.instant();
            Optional<RepoRecord> existing =
                    tx.queryOne("SELECT " + COLUMNS + " FROM repositories WHERE path = ?", RepoStore::map, key);
            if (existing.isPresent()) {
                tx.update(
                        "UPDATE repositories SET last_opened_at = ? WHERE id = ?",
                        now,
                        existing.get().id());
                return new Registration(
                        tx.queryOne(
                                        "SELECT " + COLUMNS + " FROM repositories WHERE id = ?",
                                        RepoStore::map,
                                        existing.get().id())
                                .orElseThrow(),
                        false);
            }
            String name = path.getFileName() == null ? key : path.getFileName().toString();
            long id = tx.insert(
                    "INSERT INTO repositories (path, name, base_branch, created_at, last_opened_at)"
                            + " VALUES (?, ?, ?, ?, ?)",
                    key,
                    name,
                    baseBranch,
                    now,
                    now);
            return new Registration(
                    tx.queryOne("SELECT " + COLUMNS + " FROM repositories WHERE id = ?", RepoStore::map, id)
                            .orElseThrow(),
                    true);
        });
    }

    /** Result of {@link #register}. */
    public record Registration(RepoRecord repo, boolean created) {}

    /** Finds a registered repository by the absolute path of its main worktree. */
    public Optional<RepoRecord> findByPath(Path path) throws StoreException {
        return jdbc.queryOne(
                "SELECT " + COLUMNS + " FROM repositories WHERE path = ?", RepoStore::map, path.toString());
    }

    /** Finds a registered repository by id. */
    public Optional<RepoRecord> find(long id) throws StoreException {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM repositories WHERE id = ?", RepoStore::map, id);
    }

    /**
     * The container image of a repository's container sandboxes (column {@code container_image}), if set.
     */
    public Optional<String> containerImage(long id) throws StoreException {
        return jdbc.queryOne(
                        "SELECT container_image FROM repositories WHERE id = ? AND container_image IS NOT NULL",
                        rs -> rs.getString(1),
                        id)
                .filter(s -> !s.isBlank());
    }

    /**
     * Sets (or with null clears) the container image of a repository.
     *
     * @return whether the repository exists
     */
    public boolean setContainerImage(long id, String image) throws StoreException {
        return jdbc.update(
                        "UPDATE repositories SET container_image = ? WHERE id = ?",
                        image == null || image.isBlank() ? null : image.strip(),
                        id)
                == 1;
    }

    /**
     * The repository's extra flags for an agent preset, as stored (a JSON array of strings), if any.
     */
    public Optional<String> agentFlags(long id, String agent) throws StoreException {
        return jdbc.queryOne(
                "SELECT flags FROM repository_agent_flags WHERE repository_id = ? AND agent = ?",
                rs -> rs.getString(1),
                id,
                agent);
    }

    /** Every agent's extra flags of the repository (JSON arrays), by agent. */
    public java.util.Map<String, String> allAgentFlags(long id) throws StoreException {
        java.util.Map<String, String> m = new java.util.TreeMap<>();
        for (var e : jdbc.query(
                "SELECT agent, flags FROM repository_agent_flags WHERE repository_id = ?",
                rs -> java.util.Map.entry(rs.getString(1), rs.getString(2)),
                id)) {
            m.put(e.getKey(), e.getValue());
        }
        return m;
    }

    /** Sets (a JSON array) or with null removes the repository's extra flags for an agent preset. */
    public void setAgentFlags(long id, String agent, String flagsJson) throws StoreException {
        jdbc.inTransaction(tx -> {
            tx.update("DELETE FROM repository_agent_flags WHERE repository_id = ? AND agent = ?", id, agent);
            if (flagsJson != null) {
                tx.update(
                        "INSERT INTO repository_agent_flags (repository_id, agent, flags) VALUES (?, ?, ?)",
                        id,
                        agent,
                        flagsJson);
            }
            return null;
        });
    }

    /** All registered repositories, most recently opened first. */
    public List<RepoRecord> recent() throws StoreException {
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM repositories ORDER BY last_opened_at DESC, id DESC", RepoStore::map);
    }

    private static RepoRecord map(ResultSet rs) throws SQLException {
        return new RepoRecord(
                rs.getLong("id"),
                Path.of(rs.getString("path")),
                rs.getString("name"),
                rs.getString("base_branch"),
                rs.getString("merge_strategy"),
                rs.getString("test_command"),
                Jdbc.instant(rs, "created_at"),
                Jdbc.instant(rs, "last_opened_at"));
    }
}
