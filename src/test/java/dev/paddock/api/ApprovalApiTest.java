package dev.paddock.api;

import static dev.paddock.testing.BrokerRig.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import dev.paddock.events.Event;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/decide} and {@code /v1/approvals} over real HTTP against a real running Paddock, real
 * repositories with a policy file and real running agents ({@link BrokerRig}).
 */
class ApprovalApiTest {
    @TempDir
    static Path shared;

    private static BrokerRig rig;

    @TempDir
    Path tmp;

    private TempRepo repo;

    @BeforeAll
    static void start() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
    }

    @AfterAll
    static void stop() {
        rig.close();
    }

    @BeforeEach
    void makeRepository() throws Exception {
        repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        rig.approvalTimeout(60_000);
    }

    @Test
    void allowAndDenyAreAnsweredAtOnceWithReasonAndRule() throws Exception {
        SandboxRecord s = rig.runningSandbox(repo, "Allow and deny");
        String token = rig.tokenOf(s.id());

        JsonNode allowed = json(decide(token, null, "git status", s.workspace().worktree()));
        JsonNode denied = json(decide(token, null, "rm -rf /", s.workspace().worktree()));

        assertThat(allowed.get("decision").asText()).isEqualTo("allow");
        assertThat(allowed.get("rule").asText()).isEqualTo("Bash(git status)");
        assertThat(allowed.get("state").asText()).isEqualTo("approved");
        assertThat(allowed.get("reason").asText()).isNotBlank();
        assertThat(denied.get("decision").asText()).isEqualTo("deny");
        assertThat(denied.get("rule").asText()).isEqualTo("Bash(rm -rf:*)");
        assertThat(denied.get("state").asText()).isEqualTo("denied");
        assertThat(kinds(s.id())).contains("approval.approved", "approval.denied");
        JsonNode row = approval(denied.get("approvalId").asLong());
        assertThat(row.get("decidedBy").asText()).isEqualTo("policy");
        assertThat(row.get("request").asText()).isEqualTo("rm -rf /");
    }

    @Test
    void anAskWaitsUntilAPersonApproves() throws Exception {
        SandboxRecord s = rig.runningSandbox(repo, "Ask then approve");
        CompletableFuture<HttpResponse<String>> waiting = decideAsync(
                rig.tokenOf(s.id()), "git push origin main", s.workspace().worktree());
        long id = awaitPending(s.id());
        Thread.sleep(300);
        assertThat(waiting).as("still waiting for a person").isNotDone();

        HttpResponse<String> ok =
                rig.call("POST", "/v1/approvals/" + id + "/approve", "{\"by\": \"ann\"}", rig.installToken());

        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        JsonNode answer = json(waiting.get());
        assertThat(answer.get("decision").asText()).isEqualTo("allow");
        assertThat(answer.get("approvalId").asLong()).isEqualTo(id);
        assertThat(answer.get("reason").asText()).isEqualTo("approved by ann");
        JsonNode row = approval(id);
        assertThat(row.get("state").asText()).isEqualTo("approved");
        assertThat(row.get("decidedBy").asText()).isEqualTo("human");
        assertThat(row.get("decider").asText()).isEqualTo("ann");
        assertThat(row.get("matchedRule").asText()).isEqualTo("Bash(git push:*)");
        assertThat(kinds(s.id())).containsSubsequence("approval.requested", "approval.approved");
        HttpResponse<String> again = rig.call("POST", "/v1/approvals/" + id + "/deny", null, rig.installToken());
        assertThat(again.statusCode()).isEqualTo(409);
    }

    @Test
    void anAskIsReleasedByADenyWithItsReason() throws Exception {
        SandboxRecord s = rig.runningSandbox(repo, "Ask then deny");
        CompletableFuture<HttpResponse<String>> waiting =
                decideAsync(rig.tokenOf(s.id()), "make deploy", s.workspace().worktree());
        long id = awaitPending(s.id());

        rig.call(
                "POST",
                "/v1/approvals/" + id + "/deny",
                "{\"by\": \"bob\", \"reason\": \"not today\"}",
                rig.installToken());

        JsonNode answer = json(waiting.get());
        assertThat(answer.get("decision").asText()).isEqualTo("deny");
        assertThat(answer.get("reason").asText()).isEqualTo("denied by bob: not today");
        assertThat(approval(id).get("state").asText()).isEqualTo("denied");
    }

    @Test
    void anAskNobodyAnswersExpiresAsADeny() throws Exception {
        rig.approvalTimeout(1500);
        SandboxRecord s = rig.runningSandbox(repo, "Ask then expire");
        long t0 = System.nanoTime();

        JsonNode answer = json(
                decide(rig.tokenOf(s.id()), null, "make deploy", s.workspace().worktree()));

        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(answer.get("decision").asText()).isEqualTo("deny");
        assertThat(answer.get("state").asText()).isEqualTo("expired");
        assertThat(ms).isBetween(1400L, 10_000L);
        JsonNode row = approval(answer.get("approvalId").asLong());
        assertThat(row.get("decidedBy").asText()).isEqualTo("timeout");
        assertThat(kinds(s.id())).containsSubsequence("approval.requested", "approval.expired");
    }

    @Test
    void anAskIsCancelledWhenItsSandboxStops() throws Exception {
        SandboxRecord s = rig.runningSandbox(repo, "Ask then stop");
        CompletableFuture<HttpResponse<String>> waiting =
                decideAsync(rig.tokenOf(s.id()), "make deploy", s.workspace().worktree());
        long id = awaitPending(s.id());

        rig.host().wiring().sandboxService().stop(s.id(), "ann");

        JsonNode answer = json(waiting.get());
        assertThat(answer.get("decision").asText()).isEqualTo("deny");
        assertThat(answer.get("state").asText()).isEqualTo("cancelled");
        assertThat(answer.get("reason").asText()).contains("awaiting_human");
        assertThat(approval(id).get("state").asText()).isEqualTo("cancelled");
        assertThat(kinds(s.id())).contains("approval.cancelled");
    }

    @Test
    void anAskIsCancelledWhenItsRequesterHangsUp() throws Exception {
        SandboxRecord s = rig.runningSandbox(repo, "Ask then hang up");
        String body = body(null, "make deploy", s.workspace().worktree()).toString();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), rig.port())) {
            OutputStream out = socket.getOutputStream();
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            out.write(("POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + rig.tokenOf(s.id())
                            + "\r\nContent-Type: application/json\r\nContent-Length: " + b.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(b);
            out.flush();
            InputStream in = socket.getInputStream();
            assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
        }
        long id = lastApproval(s.id());

        BrokerRig.await("approval " + id + " cancelled", () -> state(id).equals("cancelled"));

        assertThat(approval(id).get("reason").asText()).contains("requester went away");
    }

    @Test
    void aResentRequestAttachesToThePendingOne() throws Exception {
        SandboxRecord s = rig.runningSandbox(repo, "Ask twice");
        String token = rig.tokenOf(s.id());
        CompletableFuture<HttpResponse<String>> first =
                decideAsync(token, "make deploy", s.workspace().worktree());
        long id = awaitPending(s.id());
        CompletableFuture<HttpResponse<String>> second =
                decideAsync(token, "make deploy", s.workspace().worktree());
        Thread.sleep(500);

        rig.call("POST", "/v1/approvals/" + id + "/approve", null, rig.installToken());

        assertThat(json(first.get()).get("approvalId").asLong()).isEqualTo(id);
        assertThat(json(second.get()).get("approvalId").asLong()).isEqualTo(id);
        assertThat(json(second.get()).get("decision").asText()).isEqualTo("allow");
        assertThat(kinds(s.id()).stream().filter("approval.requested"::equals)).hasSize(1);
    }

    @Test
    void aRequestWithoutTokenIsRefused401AndWithAnotherSandboxsToken403() throws Exception {
        SandboxRecord a = rig.runningSandbox(repo, "Token one");
        SandboxRecord b = rig.runningSandbox(repo, "Token two");

        HttpResponse<String> none = rig.call(
                "POST",
                "/v1/decide",
                body(a.id(), "git status", a.workspace().worktree()).toString(),
                null);
        HttpResponse<String> other =
                decide(rig.tokenOf(b.id()), a.id(), "git status", a.workspace().worktree());
        HttpResponse<String> queue = rig.call("GET", "/v1/approvals?state=pending", null, rig.tokenOf(a.id()));
        HttpResponse<String> approve = rig.call("POST", "/v1/approvals/1/approve", null, rig.tokenOf(a.id()));
        HttpResponse<String> install =
                decide(rig.installToken(), a.id(), "git status", a.workspace().worktree());
        HttpResponse<String> installNoId = decide(rig.installToken(), null, "git status", tmp);

        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(other.statusCode()).as(other.body()).isEqualTo(403);
        assertThat(json(other).get("error").asText()).contains(b.id()).contains(a.id());
        assertThat(queue.statusCode()).isEqualTo(403);
        assertThat(approve.statusCode()).isEqualTo(403);
        assertThat(json(install).get("decision").asText()).isEqualTo("allow");
        assertThat(installNoId.statusCode()).as(installNoId.body()).isEqualTo(400);
    }

    @Test
    void approveAndAllowWritesAPrefixRuleAndTheNextSuchCommandIsAllowed() throws Exception {
        SandboxRecord s = rig.runningSandbox(repo, "Allow from now on");
        String token = rig.tokenOf(s.id());
        CompletableFuture<HttpResponse<String>> waiting =
                decideAsync(token, "npm run test -- --watch", s.workspace().worktree());
        long id = awaitPending(s.id());

        HttpResponse<String> r =
                rig.call("POST", "/v1/approvals/" + id + "/allow", "{\"by\": \"ann\"}", rig.installToken());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).get("rule").asText()).isEqualTo("Bash(npm run test:*)");
        assertThat(json(waiting.get()).get("decision").asText()).isEqualTo("allow");
        JsonNode policy = Json.mapper()
                .readTree(repo.dir().resolve(".paddock/policy.json").toFile());
        assertThat(policy.get("note").asText()).isEqualTo("keep me");
        assertThat(policy.at("/permissions/allow").toString())
                .isEqualTo("[\"Bash(git status)\",\"Bash(npm run test:*)\"]");
        assertThat(policy.at("/permissions/deny").toString()).isEqualTo("[\"Bash(rm -rf:*)\"]");
        assertThat(repo.dir().resolve(".paddock/policy.json.bak")).hasContent(BrokerRig.POLICY);
        JsonNode next = json(
                decide(token, null, "npm run test -- --coverage", s.workspace().worktree()));
        assertThat(next.get("decision").asText()).isEqualTo("allow");
        assertThat(next.get("rule").asText()).isEqualTo("Bash(npm run test:*)");
    }

    private static ObjectNode body(String sandboxId, String command, Path cwd) {
        ObjectNode n = Json.mapper().createObjectNode();
        if (sandboxId != null) {
            n.put("sandboxId", sandboxId);
        }
        n.put("tool", "Bash");
        n.putObject("input").put("command", command).put("description", "a test");
        n.put("cwd", cwd.toString());
        n.put("sessionId", "session-1");
        return n;
    }

    private static HttpResponse<String> decide(String token, String sandboxId, String command, Path cwd)
            throws Exception {
        return rig.call("POST", "/v1/decide", body(sandboxId, command, cwd).toString(), token);
    }

    private static CompletableFuture<HttpResponse<String>> decideAsync(String token, String command, Path cwd) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return decide(token, null, command, cwd);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static long awaitPending(String sandboxId) throws Exception {
        long[] id = {0};
        BrokerRig.await("a pending approval of " + sandboxId, () -> {
            try {
                for (JsonNode a : json(rig.call("GET", "/v1/approvals?state=pending", null, rig.installToken()))
                        .get("approvals")) {
                    if (a.get("sandboxId").asText().equals(sandboxId)) {
                        id[0] = a.get("id").asLong();
                        return true;
                    }
                }
                return false;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return id[0];
    }

    private static long lastApproval(String sandboxId) throws Exception {
        BrokerRig.await("an approval of " + sandboxId, () -> {
            try {
                return kinds(sandboxId).contains("approval.requested");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        for (JsonNode a :
                json(rig.call("GET", "/v1/approvals", null, rig.installToken())).get("approvals")) {
            if (a.get("sandboxId").asText().equals(sandboxId)) {
                return a.get("id").asLong();
            }
        }
        throw new AssertionError("no approval of " + sandboxId);
    }

    private static JsonNode approval(long id) throws Exception {
        for (JsonNode a :
                json(rig.call("GET", "/v1/approvals", null, rig.installToken())).get("approvals")) {
            if (a.get("id").asLong() == id) {
                return a;
            }
        }
        throw new AssertionError("no approval " + id);
    }

    private static String state(long id) {
        try {
            return approval(id).get("state").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> kinds(String sandboxId) throws Exception {
        return rig.host().wiring().events().ofSandbox(sandboxId).stream()
                .map(Event::kind)
                .filter(k -> k.startsWith("approval."))
                .toList();
    }
}
