package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.SandboxService;

/**
 * Who may make a request: the install token (the {@code api-token} file) may make any; a sandbox's own
 * token ({@code PADDOCK_TOKEN}) only {@code POST /v1/sandboxes/{its id}/heartbeat} and its agent's
 * decisions ({@code POST /v1/decide}, {@code POST /v1/hooks/claude}; the routes themselves check the id);
 * anything else is refused.
 */
final class Gate {
    private final ApiToken token;
    private final SandboxService sandboxes;

    Gate(ApiToken token, SandboxService sandboxes) {
        this.token = token;
        this.sandboxes = sandboxes;
    }

    /**
     * The caller of a request, once it may make it: a sandbox's token is good for its heartbeats and
     * decisions only.
     *
     * @throws ApiError 401 without a known token, 403 for a sandbox's token on any other route
     */
    Caller admit(HttpExchange ex) throws ApiError {
        Caller caller = authenticate(ex);
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        if (!caller.isInstall() && SandboxRoutes.heartbeatTarget(method, path) == null
                && !ApprovalRoutes.sandboxMay(method, path)) {
            throw ApiError.forbidden("a sandbox's token may only send that sandbox's heartbeats"
                    + " (POST /v1/sandboxes/" + caller.sandboxId() + "/heartbeat) and ask for its agent's decisions"
                    + " (POST /v1/decide, POST /v1/hooks/claude)");
        }
        return caller;
    }

    /**
     * The caller of a request: the install token, or a sandbox's own token.
     *
     * @throws ApiError 401 when there is no bearer token or it is neither
     */
    private Caller authenticate(HttpExchange ex) throws ApiError {
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        String presented = auth != null && auth.startsWith("Bearer ") ? auth.substring(7).strip() : null;
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
}
