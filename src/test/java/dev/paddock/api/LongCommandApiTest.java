package dev.paddock.api;

import static dev.paddock.testing.BrokerRig.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.approval.Approval;
import dev.paddock.common.Json;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Commands far longer than a line, up to the hook's input limit, through a real running Paddock's broker
 * and API ({@link BrokerRig}) with a real agent: judged by the policy like short ones, stored whole, and
 * answered with a reason of bounded length.
 */
class LongCommandApiTest {
    /** A rule longer than the 1,024 characters approvals.matched_rule first took. */
    private static final String LONG_RULE = "Bash(printf " + "%s-".repeat(600) + ":*)";

    private static final String POLICY = "{\"permissions\": {\"allow\": [\"Bash(echo:*)\", \"" + LONG_RULE + "\"],"
            + " \"ask\": [\"Bash(git push:*)\"]}}";
    private static final Pattern APPROVAL_ID = Pattern.compile("\\(approval (\\d+)\\)");

    @TempDir
    static Path shared;

    private static BrokerRig rig;
    private static SandboxRecord sandbox;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
        TempRepo repo = BrokerRig.repoWithPolicy(shared.resolve("repo"), POLICY);
        rig.approvalTimeout(120_000);
        sandbox = rig.runningSandbox(repo, "Long commands");
        token = rig.tokenOf(sandbox.id());
    }

    @AfterAll
    static void stop() {
        rig.close();
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {8 * 1024, 500 * 1024})
    void anAllowedLongCommandIsAllowedAndStoredWholeThroughDecide(int size) throws Exception {
        String command = echoes(size);

        HttpResponse<String> r =
                rig.call("POST", "/v1/decide", decideBody(command).toString(), token);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode answer = json(r);
        assertThat(answer.get("decision").asText())
                .as(answer.get("reason").asText())
                .isEqualTo("allow");
        assertThat(answer.get("state").asText()).isEqualTo("approved");
        assertThat(answer.get("reason").asText().length()).isLessThanOrEqualTo(4096);
        Approval stored = stored(answer.get("approvalId").asLong());
        assertThat(stored.request()).isEqualTo(command);
        assertThat(stored.decision()).isEqualTo("allow");
        assertThat(stored.matchedRule()).isEqualTo("Bash(echo:*)");
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {8 * 1024, 500 * 1024})
    void anAllowedLongCommandIsAllowedAndStoredWholeThroughTheHookRoute(int size) throws Exception {
        String command = echoes(size);

        HttpResponse<String> r =
                rig.call("POST", "/v1/hooks/claude", hookPayload(command).toString(), token);

        assertThat(r.statusCode()).isEqualTo(200);
        String[] lines = r.body().split("\n");
        assertThat(lines[0])
                .as(r.body().length() > 2000 ? r.body().substring(0, 2000) : r.body())
                .isEqualTo("allow");
        Matcher m = APPROVAL_ID.matcher(lines[2]);
        assertThat(m.find()).as(lines[2]).isTrue();
        assertThat(lines[2].length()).isLessThan(4096 + 200);
        Approval stored = stored(Long.parseLong(m.group(1)));
        assertThat(stored.request()).isEqualTo(command);
        assertThat(stored.state().id()).isEqualTo("approved");
    }

    @Test
    void anAskedCommandOf100KbWaitsInTheQueueAndCanBeApproved() throws Exception {
        String command = "git push origin " + "refs/heads/topic-with-a-long-name:".repeat(100 * 1024 / 34) + "main";
        CompletableFuture<HttpResponse<String>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return rig.call("POST", "/v1/decide", decideBody(command).toString(), token);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        JsonNode pending = awaitPending();
        assertThat(pending.get("request").asText()).isEqualTo(command);
        assertThat(pending.get("matchedRule").asText()).isEqualTo("Bash(git push:*)");

        HttpResponse<String> ok = rig.call(
                "POST",
                "/v1/approvals/" + pending.get("id").asLong() + "/approve",
                "{\"by\": \"ann\"}",
                rig.installToken());

        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        JsonNode answer = json(waiting.get());
        assertThat(answer.get("decision").asText()).isEqualTo("allow");
        Approval stored = stored(pending.get("id").asLong());
        assertThat(stored.request()).isEqualTo(command);
        assertThat(stored.state().id()).isEqualTo("approved");
        assertThat(stored.decider()).isEqualTo("ann");
    }

    @Test
    void aLongWorkingDirectorySessionAndRuleAreStoredWhole() throws Exception {
        String command = "printf " + "%s-".repeat(600) + " done";
        String cwd = sandbox.workspace()
                .worktree()
                .resolve("deep/".repeat(1200) + "end")
                .toString();
        ObjectNode body = decideBody(command).put("cwd", cwd).put("sessionId", "session-" + "x".repeat(5000));

        HttpResponse<String> r = rig.call("POST", "/v1/decide", body.toString(), token);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(json(r).get("decision").asText()).isEqualTo("allow");
        Approval stored = stored(json(r).get("approvalId").asLong());
        assertThat(stored.matchedRule()).isEqualTo(LONG_RULE);
        assertThat(stored.cwd()).isEqualTo(cwd);
        assertThat(stored.sessionId()).isEqualTo("session-" + "x".repeat(5000));
        assertThat(stored.request()).isEqualTo(command);
    }

    @Test
    void aPersonsLongDenyReasonIsStoredShortenedAndTheAgentIsTold() throws Exception {
        String command = "git push origin refs/heads/deny-me";
        CompletableFuture<HttpResponse<String>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return rig.call("POST", "/v1/decide", decideBody(command).toString(), token);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long id = awaitPending().get("id").asLong();
        String why = "not this one, because ".repeat(1000);

        HttpResponse<String> denied = rig.call(
                "POST",
                "/v1/approvals/" + id + "/deny",
                Json.mapper()
                        .createObjectNode()
                        .put("by", "bob")
                        .put("reason", why)
                        .toString(),
                rig.installToken());

        assertThat(denied.statusCode()).as(denied.body()).isEqualTo(200);
        String told = json(waiting.get()).get("reason").asText();
        assertThat(told)
                .startsWith("denied by bob: not this one")
                .endsWith("(shortened from " + (15 + why.strip().length()) + " characters)")
                .hasSizeLessThanOrEqualTo(4096);
        assertThat(stored(id).reason()).isEqualTo(told);
        assertThat(stored(id).state().id()).isEqualTo("denied");
    }

    /** {@code echo word; echo word; ...} of about {@code size} bytes: many parts, each allowed. */
    private static String echoes(int size) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; b.length() < size; i++) {
            b.append(i == 0 ? "" : "; ").append("echo part-").append(i).append(" of-a-long-command");
        }
        return b.toString();
    }

    private static ObjectNode decideBody(String command) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("tool", "Bash");
        n.putObject("input").put("command", command).put("description", "a long one");
        n.put("cwd", sandbox.workspace().worktree().toString());
        n.put("sessionId", "session-long");
        return n;
    }

    private static ObjectNode hookPayload(String command) {
        ObjectNode n = Json.mapper().createObjectNode();
        n.put("session_id", "session-long-hook");
        n.put("hook_event_name", "PreToolUse");
        n.put("cwd", sandbox.workspace().worktree().toString());
        n.put("tool_name", "Bash");
        n.putObject("tool_input").put("command", command);
        return n;
    }

    private static Approval stored(long id) throws Exception {
        return rig.host().wiring().approvals().find(id).orElseThrow();
    }

    private static JsonNode awaitPending() throws Exception {
        JsonNode[] found = {null};
        BrokerRig.await("a pending approval", () -> {
            try {
                for (JsonNode a : json(rig.call("GET", "/v1/approvals?state=pending", null, rig.installToken()))
                        .get("approvals")) {
                    if (a.get("sandboxId").asText().equals(sandbox.id())) {
                        found[0] = a;
                        return true;
                    }
                }
                return false;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return found[0];
    }
}
