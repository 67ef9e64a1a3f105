package dev.paddock.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.review.ReviewComment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The review routes of Paddock's API as Java calls (see {@link ReviewRoutes}). Every call throws
 * {@link ApiUnreachableException} when nothing answers and {@link ApiAnswerException} with the API's message when
 * it refuses.
 */
public final class ReviewClient {
    /** What {@code POST .../request-changes} answers. */
    public record ChangesRequested(
            SandboxView sandbox, int round, List<ReviewComment> comments, String file, boolean followUp) {}

    /** What {@code POST .../approve} answers: the sandbox and its new merge queue entry. */
    /**
     * What an approval did.
     *
     * @param entry the merge queue's entry, or null when the branch was pushed instead (merge target {@code push})
     * @param message what a person is told
     */
    public record Approved(String sandbox, MergeView entry, String message) {}

    private final ApiClient api;

    public ReviewClient(ApiClient api) {
        this.api = api;
    }

    /** {@code POST .../comments}: a comment; {@code file}, {@code line} and {@code side} may be null. */
    public ReviewComment comment(String id, String file, Integer line, String side, String text, String by)
            throws PaddockException {
        Map<String, Object> body = new HashMap<>();
        body.put("file", file);
        body.put("line", line);
        body.put("side", side);
        body.put("text", text);
        body.put("by", by);
        return read(
                api.send("POST", path(id) + "/comments", write(body)),
                Json.mapper().constructType(ReviewComment.class));
    }

    /** {@code GET .../comments}: the sandbox's comments, oldest first. */
    public List<ReviewComment> comments(String id) throws PaddockException {
        JavaType type = Json.mapper()
                .getTypeFactory()
                .constructMapType(
                        Map.class,
                        Json.mapper().constructType(String.class),
                        Json.mapper().getTypeFactory().constructCollectionType(List.class, ReviewComment.class));
        Map<String, List<ReviewComment>> answer = read(api.get(path(id) + "/comments"), type);
        return answer.getOrDefault("comments", List.of());
    }

    /** {@code DELETE .../comments/{comment}}: deletes a comment not yet sent. */
    public void deleteComment(String id, long comment, String by) throws PaddockException {
        api.send("DELETE", path(id) + "/comments/" + comment + "?by=" + ApiClient.encode(by), null);
    }

    /** {@code POST .../approve}: the branch enters the merge queue. */
    public Approved approve(String id, String by) throws PaddockException {
        return read(
                api.send("POST", path(id) + "/approve", write(Map.of("by", by)), ApiClient.SLOW_TIMEOUT),
                Json.mapper().constructType(Approved.class));
    }

    /** {@code POST .../reject}: the sandbox is removed, its branch kept. */
    public SandboxView reject(String id, String comment, String by) throws PaddockException {
        return read(
                api.send("POST", path(id) + "/reject", write(decision(comment, by)), ApiClient.SLOW_TIMEOUT),
                Json.mapper().constructType(SandboxView.class));
    }

    /** {@code POST .../request-changes}: the unsent comments go to the agent, which runs again. */
    public ChangesRequested requestChanges(String id, String comment, String by) throws PaddockException {
        return read(
                api.send("POST", path(id) + "/request-changes", write(decision(comment, by)), ApiClient.SLOW_TIMEOUT),
                Json.mapper().constructType(ChangesRequested.class));
    }

    private static Map<String, Object> decision(String comment, String by) {
        Map<String, Object> body = new HashMap<>();
        body.put("by", by);
        body.put("comment", comment);
        return body;
    }

    private static String path(String id) {
        return ReviewRoutes.PREFIX + "/" + ApiClient.encode(id);
    }

    private static String write(Object body) throws PaddockException {
        try {
            return Json.mapper().writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new PaddockException("Cannot write the request: " + e.getOriginalMessage(), e);
        }
    }

    private static <T> T read(String body, JavaType type) throws PaddockException {
        try {
            return Json.mapper().readValue(body, type);
        } catch (JsonProcessingException e) {
            throw new PaddockException("The running Paddock gave an unexpected answer: " + e.getOriginalMessage(), e);
        }
    }
}
