package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.PaddockException;
import dev.paddock.merge.MergeException;
import dev.paddock.review.ChangeRequests;
import dev.paddock.review.CommentNotFoundException;
import dev.paddock.review.ReviewComment;
import dev.paddock.review.ReviewService;
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code /v1/reviews/{sandbox id}} routes, over {@link ReviewService} (docs/decisions/0022-review-gate.md):
 * <ul>
 *   <li>{@code GET .../comments} → {@code {"comments": [ReviewComment...]}}, oldest first</li>
 *   <li>{@code POST .../comments} ({@link CommentRequest}) → 201 {@link ReviewComment}</li>
 *   <li>{@code DELETE .../comments/{comment id}[?by=who]} → {@code {"ok": true}} (409 once sent)</li>
 *   <li>{@code POST .../approve} (body {@code {"by"}}, optional) → {@code {"sandbox", "entry": MergeView}}</li>
 *   <li>{@code POST .../reject} and {@code POST .../request-changes} (body {@link DecisionRequest}, optional) →
 *       {@link SandboxView}, or for a request for changes {@code {"sandbox", "round", "comments", "file",
 *       "followUp"}}</li>
 * </ul>
 * Errors: 400 bad input (an empty comment, no comment to send), 404 no such sandbox or comment, 405 wrong method,
 * 409 the sandbox's state refuses it.
 */
final class ReviewRoutes {
    static final String PREFIX = "/v1/reviews";

    private final ReviewService reviews;

    ReviewRoutes(ReviewService reviews) {
        this.reviews = reviews;
    }

    /** Whether {@code path} is one of these routes. */
    static boolean matches(String path) {
        return path.startsWith(PREFIX + "/");
    }

    /** Whether the request may take seconds: a decision (git, the merge queue, a removal). */
    static boolean isSlow(String method, String path) {
        if (!matches(path)) {
            return false; // paths shorter than the prefix too (/v1/health): segments would not cut them
        }
        List<String> seg = segments(path);
        return method.equals("POST") && seg.size() == 2 && !seg.get(1).equals("comments");
    }

    private static List<String> segments(String path) {
        return Arrays.stream(path.substring(PREFIX.length()).split("/"))
                .filter(s -> !s.isEmpty())
                .toList();
    }

    /** Answers one request under {@link #PREFIX}. */
    void handle(HttpExchange ex) throws ApiError, IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        List<String> seg = segments(path);
        try {
            if (seg.size() == 2 && seg.get(1).equals("comments")) {
                switch (method) {
                    case "GET" -> HttpIo.json(ex, 200, Map.of("comments", reviews.comments(seg.get(0))));
                    case "POST" -> comment(ex, seg.get(0));
                    default -> throw notAllowed(method, path, "GET or POST");
                }
            } else if (seg.size() == 3 && seg.get(1).equals("comments")) {
                if (!method.equals("DELETE")) {
                    throw notAllowed(method, path, "DELETE");
                }
                reviews.deleteComment(seg.get(0), commentId(seg.get(2)), who(HttpIo.query(ex, "by")));
                HttpIo.json(ex, 200, Map.of("ok", true));
            } else if (seg.size() == 2) {
                decision(ex, method, path, seg.get(0), seg.get(1));
            } else {
                throw ApiError.notFound("no route " + method + " " + path);
            }
        } catch (PaddockException e) {
            throw map(e);
        }
    }

    private void decision(HttpExchange ex, String method, String path, String id, String action)
            throws ApiError, IOException, PaddockException {
        if (!List.of("approve", "reject", "request-changes").contains(action)) {
            throw ApiError.notFound("no route " + method + " " + path);
        }
        if (!method.equals("POST")) {
            throw notAllowed(method, path, "POST");
        }
        DecisionRequest req = HttpIo.body(ex, DecisionRequest.class);
        String by = who(req == null ? null : req.by());
        String comment = req == null ? null : req.comment();
        switch (action) {
            case "approve" -> {
                dev.paddock.review.ReviewService.Approval a = reviews.approve(id, by);
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("sandbox", id);
                body.put("entry", a.entry() == null ? null : MergeView.of(a.entry(), null, Instant.now()));
                body.put("message", a.message());
                HttpIo.json(ex, 200, body);
            }
            case "reject" -> HttpIo.json(ex, 200, SandboxView.of(reviews.reject(id, comment, by)));
            default -> {
                ChangeRequests.Sent sent = reviews.requestChanges(id, comment, by);
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("sandbox", SandboxView.of(sent.sandbox()));
                body.put("round", sent.round());
                body.put("comments", sent.comments());
                body.put("file", sent.file().toString());
                body.put("followUp", sent.followUp());
                HttpIo.json(ex, 200, body);
            }
        }
    }

    private void comment(HttpExchange ex, String id) throws ApiError, IOException, PaddockException {
        CommentRequest req = HttpIo.body(ex, CommentRequest.class);
        if (req == null) {
            throw ApiError.badRequest("send {\"text\": \"the comment\"} (with \"file\" and \"line\" for a line)");
        }
        ReviewComment c = reviews.comment(id, req.file(), req.line(), req.side(), req.text(), who(req.by()));
        HttpIo.json(ex, 201, c);
    }

    private static long commentId(String s) throws ApiError {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw ApiError.notFound("no comment " + s);
        }
    }

    private static String who(String by) {
        return by == null || by.isBlank() ? SandboxRoutes.DEFAULT_WHO : by.strip();
    }

    private static ApiError map(PaddockException e) {
        if (e instanceof CommentNotFoundException) {
            return ApiError.notFound(e.getMessage());
        }
        if (e instanceof MergeException m) {
            return switch (m.kind()) {
                case NOT_FOUND -> ApiError.notFound(e.getMessage());
                case CONFLICT -> ApiError.conflict(e.getMessage());
                case BAD_REQUEST -> ApiError.badRequest(e.getMessage());
                case FAILED -> new ApiError(500, e.getMessage());
            };
        }
        return SandboxRoutes.map(e, 400);
    }

    private static ApiError notAllowed(String method, String path, String allowed) {
        return new ApiError(405, "method " + method + " is not allowed on " + path + "; use " + allowed);
    }

    /** Body of {@code POST .../comments}. */
    record CommentRequest(String file, Integer line, String side, String text, String by) {}

    /** Optional body of a decision: who decides (shown in the event) and a comment to go with it. */
    record DecisionRequest(String by, String comment) {}
}
