package dev.paddock;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.sandbox.SandboxOwners;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.HookRun;
import dev.paddock.testing.HookRun.Shell;
import dev.paddock.testing.PrivatePostgres;
import dev.paddock.testing.ServeProcess;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real {@code paddock serve} processes (two homes, one repository) sharing one store on a real PostgreSQL server:
 * both list the same sandboxes, one alone supervises each (its agent runs once), an approval made through one
 * releases the hook waiting on the other, a decision made twice has one winner, and after {@code kill -9} of one the
 * other takes its sandboxes over within a lease and adopts their running agents.
 */
class SharedStoreTwoServesTest {
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    private final List<ServeProcess> serves = new ArrayList<>();

    @AfterEach
    void tearDown() {
        serves.forEach(ServeProcess::close);
    }

    @Test
    void twoServesShareSandboxesApprovalsAndTakeOverAfterKillNine() throws Exception {
        PrivatePostgres.Db pg = PrivatePostgres.newDatabase();
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        Map<String, String> env = Map.of("PADDOCK_STORE", pg.urlWithLogin());
        ServeProcess a = serve(tmp.resolve("a"), repo, env);
        ServeProcess b = serve(tmp.resolve("b"), repo, env);
        Path runs = tmp.resolve("runs.txt");

        String id = a.runningSandbox("Shared", "echo started >> '" + runs + "'; sleep 300");

        // Both see it; A, its creator, alone supervises it: its agent started once.
        assertThat(listed(b)).as("listed through B").contains(id);
        assertThat(b.stateOf(id)).isEqualTo("running");
        assertThat(owner(pg, id)).startsWith(HomeStart.hostName() + ":" + a.pid() + ":");
        Thread.sleep(3_000); // a few of B's ticks
        assertThat(Files.readAllLines(runs)).as("the agent ran once").hasSize(1);

        // A hook waits on A; the approval is made through B's API.
        Path worktree = a.worktree(id);
        CompletableFuture<HookRun.Result> hook = CompletableFuture.supplyAsync(() -> HookRun.run(
                a.script(),
                Shell.BASH,
                HookRun.agentEnv(a.port(), id, "unused", a.hookKeyOf(id)),
                HookRun.payload(worktree, "git push origin main"),
                List.of(),
                LIMIT));
        long approval = b.awaitPending(id);
        long t0 = System.nanoTime();
        b.approve(approval, "bob");
        HookRun.Result answer = hook.get(30, TimeUnit.SECONDS);
        long releasedMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(answer.decision()).as(answer.describe()).isEqualTo("allow");
        System.out.println(
                "SHARED-STORE approval through B released the hook waiting on A after " + releasedMs + " ms");

        HttpResponse<String> twice = a.call("POST", "/v1/approvals/" + approval + "/deny", "{\"by\": \"ann\"}");
        assertThat(twice.statusCode()).as(twice.body()).isEqualTo(409);
        assertThat(twice.body()).contains("is approved, not pending").contains("approved by bob");

        // kill -9 of A: B takes its sandbox over once the lease expired, and adopts the agent that still runs.
        a.kill9LeavingAgents();
        long killed = System.nanoTime();
        String bPrefix = HomeStart.hostName() + ":" + b.pid() + ":";
        while (!owner(pg, id).startsWith(bPrefix)) {
            assertThat(Duration.ofNanos(System.nanoTime() - killed))
                    .as("taken over within a lease")
                    .isLessThan(SandboxOwners.LENGTH.plus(LIMIT));
            Thread.sleep(100);
        }
        double takenOver = (System.nanoTime() - killed) / 1e9;
        System.out.printf("SHARED-STORE sandbox taken over by B %.1f s after kill -9 of A%n", takenOver);
        assertThat(takenOver).isLessThan(SandboxOwners.LENGTH.toSeconds() + SandboxOwners.RENEW_EVERY.toSeconds());
        Thread.sleep(3_000); // B's ticks over the adopted sandbox
        assertThat(b.stateOf(id)).as(b.report()).isEqualTo("running");
        assertThat(Files.readAllLines(runs)).as("adopted, not started again").hasSize(1);

        // B supervises it now: a stop through B ends the agent A started.
        HttpResponse<String> stop = b.call("POST", "/v1/sandboxes/" + id + "/stop", null);
        assertThat(stop.statusCode()).as(stop.body()).isEqualTo(200);
    }

    private ServeProcess serve(Path dir, TempRepo repo, Map<String, String> env) {
        ServeProcess s = ServeProcess.start(dir, repo, env);
        serves.add(s);
        return s;
    }

    private static List<String> listed(ServeProcess s) throws Exception {
        List<String> ids = new ArrayList<>();
        for (JsonNode n : Json.mapper()
                .readTree(s.call("GET", "/v1/sandboxes", null).body())
                .path("sandboxes")) {
            ids.add(n.get("id").asText());
        }
        return ids;
    }

    private static String owner(PrivatePostgres.Db pg, String id) throws Exception {
        try (Connection c = pg.connect();
                PreparedStatement s = c.prepareStatement("SELECT owner FROM sandbox_owner WHERE sandbox_id = ?")) {
            s.setString(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : "";
            }
        }
    }
}
