package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Migrations 17 (fan-out groups) and 18 (repositories' agent flags) on a store an earlier Paddock left with
 * sandboxes in it: every row reads back as it was, in no group; new rows take a group; a repository's flags go with
 * it.
 */
class GroupMigrationTest {
    @TempDir
    Path tmp;

    @Test
    void aStoreWithSandboxesFromBeforeFanOutKeepsThemInNoGroup() throws Exception {
        Path base = tmp.resolve("home").resolve("paddock");
        Files.createDirectories(base.getParent());
        String url = "jdbc:h2:file:" + base + ";DB_CLOSE_ON_EXIT=FALSE";
        Flyway.configure()
                .dataSource(url, "paddock", "")
                .locations("classpath:db/migration")
                .javaMigrations(new dev.paddock.store.migration.HashSandboxTokens())
                .target("16")
                .load()
                .migrate();
        Instant then = Instant.now().minus(2, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MILLIS);
        try (Connection c = DriverManager.getConnection(url, "paddock", "")) {
            c.createStatement()
                    .execute("INSERT INTO repositories (id, path, name, base_branch, created_at,"
                            + " last_opened_at) VALUES (1, '/r', 'r', 'main', TIMESTAMP '2026-12-01 10:00:00',"
                            + " TIMESTAMP '2026-12-01 10:00:00')");
            for (String id : List.of("old-001", "old-002")) {
                try (var p = c.prepareStatement("INSERT INTO sandboxes (id, repository_id, task, agent_command, tier,"
                        + " branch, base_branch, base_commit, worktree_path, state, version, created_at,"
                        + " state_changed_at, lease_ms, iteration, max_retries, agent, model) VALUES (?, 1, 'Old task',"
                        + " 'claude', 'worktree', ?, 'main', 'abc', ?, 'done', 3, ?, ?, 900000, 1, 2, 'claude',"
                        + " 'opus')")) {
                    p.setString(1, id);
                    p.setString(2, "agent/" + id);
                    p.setString(3, "/r/.worktrees/" + id + "/agent/" + id);
                    p.setTimestamp(4, Timestamp.from(then));
                    p.setTimestamp(5, Timestamp.from(then));
                    p.executeUpdate();
                }
            }
            c.createStatement().execute("SHUTDOWN");
        }

        try (Database db = Database.open(base)) {
            SandboxStore store = new SandboxStore(db, new EventLog(db, Clock.systemUTC()), Clock.systemUTC());
            SandboxRecord old = store.find("old-001").orElseThrow();
            assertThat(old.spec().group()).isNull();
            assertThat(old.spec().agent()).isEqualTo("claude");
            assertThat(old.spec().model()).isEqualTo("opus");
            assertThat(old.state()).isEqualTo(SandboxState.DONE);
            assertThat(old.createdAt()).isEqualTo(then);
            assertThat(store.listLive()).extracting(SandboxRecord::id).containsExactly("old-001", "old-002");

            Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            store.insert(
                    old.toBuilder()
                            .id("new-001-claude-1")
                            .branch("agent/new-claude-1")
                            .group("new-001")
                            .state(SandboxState.PENDING)
                            .createdAt(now)
                            .stateChangedAt(now)
                            .build(),
                    null,
                    List.of());
            assertThat(store.find("new-001-claude-1").orElseThrow().spec().group())
                    .isEqualTo("new-001");

            RepoStore repos = new RepoStore(db, Clock.systemUTC());
            repos.setAgentFlags(1, "claude", "[\"--max-turns\",\"30\"]");
            assertThat(repos.agentFlags(1, "claude")).contains("[\"--max-turns\",\"30\"]");
            assertThat(repos.allAgentFlags(1)).containsOnlyKeys("claude");
        }
    }
}
