package dev.paddock.api;

import static dev.paddock.testing.BrokerRig.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import dev.paddock.policy.PolicyFile;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Approve and always allow" ({@code POST /v1/approvals/{id}/allow}) when the rule that asked still matches: deny
 * beats ask beats allow, so an allow rule alone would change nothing. Real Paddock, real HTTP, real policy files,
 * real running agents ({@link BrokerRig}).
 */
class ApproveAndAllowTest {
    @TempDir
    static Path shared;

    private static BrokerRig rig;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
        rig.approvalTimeout(60_000);
    }

    @AfterAll
    static void stop() {
        rig.close();
    }

    @AfterEach
    void noGlobalPolicy() throws Exception {
        Files.deleteIfExists(PolicyFile.globalFile(rig.home().dir()));
    }

    @Test
    void theAskRuleThatReadsLikeTheNewAllowRuleIsRemovedAndTheNextIdenticalRequestIsAllowed() throws Exception {
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo")); // ask: Bash(git push:*)
        SandboxRecord s = rig.runningSandbox(repo, "Push");
        String token = rig.tokenOf(s.id());
        CompletableFuture<HttpResponse<String>> waiting =
                decideAsync(token, "git push origin main", s.workspace().worktree());
        long id = awaitPending(s.id());

        HttpResponse<String> r = allow(id);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        Path file = repo.dir().resolve(".paddock/policy.json");
        assertThat(json(r).get("rule").asText()).isEqualTo("Bash(git push:*)");
        assertThat(json(r).get("deciding").asText()).isEqualTo("allow rule Bash(git push:*) from " + file);
        assertThat(json(r).get("droppedAsks").toString())
                .isEqualTo("[\"ask rule Bash(git push:*) from " + file + "\"]");
        assertThat(json(r).at("/approval/reason").asText())
                .isEqualTo("approved by ann; allowed from now on by the"
                        + " allow rule Bash(git push:*) from " + file + " (removed the ask rule Bash(git push:*) from "
                        + file
                        + ")");
        assertThat(json(waiting.get()).get("decision").asText()).isEqualTo("allow");
        JsonNode policy = Json.mapper().readTree(file.toFile());
        assertThat(policy.at("/permissions/ask").toString()).isEqualTo("[]");
        assertThat(policy.at("/permissions/allow").toString()).isEqualTo("[\"Bash(git status)\",\"Bash(git push:*)\"]");
        assertThat(policy.at("/permissions/deny").toString()).isEqualTo("[\"Bash(rm -rf:*)\"]");
        assertThat(policy.get("note").asText()).isEqualTo("keep me");

        JsonNode next = json(decide(token, "git push origin main", s.workspace().worktree()));
        assertThat(next.get("decision").asText()).as(next.toString()).isEqualTo("allow");
        assertThat(next.get("rule").asText()).isEqualTo("Bash(git push:*)");
        assertThat(json(decide(token, "rm -rf build", s.workspace().worktree()))
                        .get("decision")
                        .asText())
                .isEqualTo("deny");
    }

    @Test
    void anAskRuleBroaderThanTheAllowRuleStillDecidesSoNothingIsWrittenAndTheRequestStillWaits() throws Exception {
        String text = "{\"permissions\": {\"ask\": [\"Bash(git:*)\"], \"allow\": [\"Bash(ls:*)\"]}}";
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"), text);
        SandboxRecord s = rig.runningSandbox(repo, "Fetch");
        String token = rig.tokenOf(s.id());
        CompletableFuture<HttpResponse<String>> waiting =
                decideAsync(token, "git fetch origin", s.workspace().worktree());
        long id = awaitPending(s.id());
        // An agent cannot take this route at all.
        assertThat(rig.call("POST", "/v1/approvals/" + id + "/allow", "{}", token)
                        .statusCode())
                .isEqualTo(403);

        HttpResponse<String> r = allow(id);

        Path file = repo.dir().resolve(".paddock/policy.json");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(json(r).get("error").asText())
                .isEqualTo("No allow rule written: the ask rule Bash(git:*) from "
                        + file
                        + " would still ask about this request (ask rules win over allow rules), and it covers more"
                        + " than Bash(git fetch:*): dropping it would stop asking about all of it. Narrow that rule in the"
                        + " policy editor (Ctrl+P) if that is what you want. Approve or deny it once instead.");
        assertThat(Files.readString(file)).isEqualTo(text);
        assertThat(waiting).isNotDone();
        HttpResponse<String> once =
                rig.call("POST", "/v1/approvals/" + id + "/approve", "{\"by\": \"ann\"}", rig.installToken());
        assertThat(once.statusCode()).as(once.body()).isEqualTo(200);
        assertThat(json(waiting.get()).get("decision").asText()).isEqualTo("allow");
    }

    @Test
    void anIdenticalAskRuleInTheGlobalPolicyIsRemovedThere() throws Exception {
        Path global = PolicyFile.globalFile(rig.home().dir());
        Files.writeString(global, "{\"permissions\": {\"ask\": [\"Bash(npm install:*)\", \"Bash(curl:*)\"]}}");
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"), "{}");
        SandboxRecord s = rig.runningSandbox(repo, "Install");
        String token = rig.tokenOf(s.id());
        CompletableFuture<HttpResponse<String>> waiting = decideAsync(
                token, "npm install --save-dev vitest", s.workspace().worktree());
        long id = awaitPending(s.id());

        HttpResponse<String> r = allow(id);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).get("droppedAsks").toString())
                .isEqualTo("[\"ask rule Bash(npm install:*) from " + global + "\"]");
        assertThat(json(waiting.get()).get("decision").asText()).isEqualTo("allow");
        assertThat(Json.mapper()
                        .readTree(global.toFile())
                        .at("/permissions/ask")
                        .toString())
                .isEqualTo("[\"Bash(curl:*)\"]");
        assertThat(Json.mapper()
                        .readTree(repo.dir().resolve(".paddock/policy.json").toFile())
                        .at("/permissions/allow")
                        .toString())
                .isEqualTo("[\"Bash(npm install:*)\"]");
        assertThat(json(decide(token, "npm install left-pad", s.workspace().worktree()))
                        .get("decision")
                        .asText())
                .isEqualTo("allow");
    }

    @Test
    void whatPaddocksBuiltInRuleAsksAboutIsNeverAllowedFromNowOn() throws Exception {
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"), "{\"permissions\": {\"allow\": []}}");
        SandboxRecord s = rig.runningSandbox(repo, "Touch the policy");
        String token = rig.tokenOf(s.id());
        CompletableFuture<HttpResponse<String>> waiting = decideAsync(
                token, "python3 fix.py .paddock/policy.json", s.workspace().worktree());
        long id = awaitPending(s.id());
        String before = Files.readString(repo.dir().resolve(".paddock/policy.json"));

        HttpResponse<String> r = allow(id);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(json(r).get("error").asText())
                .startsWith("No allow rule written: even with Bash(python3 fix.py:*)"
                        + " the policy would still ask about this request: ")
                .contains(".paddock/policy.json")
                .endsWith("No allow rule can change that. Approve or deny it once instead.");
        assertThat(Files.readString(repo.dir().resolve(".paddock/policy.json"))).isEqualTo(before);
        assertThat(waiting).isNotDone();
        rig.call("POST", "/v1/approvals/" + id + "/deny", "{\"by\": \"ann\"}", rig.installToken());
        assertThat(json(waiting.get()).get("decision").asText()).isEqualTo("deny");
    }

    private static HttpResponse<String> allow(long id) throws Exception {
        return rig.call("POST", "/v1/approvals/" + id + "/allow", "{\"by\": \"ann\"}", rig.installToken());
    }

    private static HttpResponse<String> decide(String token, String command, Path cwd) throws Exception {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("tool", "Bash");
        n.putObject("input").put("command", command);
        n.put("cwd", cwd.toString());
        n.put("sessionId", "session-1");
        return rig.call("POST", "/v1/decide", n.toString(), token);
    }

    private static CompletableFuture<HttpResponse<String>> decideAsync(String token, String command, Path cwd) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return decide(token, command, cwd);
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
}
