package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.agent.TurnHook;
import dev.paddock.agent.TurnSignal;
import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.AgentSignal;
import dev.paddock.sandbox.AgentTurns;
import dev.paddock.sandbox.SandboxService;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code POST /v1/hooks/claude/turn?sandbox=ID}: Claude Code's Stop or Notification hook input, as the turn hook
 * ({@link TurnHook}) sends it. Recognised like {@code /v1/hooks/claude}: the request is signed with the sandbox's
 * hook key ({@link HookAuth}, checked by {@link Gate} before any route sees it), or carries a token. The body is
 * read with {@link TurnSignal#parse}; the sandbox is then waiting for you (the same signal read from the turn file
 * counts once).
 *
 * <p>Answers: {@code 204} taken (or taken already); {@code 400} a body that is not a Stop or Notification hook
 * input, or no sandbox named with the install's key; {@code 403} another sandbox than the key's or token's;
 * {@code 404} no such sandbox; {@code 409} a sandbox whose agent cannot be waiting now (it is in the merge queue,
 * merged, removed, or a new run is about to start). Nothing is changed by a refused request.
 */
final class TurnRoutes {
    static final String ROUTE = TurnHook.ROUTE;

    private final SandboxService sandboxes;

    TurnRoutes(SandboxService sandboxes) {
        this.sandboxes = sandboxes;
    }

    /** Whether {@code path} is this route. */
    static boolean matches(String path) {
        return path.equals(ROUTE);
    }

    /** Whether a sandbox's key or token may send this request (its own sandbox's; the route checks the id). */
    static boolean sandboxMay(String method, String path) {
        return method.equals("POST") && matches(path);
    }

    /** Answers one request on {@link #ROUTE}. */
    void handle(HttpExchange ex, Caller caller) throws ApiError, IOException {
        if (!ex.getRequestMethod().equals("POST")) {
            throw new ApiError(405, "method " + ex.getRequestMethod() + " is not allowed on " + ROUTE + "; use POST");
        }
        String id = sandboxOf(caller, HttpIo.query(ex, "sandbox"));
        String payload;
        try (InputStream in = ex.getRequestBody()) {
            payload = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        TurnSignal t = TurnSignal.parse(payload)
                .orElseThrow(
                        () -> ApiError.badRequest(
                                "the body is not Claude Code's"
                                        + " Stop or Notification hook input (a JSON object whose hook_event_name is Stop or Notification)"));
        AgentSignal signal = new AgentSignal(
                t.kind() == TurnSignal.Kind.TURN_ENDED ? AgentSignal.Kind.TURN_ENDED : AgentSignal.Kind.WAITING,
                t.sessionId(),
                t.detail(),
                t.notificationType());
        AgentTurns.Outcome outcome;
        try {
            outcome = sandboxes.turnSignal(id, signal, payload);
        } catch (PaddockException e) {
            throw SandboxRoutes.map(e, 400);
        }
        if (outcome == AgentTurns.Outcome.NOT_NOW) {
            String state;
            try {
                state = sandboxes.find(id).state().id();
            } catch (PaddockException e) {
                throw SandboxRoutes.map(e, 400);
            }
            throw ApiError.conflict(
                    id + " is " + state + ": its agent cannot be waiting for you now; the signal is" + " not recorded");
        }
        ex.sendResponseHeaders(204, -1);
    }

    /** The sandbox a request is for: a sandbox's key or token names its own; the install's names one. */
    private static String sandboxOf(Caller caller, String asked) throws ApiError {
        String named = asked == null || asked.isBlank() ? null : asked.strip();
        if (!caller.isInstall()) {
            if (named != null && !named.equals(caller.sandboxId())) {
                throw ApiError.forbidden(
                        "this key belongs to sandbox " + caller.sandboxId() + "; it cannot speak for " + named);
            }
            return caller.sandboxId();
        }
        if (named == null) {
            throw ApiError.badRequest("name the sandbox: " + ROUTE + "?sandbox=ID");
        }
        return named;
    }
}
