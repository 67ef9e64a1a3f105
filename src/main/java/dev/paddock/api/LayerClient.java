package dev.paddock.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.layer.LayerChange;
import dev.paddock.layer.SharedLayers;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The shared layer routes ({@link LayerRoutes}) for the CLI: {@code paddock layers}. */
public final class LayerClient {
    /** How long the CLI waits for a refresh: its setup command may take up to {@link SharedLayers#SETUP_TIMEOUT}. */
    static final java.time.Duration REFRESH_TIMEOUT = SharedLayers.SETUP_TIMEOUT.plusMinutes(2);

    private final ApiClient api;

    public LayerClient(ApiClient api) {
        this.api = api;
    }

    public SharedLayers.Status status(Path repo) throws PaddockException {
        return read(
                api.get(LayerRoutes.PREFIX + "?repo=" + ApiClient.encode(repo.toString())), SharedLayers.Status.class);
    }

    public SharedLayers.Status configure(Path repo, List<String> folders, String setupCommand) throws PaddockException {
        Map<String, Object> body = new HashMap<>();
        body.put("repo", repo.toString());
        body.put("folders", folders);
        body.put("setupCommand", setupCommand);
        return read(api.send("PUT", LayerRoutes.PREFIX, write(body)), SharedLayers.Status.class);
    }

    public SharedLayers.Status refresh(Path repo) throws PaddockException {
        return read(
                api.send("POST", LayerRoutes.REFRESH, write(Map.of("repo", repo.toString())), REFRESH_TIMEOUT),
                SharedLayers.Status.class);
    }

    /** What the sandbox changed in its shared folders, and whether it is a namespace sandbox (the only kind with them). */
    public Changes changes(String sandbox) throws PaddockException {
        return read(api.get(LayerRoutes.CHANGES + "?sandbox=" + ApiClient.encode(sandbox)), Changes.class);
    }

    /** The answer of {@code GET /v1/layers/changes}. */
    public record Changes(String sandbox, boolean namespace, List<LayerChange> changes) {}

    private static String write(Object body) throws PaddockException {
        try {
            return Json.mapper().writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new PaddockException("Cannot write the request: " + e.getOriginalMessage(), e);
        }
    }

    private static <T> T read(String answer, Class<T> type) throws PaddockException {
        try {
            return Json.mapper().readValue(answer, type);
        } catch (JsonProcessingException e) {
            throw new PaddockException("The running Paddock gave an unexpected answer: " + e.getOriginalMessage(), e);
        }
    }
}
