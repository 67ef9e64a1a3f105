package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.checkpoint.CheckpointNotFoundException;
import dev.paddock.checkpoint.CheckpointService;
import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The checkpoint routes, over {@link CheckpointService}:
 * <ul>
 *   <li>{@code GET /v1/sandboxes/{id}/checkpoints} → {@code {"checkpoints": [CheckpointView...]}}, oldest first</li>
 *   <li>{@code POST /v1/sandboxes/{id}/checkpoints} (body {@code {"message": "...", "by": "who"}}, optional) → 201
 *       {@link CheckpointView}; a sandbox's own token may take its own sandbox's checkpoints</li>
 *   <li>{@code POST /v1/sandboxes/{id}/rollback} (body {@code {"to": N, "by": "who", "resetBranch": false}}) →
 *       {@link CheckpointView.RollbackView}: stops the agent, checkpoints, restores checkpoint N</li>
 * </ul>
 * Errors: 400 bad input, 404 no such sandbox or checkpoint, 405 wrong method, 409 the sandbox's state refuses it.
 */
final class CheckpointRoutes {
    static final String CHECKPOINTS = "checkpoints";
    static final String ROLLBACK = "rollback";

    private final CheckpointService checkpoints;

    CheckpointRoutes(CheckpointService checkpoints) {
        this.checkpoints = checkpoints;
    }

    /** Whether {@code path} is one of these routes. */
    static boolean matches(String path) {
        List<String> seg = segments(path);
        return seg.size() == 2 && (seg.get(1).equals(CHECKPOINTS) || seg.get(1).equals(ROLLBACK));
    }

    /** Whether the request runs git on a whole worktree (install callers get a thread of their own). */
    static boolean isSlow(String method, String path) {
        return matches(path) && method.equals("POST");
    }

    /** The sandbox id of {@code POST /v1/sandboxes/{id}/checkpoints}, or null for any other request. */
    static String checkpointTarget(String method, String path) {
        List<String> seg = segments(path);
        return method.equals("POST") && seg.size() == 2 && seg.get(1).equals(CHECKPOINTS) ? seg.get(0) : null;
    }

    private static List<String> segments(String path) {
        if (!path.startsWith(SandboxRoutes.PREFIX + "/")) {
            return List.of();
        }
        return Arrays.stream(path.substring(SandboxRoutes.PREFIX.length()).split("/"))
                .filter(s -> !s.isEmpty())
                .toList();
    }

    void handle(HttpExchange ex, Caller caller) throws ApiError, IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        List<String> seg = segments(path);
        String id = seg.get(0);
        try {
            if (seg.get(1).equals(ROLLBACK)) {
                if (!method.equals("POST")) {
                    throw new ApiError(405, "method " + method + " is not allowed on " + path + "; use POST");
                }
                RollbackRequest req = HttpIo.body(ex, RollbackRequest.class);
                if (req == null || req.to() == null || req.to() < 1) {
                    throw ApiError.badRequest("say which checkpoint to roll back to: {\"to\": N} with N from 1");
                }
                HttpIo.json(
                        ex,
                        200,
                        CheckpointView.RollbackView.of(checkpoints.rollback(
                                id, req.to(), who(req.by()), Boolean.TRUE.equals(req.resetBranch()))));
            } else if (method.equals("GET")) {
                HttpIo.json(
                        ex,
                        200,
                        Map.of(
                                CHECKPOINTS,
                                checkpoints.list(id).stream()
                                        .map(CheckpointView::of)
                                        .toList()));
            } else if (method.equals("POST")) {
                if (!caller.isInstall() && !id.equals(caller.sandboxId())) {
                    throw ApiError.forbidden("this token belongs to sandbox " + caller.sandboxId()
                            + "; it cannot take checkpoints of " + id);
                }
                CheckpointRequest req = HttpIo.body(ex, CheckpointRequest.class);
                String by = caller.isInstall() ? who(req == null ? null : req.by()) : "the agent of " + id;
                HttpIo.json(
                        ex,
                        201,
                        CheckpointView.of(checkpoints.checkpoint(id, req == null ? null : req.message(), null, by)));
            } else {
                throw new ApiError(405, "method " + method + " is not allowed on " + path + "; use GET or POST");
            }
        } catch (CheckpointNotFoundException e) {
            throw ApiError.notFound(e.getMessage());
        } catch (PaddockException e) {
            throw SandboxRoutes.map(e, 400);
        }
    }

    private static String who(String by) {
        return by == null || by.isBlank() ? SandboxRoutes.DEFAULT_WHO : by.strip();
    }

    /** Body of {@code POST .../checkpoints}. */
    record CheckpointRequest(String message, String by) {}

    /** Body of {@code POST .../rollback}. */
    record RollbackRequest(Integer to, String by, Boolean resetBranch) {}
}
