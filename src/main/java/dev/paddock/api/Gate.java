package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.PaddockException;
import dev.paddock.isolation.ApiRelays;
import dev.paddock.sandbox.SandboxService;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;

/**
 * Who may make a request: the install token (the {@code api-token} file) may make any; a sandbox's own
 * token ({@code PADDOCK_TOKEN}) only {@code POST /v1/sandboxes/{its id}/heartbeat}, {@code .../checkpoints} and its
 * agent's decisions ({@code POST /v1/decide}, {@code POST /v1/hooks/claude}) and its turn's end
 * ({@code POST /v1/hooks/claude/turn}; the routes themselves check the id); a hook key ({@link HookAuth}: the
 * install's or a sandbox's, never sent, only its MAC) only {@code POST /v1/hooks/claude} and
 * {@code POST /v1/hooks/claude/turn}; anything else is refused.
 */
final class Gate {
    private final ApiToken token;
    private final SandboxService sandboxes;
    private final ReplayGuard replays;
    /** The sandboxes' API sockets, whose relayed connections count for their sandbox alone; null: none. */
    private volatile ApiRelays relays;

    Gate(ApiToken token, SandboxService sandboxes, Clock clock) {
        this.token = token;
        this.sandboxes = sandboxes;
        this.replays = new ReplayGuard(clock);
    }

    /** Knows the connections relayed from sandboxes' API sockets from now on. */
    void relays(ApiRelays r) {
        this.relays = r;
    }

    /**
     * The sandbox whose API socket ({@link ApiRelays}) the request came through, or null for a request made on the
     * host's loopback.
     */
    String relayed(HttpExchange ex) {
        ApiRelays r = relays;
        return r == null ? null : r.sandboxOfPeer(ex.getRemoteAddress()).orElse(null);
    }

    /**
     * Refuses a request through sandbox {@code relayed}'s socket by anyone but that sandbox: not the install's
     * token or key, not another sandbox's (an agent that learnt them still speaks only for its own sandbox there).
     *
     * @throws ApiError 403
     */
    static void throughOwnSocket(Caller caller, String relayed) throws ApiError {
        if (relayed != null && !relayed.equals(caller.sandboxId())) {
            throw ApiError.forbidden(
                    "a request through the API socket of sandbox " + relayed + " may only speak for that sandbox");
        }
    }

    /** Whether the request is to be recognised by its hook MAC (which needs its body) rather than a token. */
    static boolean usesHookKey(HttpExchange ex) {
        return ex.getRequestHeaders().containsKey(HookAuth.AUTH_HEADER);
    }

    /**
     * The caller of a request by its bearer token: the install token, or a sandbox's own token. Reads headers
     * only, so a request without a good token is refused before its body is read.
     *
     * @throws ApiError 401 when there is no bearer token or it is neither
     */
    Caller bearer(HttpExchange ex) throws ApiError {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        String presented =
                auth != null && auth.startsWith("Bearer ") ? auth.substring(7).strip() : null;
        if (presented == null) {
            throw new ApiError(401, "missing bearer token");
        }
        if (token.matches(presented)) {
            return Caller.INSTALL;
        }
        try {
            // By the token's hash (the store keeps no token); recent ones are remembered by the store.
            String id = sandboxes.sandboxOfToken(presented).orElseThrow(() -> new ApiError(401, "invalid token"));
            return Caller.sandbox(id);
        } catch (PaddockException e) {
            throw new ApiError(500, e.getMessage());
        }
    }

    /**
     * The caller of a request by its {@code Paddock-Auth} MAC over {@code body}, once: the same request is not
     * taken twice. On success every answer to it carries the broker's {@code Paddock-Proof}; a request that
     * fails gets none, so the broker proves nothing to whoever does not hold the key.
     *
     * @throws ApiError 401 when the header is malformed, the MAC is wrong (for this server's own address), or the
     *     request is stale or replayed
     */
    Caller hookKey(HttpExchange ex, byte[] body) throws ApiError {
        return hookKey(ex, body, null);
    }

    /**
     * {@link #hookKey(HttpExchange, byte[])} for a request relayed from sandbox {@code relayed}'s socket (null: made
     * on the loopback): the address signed is then {@link HookAuth#SOCKET_ADDRESS}, and the key must be that
     * sandbox's.
     */
    Caller hookKey(HttpExchange ex, byte[] body, String relayed) throws ApiError {
        HookAuth.Presented p;
        try {
            p = HookAuth.parse(ex.getRequestHeaders().getFirst(HookAuth.AUTH_HEADER));
        } catch (IllegalArgumentException e) {
            throw new ApiError(401, e.getMessage(), "bad_hook_auth");
        }
        String sandbox = p.sandboxId();
        if (relayed != null && !relayed.equals(sandbox)) {
            throw ApiError.forbidden(
                    "a request through the API socket of sandbox " + relayed + " may only use that sandbox's hook key");
        }
        String key = sandbox == null ? token.value() : HookAuth.sandboxKey(token.value(), sandbox);
        String hostPort = relayed != null ? HookAuth.SOCKET_ADDRESS : hostPort(ex.getLocalAddress());
        URI uri = ex.getRequestURI();
        String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        String expected =
                HookAuth.requestMac(key, p.keyId(), p.ts(), p.nonce(), hostPort, ex.getRequestMethod(), target, body);
        if (!HookAuth.same(expected, p.mac())) {
            throw new ApiError(
                    401,
                    "the hook's MAC does not match: wrong key, or sent to another address than " + hostPort,
                    "bad_hook_auth");
        }
        replays.accept(p.keyId(), p.ts(), p.nonce());
        ex.getResponseHeaders().set(HookAuth.PROOF_HEADER, HookAuth.answerProof(key, p.keyId(), p.nonce(), hostPort));
        return new Caller(sandbox, true);
    }

    /**
     * Refuses what the caller may not do: a sandbox's token is good for its heartbeats and decisions only, a
     * hook key for the hook route only.
     *
     * @throws ApiError 403
     */
    void permit(Caller caller, String method, String path) throws ApiError {
        if (caller.viaHookKey()) {
            if (!(method.equals("POST") && path.equals(ApprovalRoutes.HOOK)) && !TurnRoutes.sandboxMay(method, path)) {
                throw ApiError.forbidden("a hook key may only ask for decisions through POST " + ApprovalRoutes.HOOK
                        + " and tell a turn's end through POST " + TurnRoutes.ROUTE);
            }
            return;
        }
        if (!caller.isInstall()
                && SandboxRoutes.heartbeatTarget(method, path) == null
                && CheckpointRoutes.checkpointTarget(method, path) == null
                && !ApprovalRoutes.sandboxMay(method, path)
                && !TurnRoutes.sandboxMay(method, path)) {
            throw ApiError.forbidden("a sandbox's token may only send that sandbox's heartbeats"
                    + " (POST /v1/sandboxes/" + caller.sandboxId() + "/heartbeat), take its checkpoints (POST"
                    + " /v1/sandboxes/" + caller.sandboxId() + "/checkpoints), ask for its agent's decisions"
                    + " (POST /v1/decide, POST /v1/hooks/claude) and tell its turn's end (POST " + TurnRoutes.ROUTE
                    + ")");
        }
    }

    /** {@code 127.0.0.1:41234}: the address a request reached, as the hook names what it dialled. */
    static String hostPort(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }
}
