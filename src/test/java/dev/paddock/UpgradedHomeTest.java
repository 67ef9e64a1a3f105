package dev.paddock;

import static dev.paddock.testing.BrokerRig.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.common.PrivateFiles;
import dev.paddock.common.TokenHash;
import dev.paddock.isolation.RunRef;
import dev.paddock.sandbox.AgentLauncher;
import dev.paddock.sandbox.SandboxLayout;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.AgentEnvironment;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import dev.paddock.testing.TestRuntimes;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.RepositoryLocator;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A home written by a Paddock from before token hashing: its store made by migrations 1 to 7 (sandbox tokens
 * in plain text, files 644, directories 755), with an agent running that has its token in its environment.
 * Opened by this Paddock: the tokens are hashed and gone from the file, the home is owner-only, and the agent,
 * adopted, goes on with the token it has.
 */
class UpgradedHomeTest {
    private static final String ID = "old-agent-20261130-001";
    private static final String BRANCH = "agent/old-agent";

    @TempDir
    Path tmp;

    private BrokerRig rig;
    private ProcessHandle agent;

    @AfterEach
    void stop() {
        if (rig != null) {
            rig.close();
        }
        if (agent != null) {
            agent.descendants().forEach(ProcessHandle::destroyForcibly);
            agent.destroyForcibly();
        }
    }

    @Test
    void anOldStoresPlainTokensAreHashedAndItsRunningAgentKeepsWorkingWithTheTokenItHas() throws Exception {
        Path home = tmp.resolve("home");
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        String oldToken = "old-plain-token-" + TokenHash.of("an older Paddock").substring(0, 24);
        oldStore(home, repo, oldToken);
        assertThat(raw(home.resolve("paddock.mv.db")))
                .as("the old store keeps the token in plain text")
                .contains(oldToken);
        setMode(home, "rwxr-xr-x");
        setMode(home.resolve("paddock.mv.db"), "rw-r--r--");
        Files.createDirectories(home.resolve("logs/sandboxes"));
        setMode(home.resolve("logs"), "rwxr-xr-x");
        Files.writeString(home.resolve("logs/sandboxes/" + ID + ".log"), "old output\n");
        setMode(home.resolve("logs/sandboxes/" + ID + ".log"), "rw-r--r--");

        rig = BrokerRig.start(home);

        assertThat(mode(home)).isEqualTo("700");
        assertThat(mode(home.resolve("paddock.mv.db"))).isEqualTo("600");
        assertThat(mode(home.resolve("logs"))).isEqualTo("700");
        assertThat(mode(home.resolve("logs/sandboxes/" + ID + ".log"))).isEqualTo("600");
        assertThat(rig.host()
                        .wiring()
                        .database()
                        .jdbc()
                        .queryOne("SELECT token_hash FROM sandboxes WHERE id = ?", rs -> rs.getString(1), ID))
                .contains(TokenHash.of(oldToken));
        assertThat(rig.host()
                        .wiring()
                        .database()
                        .jdbc()
                        .query(
                                "SELECT column_name FROM information_schema.columns"
                                        + " WHERE table_name = 'SANDBOXES'",
                                rs -> rs.getString(1)))
                .contains("TOKEN_HASH")
                .doesNotContain("TOKEN");
        assertThat(raw(home.resolve("paddock.mv.db")))
                .as("the file was rewritten without the token")
                .doesNotContain(oldToken);

        SandboxRecord adopted = rig.host().wiring().sandboxes().find(ID).orElseThrow();
        String envToken = AgentEnvironment.token(adopted);
        assertThat(envToken).isEqualTo(oldToken);
        HttpResponse<String> beat = rig.call(
                "POST",
                "/v1/sandboxes/" + ID + "/heartbeat",
                "{\"progress\": \"still going after the upgrade\"}",
                envToken);
        assertThat(beat.statusCode()).as(beat.body()).isEqualTo(200);
        HttpResponse<String> decided = rig.call(
                "POST",
                "/v1/decide",
                "{\"tool\": \"Bash\", \"input\": {\"command\":" + " \"git status\"}, \"cwd\": \""
                        + adopted.workspace().worktree() + "\"}",
                envToken);
        assertThat(json(decided).get("decision").asText()).as(decided.body()).isEqualTo("allow");
        Thread.sleep(2_500); // two ticks of the supervisor: the adopted agent is watched, not taken for dead
        assertThat(rig.host().wiring().sandboxes().find(ID).orElseThrow().state())
                .isEqualTo(SandboxState.RUNNING);
        // The last sign of life shows: the hook's call came after the heartbeat (each call counts as one).
        assertThat(rig.host()
                        .wiring()
                        .sandboxes()
                        .find(ID)
                        .orElseThrow()
                        .lease()
                        .progress())
                .isEqualTo("Bash: git status");

        // A retried run gets a new token; the old one stops working.
        rig.host().wiring().sandboxService().stop(ID, "the test");
        rig.host().wiring().sandboxService().retry(ID, "the test");
        String newToken = AgentEnvironment.awaitToken(rig.host().wiring().sandboxes(), ID);
        assertThat(newToken).isNotEqualTo(oldToken).hasSize(43);
        assertThat(rig.call("POST", "/v1/sandboxes/" + ID + "/heartbeat", "{}", oldToken)
                        .statusCode())
                .isEqualTo(401);
        assertThat(rig.call("POST", "/v1/sandboxes/" + ID + "/heartbeat", "{}", newToken)
                        .statusCode())
                .isEqualTo(200);
        assertThat(rig.host()
                        .wiring()
                        .database()
                        .jdbc()
                        .queryOne("SELECT token_hash FROM sandboxes WHERE id = ?", rs -> rs.getString(1), ID))
                .contains(TokenHash.of(newToken));
    }

    /**
     * The store as the earlier Paddock left it: migrations 1 to 7, a repository, and a running sandbox whose agent
     * (started by the same launcher, with {@code oldToken} in its environment) is alive.
     */
    private void oldStore(Path home, TempRepo repo, String oldToken) throws Exception {
        Files.createDirectories(home);
        String url = "jdbc:h2:file:" + home.resolve("paddock") + ";DB_CLOSE_ON_EXIT=FALSE";
        Flyway.configure()
                .dataSource(url, "paddock", "")
                .locations("classpath:db/migration")
                .target("7")
                .load()
                .migrate();
        SandboxLayout layout = new SandboxLayout(repo.dir(), ID, BRANCH);
        Files.createDirectories(layout.controlDir());
        repo.addWorktree(layout.worktree(), BRANCH);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        SandboxRecord record = SandboxRecord.builder()
                .id(ID)
                .repositoryId(1)
                .task("Old agent")
                .agentCommand("sleep 300")
                .tier(Tier.WORKTREE)
                .branch(BRANCH)
                .baseBranch("main")
                .baseCommit(repo.head())
                .worktreePath(layout.worktree().toString())
                .state(SandboxState.RUNNING)
                .version(1)
                .createdAt(now)
                .startedAt(now)
                .stateChangedAt(now)
                .leaseMs(900_000)
                .leaseExpiresAt(now.plusSeconds(900))
                .iteration(1)
                .maxRetries(2)
                .build();
        RunRef started = new AgentLauncher(TestRuntimes.local())
                .start(
                        new AgentLauncher.Launch(
                                record,
                                layout,
                                new RepositoryLocator(new GitCli()).locate(repo.dir()),
                                oldToken,
                                "http://127.0.0.1:9",
                                home.resolve("logs/sandboxes/" + ID + ".log")),
                        () -> {});
        agent = ProcessHandle.of(started.pid()).orElseThrow();
        try (Connection c = DriverManager.getConnection(url, "paddock", "")) {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO repositories (id, path, name, base_branch,"
                    + " created_at, last_opened_at) VALUES (1, ?, 'repo', 'main', ?, ?)")) {
                p.setString(1, repo.dir().toString());
                p.setTimestamp(2, Timestamp.from(now));
                p.setTimestamp(3, Timestamp.from(now));
                p.executeUpdate();
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO sandboxes (id, repository_id, task,"
                    + " agent_command, tier, branch, base_branch, base_commit, worktree_path, pid, pid_started_at, state,"
                    + " version, created_at, started_at, state_changed_at, lease_ms, lease_expires_at, iteration,"
                    + " max_retries, token, fingerprint) VALUES (?, 1, 'Old agent', 'sleep 300', 'worktree', ?, 'main',"
                    + " ?, ?, ?, ?, 'running', 1, ?, ?, ?, 900000, ?, 1, 2, ?, '{}')")) {
                List<Object> values = List.of(
                        ID,
                        BRANCH,
                        repo.head(),
                        layout.worktree().toString(),
                        started.pid(),
                        Timestamp.from(started.startedAt()),
                        Timestamp.from(now),
                        Timestamp.from(now),
                        Timestamp.from(now),
                        Timestamp.from(now.plusSeconds(900)),
                        oldToken);
                for (int i = 0; i < values.size(); i++) {
                    p.setObject(i + 1, values.get(i));
                }
                p.executeUpdate();
            }
            c.createStatement().execute("SHUTDOWN");
        }
    }

    /** The file's bytes, one character each (a token's ASCII is found wherever it lies). */
    private static String raw(Path file) throws Exception {
        return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    }

    private static void setMode(Path p, String mode) throws Exception {
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
    }

    private static String mode(Path p) throws Exception {
        return PrivateFiles.octal(Files.getPosixFilePermissions(p));
    }
}
