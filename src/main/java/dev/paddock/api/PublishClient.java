package dev.paddock.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import java.util.HashMap;
import java.util.Map;

/** The publish routes ({@link PublishRoutes}) for the CLI: {@code paddock sandbox push|pr}. */
public final class PublishClient {
    /** How long the CLI waits: a push and gh may each take minutes ({@code BranchPush.TIMEOUT}, {@code GhCli}). */
    static final java.time.Duration TIMEOUT = java.time.Duration.ofMinutes(8);

    private final ApiClient api;

    public PublishClient(ApiClient api) {
        this.api = api;
    }

    /** {@code POST /v1/sandboxes/{id}/push}: {@code remote} null for origin or the only remote. */
    public PublishView push(String id, String remote, String by) throws PaddockException {
        return post(id, PublishRoutes.PUSH, remote, null, by);
    }

    /** {@code POST /v1/sandboxes/{id}/pull-request}: pushes, then opens the pull request with gh. */
    public PublishView pullRequest(String id, String remote, boolean draft, String by) throws PaddockException {
        return post(id, PublishRoutes.PULL_REQUEST, remote, draft, by);
    }

    private PublishView post(String id, String action, String remote, Boolean draft, String by)
            throws PaddockException {
        Map<String, Object> body = new HashMap<>();
        body.put("remote", remote);
        body.put("draft", draft);
        body.put("by", by);
        try {
            String answer = api.send(
                    "POST",
                    SandboxRoutes.PREFIX + "/" + ApiClient.encode(id) + "/" + action,
                    Json.mapper().writeValueAsString(body),
                    TIMEOUT);
            return Json.mapper().readValue(answer, PublishView.class);
        } catch (JsonProcessingException e) {
            throw new PaddockException("The running Paddock gave an unexpected answer: " + e.getOriginalMessage(), e);
        }
    }
}
