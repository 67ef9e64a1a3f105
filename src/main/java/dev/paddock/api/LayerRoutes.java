package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.PaddockException;
import dev.paddock.layer.LayerChange;
import dev.paddock.layer.LayerException;
import dev.paddock.layer.SharedLayers;
import dev.paddock.sandbox.SandboxLayout;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.sandbox.SandboxState;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared layer routes, over {@link SharedLayers} (Paddock's own token only: a shared layer's setup command runs
 * on the host, so no agent may set or start it):
 * <ul>
 *   <li>{@code GET /v1/layers?repo=/abs/path} → {@link SharedLayers.Status}</li>
 *   <li>{@code PUT /v1/layers} (body {@code {"repo", "folders": ["node_modules"], "setupCommand": "npm ci"}}) →
 *       the status after it</li>
 *   <li>{@code POST /v1/layers/refresh} (body {@code {"repo"}}) → the status after a new generation was built</li>
 *   <li>{@code GET /v1/layers/changes?sandbox=ID} → {@code {"sandbox", "namespace", "changes": [{"path", "kind"}]}} (only a namespace sandbox sees shared folders): what the
 *       sandbox changed in its shared folders</li>
 * </ul>
 * Errors: 400 a folder that cannot be shared, nothing to refresh, a failed build (its message); 403 another caller;
 * 404 no such sandbox or repository; 409 a refresh runs already.
 */
final class LayerRoutes {
    static final String PREFIX = "/v1/layers";
    static final String REFRESH = PREFIX + "/refresh";
    static final String CHANGES = PREFIX + "/changes";

    private final SharedLayers layers;
    private final SandboxService sandboxes;

    LayerRoutes(SharedLayers layers, SandboxService sandboxes) {
        this.layers = layers;
        this.sandboxes = sandboxes;
    }

    static boolean matches(String path) {
        return path.equals(PREFIX) || path.equals(REFRESH) || path.equals(CHANGES);
    }

    /** Whether the request builds a layer (minutes: its own thread). */
    static boolean isSlow(String method, String path) {
        return method.equals("POST") && path.equals(REFRESH);
    }

    void handle(HttpExchange ex, Caller caller) throws ApiError, IOException {
        if (!caller.isInstall()) {
            throw ApiError.forbidden("only Paddock's own token may read or change shared layers");
        }
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        try {
            if (path.equals(PREFIX) && method.equals("GET")) {
                HttpIo.json(ex, 200, layers.status(repo(HttpIo.query(ex, "repo"))));
            } else if (path.equals(PREFIX) && method.equals("PUT")) {
                ConfigRequest req = HttpIo.body(ex, ConfigRequest.class);
                if (req == null || req.folders() == null) {
                    throw ApiError.badRequest(
                            "send {\"repo\": \"/abs/path\", \"folders\": [\"node_modules\"], \"setupCommand\": \"npm ci\"}");
                }
                HttpIo.json(ex, 200, layers.configure(repo(req.repo()), req.folders(), req.setupCommand()));
            } else if (path.equals(REFRESH) && method.equals("POST")) {
                ConfigRequest req = HttpIo.body(ex, ConfigRequest.class);
                HttpIo.json(ex, 200, layers.refresh(repo(req == null ? null : req.repo()), step -> {}));
            } else if (path.equals(CHANGES) && method.equals("GET")) {
                HttpIo.json(ex, 200, changes(HttpIo.query(ex, "sandbox")));
            } else {
                throw new ApiError(405, "method " + method + " is not allowed on " + path);
            }
        } catch (LayerException e) {
            throw new ApiError(e.getMessage().contains("runs already") ? 409 : 400, e.getMessage());
        } catch (PaddockException e) {
            throw SandboxRoutes.map(e, 400);
        }
    }

    private Map<String, Object> changes(String id) throws PaddockException, ApiError {
        if (id == null || id.isBlank()) {
            throw ApiError.badRequest("sandbox is missing: GET " + CHANGES + "?sandbox=ID");
        }
        SandboxRecord s = sandboxes.find(id);
        SandboxLayout l = sandboxes.layout(id);
        Long pid = s.state() == SandboxState.RUNNING && s.runRef() != null
                ? s.runRef().pid()
                : null;
        List<LayerChange> changes = layers.changes(s.repositoryId(), l.mainWorktree(), l.sandboxDir(), pid);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sandbox", id);
        body.put("namespace", s.spec().tier() == dev.paddock.sandbox.Tier.NAMESPACE);
        body.put("changes", changes);
        return body;
    }

    private static java.nio.file.Path repo(String repo) throws ApiError {
        if (repo == null || repo.isBlank()) {
            throw ApiError.badRequest("repo is missing: give the repository's absolute path");
        }
        return HttpIo.repoPath(repo);
    }

    /** Body of {@code PUT /v1/layers} and {@code POST /v1/layers/refresh}. */
    record ConfigRequest(String repo, List<String> folders, String setupCommand) {}
}
