package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pending requests survive a restart of Paddock (a real {@link dev.paddock.Host} stopped and started on the
 * same home while the agent keeps running): not cancelled by the shutdown, waited for again, a re-sent
 * request attaches to them, and one whose expiry passed meanwhile is expired at start.
 */
class ApprovalRestartTest {
    @TempDir
    Path tmp;

    @Test
    void aPendingRequestSurvivesARestartAndAReSentRequestAttachesToIt() throws Exception {
        try (BrokerRig rig = BrokerRig.start(tmp.resolve("home"))) {
            TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
            SandboxRecord s = rig.runningSandbox(repo, "Survive restart");
            String token = rig.tokenOf(s.id());
            CompletableFuture<HttpResponse<String>> before =
                    decideAsync(rig, token, s.workspace().worktree());
            long id = awaitPending(rig, s.id());
            Instant expiry =
                    rig.host().wiring().approvals().find(id).orElseThrow().expiresAt();

            rig.restart();

            String old = before.handle((r, e) -> r == null
                            ? "dropped"
                            : BrokerRig.json(r).get("decision").asText())
                    .get();
            assertThat(old)
                    .as("the old connection is dropped or denied, never allowed")
                    .isIn("dropped", "deny");
            Approval still = rig.host().wiring().approvals().find(id).orElseThrow();
            assertThat(still.state()).isEqualTo(ApprovalState.PENDING);
            assertThat(still.expiresAt()).isEqualTo(expiry);
            CompletableFuture<HttpResponse<String>> again =
                    decideAsync(rig, token, s.workspace().worktree());
            Thread.sleep(500);
            rig.host().wiring().approvals().approve(id, "ann");
            JsonNode answer = BrokerRig.json(again.get());
            assertThat(answer.get("approvalId").asLong()).isEqualTo(id);
            assertThat(answer.get("decision").asText()).isEqualTo("allow");
        }
    }

    @Test
    void aPendingRequestWhoseExpiryPassedWhileStoppedIsExpiredAtStart() throws Exception {
        try (BrokerRig rig = BrokerRig.start(tmp.resolve("home"))) {
            TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
            SandboxRecord s = rig.runningSandbox(repo, "Expire while stopped");
            rig.approvalTimeout(2500);
            CompletableFuture<HttpResponse<String>> before =
                    decideAsync(rig, rig.tokenOf(s.id()), s.workspace().worktree());
            long id = awaitPending(rig, s.id());
            rig.host().close(); // stopped for longer than the timeout
            before.handle((r, e) -> null).get();
            Thread.sleep(3000);

            rig.restartStopped();

            Approval end = rig.host().wiring().approvals().find(id).orElseThrow();
            assertThat(end.state()).isEqualTo(ApprovalState.EXPIRED);
            assertThat(end.decidedBy()).isEqualTo("timeout");
        }
    }

    private static CompletableFuture<HttpResponse<String>> decideAsync(BrokerRig rig, String token, Path cwd) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("tool", "Bash");
        n.putObject("input").put("command", "git push origin main");
        n.put("cwd", cwd.toString());
        n.put("sessionId", "s-1");
        return CompletableFuture.supplyAsync(() -> {
            try {
                return rig.call("POST", "/v1/decide", n.toString(), token);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static long awaitPending(BrokerRig rig, String sandboxId) throws Exception {
        long[] id = {0};
        BrokerRig.await("a pending approval", () -> {
            try {
                rig.host().wiring().approvals().list(ApprovalState.PENDING, 10).stream()
                        .filter(a -> a.sandboxId().equals(sandboxId))
                        .findFirst()
                        .ifPresent(a -> id[0] = a.id());
                return id[0] != 0;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return id[0];
    }
}
