package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.PaddockException;
import dev.paddock.publish.PublishException;
import dev.paddock.publish.PublishService;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The publish routes, over {@link PublishService} (the install token only: an agent never pushes through Paddock):
 * <ul>
 *   <li>{@code POST /v1/sandboxes/{id}/push} (body {@code {"remote": "origin", "by": "who"}}, optional) →
 *       {@link PublishView}: the branch pushed as it is (uncommitted files counted, not pushed)</li>
 *   <li>{@code POST /v1/sandboxes/{id}/pull-request} (body {@code {"remote", "draft": true, "by"}}, optional) →
 *       {@link PublishView} with the pull request's URL: pushed, then {@code gh pr create}</li>
 * </ul>
 * Errors: 400 no remote, an unknown one, no branch; 404 no such sandbox; 409 gh missing or not signed in (the
 * message says what to do); 502 git or gh failed (their message, credentials taken out).
 */
final class PublishRoutes {
    static final String PUSH = "push";
    static final String PULL_REQUEST = "pull-request";

    private final PublishService publish;

    PublishRoutes(PublishService publish) {
        this.publish = publish;
    }

    /** Whether {@code path} is one of these routes. */
    static boolean matches(String path) {
        List<String> seg = segments(path);
        return seg.size() == 2 && (seg.get(1).equals(PUSH) || seg.get(1).equals(PULL_REQUEST));
    }

    /** Whether the request runs git or gh over the network (install callers get a thread of their own). */
    static boolean isSlow(String method, String path) {
        return matches(path) && method.equals("POST");
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
        if (!method.equals("POST")) {
            throw new ApiError(405, "method " + method + " is not allowed on " + path + "; use POST");
        }
        if (!caller.isInstall()) {
            throw ApiError.forbidden("only Paddock's own token may push or open pull requests");
        }
        List<String> seg = segments(path);
        PublishRequest req = HttpIo.body(ex, PublishRequest.class);
        String remote = req == null ? null : req.remote();
        String by = req == null || req.by() == null || req.by().isBlank() ? SandboxRoutes.DEFAULT_WHO : req.by();
        try {
            if (seg.get(1).equals(PUSH)) {
                HttpIo.json(ex, 200, PublishView.of(publish.push(seg.get(0), remote, by)));
            } else {
                boolean draft = req != null && Boolean.TRUE.equals(req.draft());
                HttpIo.json(ex, 200, PublishView.of(publish.pullRequest(seg.get(0), remote, draft, by)));
            }
        } catch (PublishException e) {
            throw new ApiError(
                    switch (e.kind()) {
                        case BAD_REQUEST -> 400;
                        case UNAVAILABLE -> 409;
                        case FAILED -> 502;
                    },
                    e.getMessage());
        } catch (PaddockException e) {
            throw SandboxRoutes.map(e, 400);
        }
    }

    /** Optional body of both routes. */
    record PublishRequest(String remote, Boolean draft, String by) {}
}
