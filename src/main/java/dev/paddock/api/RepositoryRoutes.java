package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.SandboxService;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A repository's settings for its sandboxes:
 * <ul>
 *   <li>{@code PUT /v1/repositories/container-image} ({@link ImageRequest}) → 200 {@code {"repo", "image"}}: sets
 *       the image a repository's container sandboxes are made from ({@code image} null or empty clears it); whether
 *       the engine has the image is checked when a sandbox is created.</li>
 *   <li>{@code PUT /v1/repositories/agent-flags} ({@link FlagsRequest}) → 200 {@code {"repo", "agent", "flags"}}:
 *       the extra flags of an agent preset's command lines in the repository ({@code flags} null or empty clears
 *       them; a refused flag is 400, nothing changed); {@code GET /v1/repositories/agent-flags?repo=PATH} → 200
 *       {@code {"repo", "flags": {"claude": [...], ...}}}.</li>
 * </ul>
 * A PUT registers the repository if it is not yet.
 */
final class RepositoryRoutes {
    static final String CONTAINER_IMAGE = "/v1/repositories/container-image";
    static final String AGENT_FLAGS = "/v1/repositories/agent-flags";

    private final SandboxService sandboxes;

    RepositoryRoutes(SandboxService sandboxes) {
        this.sandboxes = sandboxes;
    }

    /** Whether {@code path} is one of these routes. */
    static boolean matches(String path) {
        return path.equals(CONTAINER_IMAGE) || path.equals(AGENT_FLAGS);
    }

    /**
     * Body of {@code PUT} {@link #AGENT_FLAGS}.
     *
     * @param repo absolute path of the repository (or of a folder inside it)
     * @param agent the preset ({@code claude}, {@code codex}, {@code gemini}, {@code aider})
     * @param flags the words, each one argument; null or empty clears them
     */
    record FlagsRequest(String repo, String agent, java.util.List<String> flags) {}

    /**
     * Body of the request.
     *
     * @param repo absolute path of the repository (or of a folder inside it)
     * @param image image reference such as {@code node:22}, or null to clear
     */
    record ImageRequest(String repo, String image) {}

    void handle(HttpExchange ex) throws ApiError, IOException {
        if (ex.getRequestURI().getPath().equals(AGENT_FLAGS)) {
            flags(ex);
            return;
        }
        if (!ex.getRequestMethod().equals("PUT")) {
            throw new ApiError(
                    405, "method " + ex.getRequestMethod() + " is not allowed on " + CONTAINER_IMAGE + "; use PUT");
        }
        ImageRequest req = HttpIo.body(ex, ImageRequest.class);
        if (req == null || req.repo() == null || req.repo().isBlank()) {
            throw ApiError.badRequest("repo is missing: send {\"repo\": \"/abs/path\", \"image\": \"name:tag\"}");
        }
        Path path = absolute(req.repo());
        try {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("repo", sandboxes.setContainerImage(path, req.image()).toString());
            body.put(
                    "image",
                    req.image() == null || req.image().isBlank()
                            ? null
                            : req.image().strip());
            HttpIo.json(ex, 200, body);
        } catch (PaddockException e) {
            throw SandboxRoutes.map(e, 400);
        }
    }

    private void flags(HttpExchange ex) throws ApiError, IOException {
        String method = ex.getRequestMethod();
        try {
            if (method.equals("GET")) {
                String repo = HttpIo.query(ex, "repo");
                if (repo == null || repo.isBlank()) {
                    throw ApiError.badRequest("repo is missing: GET " + AGENT_FLAGS + "?repo=/abs/path");
                }
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("repo", repo);
                body.put("flags", sandboxes.agentFlags(absolute(repo)));
                HttpIo.json(ex, 200, body);
                return;
            }
            if (!method.equals("PUT")) {
                throw new ApiError(405, "method " + method + " is not allowed on " + AGENT_FLAGS + "; use GET or PUT");
            }
            FlagsRequest req = HttpIo.body(ex, FlagsRequest.class);
            if (req == null
                    || req.repo() == null
                    || req.repo().isBlank()
                    || req.agent() == null
                    || req.agent().isBlank()) {
                throw ApiError.badRequest("send {\"repo\": \"/abs/path\", \"agent\": \"claude\", \"flags\":"
                        + " [\"--max-turns\", \"30\"]}");
            }
            java.util.List<String> flags = req.flags() == null ? java.util.List.of() : req.flags();
            String main = sandboxes
                    .setAgentFlags(absolute(req.repo()), req.agent(), flags)
                    .toString();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("repo", main);
            body.put("agent", req.agent().strip().toLowerCase(java.util.Locale.ROOT));
            body.put("flags", flags);
            HttpIo.json(ex, 200, body);
        } catch (PaddockException e) {
            throw SandboxRoutes.map(e, 400);
        }
    }

    private static Path absolute(String repo) throws ApiError {
        return HttpIo.repoPath(repo);
    }
}
