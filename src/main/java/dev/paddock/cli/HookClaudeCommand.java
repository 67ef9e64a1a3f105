package dev.paddock.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.api.ApiAnswerException;
import dev.paddock.api.ApiClient;
import dev.paddock.api.ApiUnreachableException;
import dev.paddock.approval.ApprovalException;
import dev.paddock.approval.ClaudeHook;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.PaddockHome;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock hook claude}: Claude Code's PreToolUse hook (Claude Code hooks reference). Reads the
 * event's JSON on stdin, asks Paddock's broker ({@code POST /v1/decide}) and prints
 * {@code {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"|"deny",
 * "permissionDecisionReason": "..."}}}; exit 0 on allow, exit 2 with the reason on stderr on deny.
 *
 * <p>The broker: {@code PADDOCK_API} with {@code PADDOCK_TOKEN} (and {@code PADDOCK_SANDBOX_ID}), which
 * Paddock gives every agent; otherwise the running Paddock of the home ({@code instance.json},
 * {@code api-token}). Fail-closed: malformed input, no broker, no token, an error answer or any failure
 * of this command denies with exit 2. It never exits with another code, which Claude Code would take as a
 * non-blocking error and let the call through. A request the policy asks about waits until a person
 * decides or the approval timeout passes.
 */
@Command(name = "claude", mixinStandardHelpOptions = true,
        description = "Claude Code PreToolUse hook: reads the event on stdin, prints the decision (exit 0 allow,"
                + " 2 deny).")
public final class HookClaudeCommand implements Callable<Integer> {
    /** How long the broker may take: bounded by the approval timeout on its side. */
    static final Duration WAIT = Duration.ofDays(1);

    @ParentCommand
    HookCommand parent;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean allow = false;
        String reason;
        try {
            Answer a = decide(System.in, System.getenv());
            allow = a.allow();
            reason = a.reason();
        } catch (Throwable e) { // fail-closed: nothing may escape as another exit code
            reason = "Paddock hook failed, so the call is denied: " + e;
        }
        out.println(ClaudeHook.output(allow, reason));
        out.flush();
        if (!allow) {
            err.println(ClaudeHook.oneLine(reason));
            err.flush();
        }
        return ClaudeHook.exitCode(allow);
    }

    private record Answer(boolean allow, String reason) {
        static Answer deny(String reason) {
            return new Answer(false, reason);
        }
    }

    private Answer decide(InputStream stdin, Map<String, String> env) throws IOException {
        ClaudeHook.Call call;
        try {
            call = ClaudeHook.parse(new String(stdin.readAllBytes(), StandardCharsets.UTF_8));
        } catch (ApprovalException e) {
            return Answer.deny("Paddock hook: " + e.getMessage() + "; the call is denied");
        }
        Optional<ApiClient> client;
        try {
            client = client(env);
        } catch (PaddockException e) {
            return Answer.deny("Paddock hook: " + e.getMessage() + "; the call is denied");
        }
        if (client.isEmpty()) {
            return Answer.deny("Paddock hook: no running Paddock found (PADDOCK_API is not set and no Paddock runs"
                    + " for this home), so the call is denied");
        }
        ObjectNode body = Json.mapper().createObjectNode();
        String sandbox = blankToNull(env.get(HeartbeatCommand.SANDBOX));
        if (sandbox != null) {
            body.put("sandboxId", sandbox);
        }
        body.put("tool", call.tool());
        body.set("input", call.toolInput());
        if (call.cwd() != null) {
            body.put("cwd", call.cwd().toString());
        }
        if (call.sessionId() != null) {
            body.put("sessionId", call.sessionId());
        }
        try {
            JsonNode answer = Json.mapper().readTree(client.get().send("POST", "/v1/decide", body.toString(), WAIT));
            boolean allow = "allow".equals(answer.path("decision").asText());
            String why = answer.path("reason").asText("");
            String rule = answer.path("rule").asText("");
            String text = "Paddock: " + why + (rule.isEmpty() || why.contains(rule) ? "" : " [" + rule + "]")
                    + (answer.has("approvalId") ? " (approval " + answer.get("approvalId").asText() + ")" : "");
            return new Answer(allow, text);
        } catch (ApiUnreachableException e) {
            return Answer.deny("Paddock hook: the broker cannot be reached (" + e.getMessage() + "), so the call is"
                    + " denied");
        } catch (ApiAnswerException e) {
            return Answer.deny("Paddock hook: the broker refused the request (" + e.getMessage() + "), so the call is"
                    + " denied");
        } catch (PaddockException e) {
            return Answer.deny("Paddock hook: " + e.getMessage() + "; the call is denied");
        }
    }

    /** The broker named by the environment, else the running Paddock of the home. */
    private Optional<ApiClient> client(Map<String, String> env) throws PaddockException {
        String api = blankToNull(env.get(HeartbeatCommand.API));
        String token = blankToNull(env.get(HeartbeatCommand.TOKEN));
        if (api != null) {
            if (token == null) {
                throw new PaddockException(HeartbeatCommand.API + " is set but " + HeartbeatCommand.TOKEN + " is not");
            }
            return Optional.of(ApiClient.of(api, token));
        }
        PaddockHome home = parent.root.resolveHome();
        return ApiClient.discover(home.instanceFile(), home.tokenFile());
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
