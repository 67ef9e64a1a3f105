package dev.paddock.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The checkpoint routes ({@link CheckpointRoutes}) for the CLI and for agents ({@code paddock checkpoint}). */
public final class CheckpointClient {
    private final ApiClient api;

    public CheckpointClient(ApiClient api) {
        this.api = api;
    }

    /** {@code GET /v1/sandboxes/{id}/checkpoints}: oldest first. */
    public List<CheckpointView> list(String id) throws PaddockException {
        JsonNode n = read(api.get(path(id) + "/" + CheckpointRoutes.CHECKPOINTS), JsonNode.class);
        List<CheckpointView> out = new ArrayList<>();
        for (JsonNode c : n.path(CheckpointRoutes.CHECKPOINTS)) {
            out.add(Json.mapper().convertValue(c, CheckpointView.class));
        }
        return out;
    }

    /** {@code POST /v1/sandboxes/{id}/checkpoints}: takes one now. */
    public CheckpointView checkpoint(String id, String message, String by) throws PaddockException {
        Map<String, String> body = new HashMap<>();
        body.put("message", message);
        body.put("by", by);
        return read(
                api.send("POST", path(id) + "/" + CheckpointRoutes.CHECKPOINTS, write(body), ApiClient.SLOW_TIMEOUT),
                CheckpointView.class);
    }

    /**
     * {@code POST /v1/sandboxes/{id}/rollback}: stops the agent, checkpoints, restores checkpoint {@code to}, and with
     * {@code resetBranch} moves the branch back to the commit it named then.
     */
    public CheckpointView.RollbackView rollback(String id, int to, String by, boolean resetBranch)
            throws PaddockException {
        return read(
                api.send(
                        "POST",
                        path(id) + "/" + CheckpointRoutes.ROLLBACK,
                        write(Map.of("to", to, "by", by, "resetBranch", resetBranch)),
                        ApiClient.SLOW_TIMEOUT),
                CheckpointView.RollbackView.class);
    }

    private static String path(String id) {
        return SandboxRoutes.PREFIX + "/" + ApiClient.encode(id);
    }

    private static String write(Object body) throws PaddockException {
        try {
            return Json.mapper().writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new PaddockException("Cannot write the request: " + e.getOriginalMessage(), e);
        }
    }

    private static <T> T read(String body, Class<T> type) throws PaddockException {
        try {
            return Json.mapper().readValue(body, type);
        } catch (JsonProcessingException e) {
            throw new PaddockException("The running Paddock gave an unexpected answer: " + e.getOriginalMessage(), e);
        }
    }
}
