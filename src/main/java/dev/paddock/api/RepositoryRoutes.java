package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.SandboxService;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code PUT /v1/repositories/container-image} ({@link ImageRequest}) → 200 {@code {"repo", "image"}}: sets
 * the image a repository's container sandboxes are made from ({@code image} null or empty clears it). The
 * repository is registered if it is not yet; whether the engine has the image is checked when a sandbox is
 * created.
 */
final class RepositoryRoutes {
    static final String CONTAINER_IMAGE = "/v1/repositories/container-image";

    private final SandboxService sandboxes;

    RepositoryRoutes(SandboxService sandboxes) {
        this.sandboxes = sandboxes;
    }

    /** Whether {@code path} is one of these routes. */
    static boolean matches(String path) {
        return path.equals(CONTAINER_IMAGE);
    }

    /**
     * Body of the request.
     *
     * @param repo absolute path of the repository (or of a folder inside it)
     * @param image image reference such as {@code node:22}, or null to clear
     */
    record ImageRequest(String repo, String image) {
    }

    void handle(HttpExchange ex) throws ApiError, IOException {
        if (!ex.getRequestMethod().equals("PUT")) {
            throw new ApiError(405, "method " + ex.getRequestMethod() + " is not allowed on " + CONTAINER_IMAGE
                    + "; use PUT");
        }
        ImageRequest req = HttpIo.body(ex, ImageRequest.class);
        if (req == null || req.repo() == null || req.repo().isBlank()) {
            throw ApiError.badRequest("repo is missing: send {\"repo\": \"/abs/path\", \"image\": \"name:tag\"}");
        }
        Path path;
        try {
            path = Path.of(req.repo());
        } catch (InvalidPathException e) {
            throw ApiError.badRequest("not a valid path: " + req.repo());
        }
        if (!path.isAbsolute()) {
            throw ApiError.badRequest("repo must be an absolute path: " + req.repo());
        }
        try {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("repo", sandboxes.setContainerImage(path, req.image()).toString());
            body.put("image", req.image() == null || req.image().isBlank() ? null : req.image().strip());
            HttpIo.json(ex, 200, body);
        } catch (PaddockException e) {
            throw SandboxRoutes.map(e, 400);
        }
    }
}
