package dev.paddock.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The settings routes of Paddock's API as Java calls (see {@link SettingsRoutes}). Every call throws
 * {@link ApiUnreachableException} when nothing answers and {@link ApiAnswerException} with the API's message
 * (and status: 400 bad value, 404 unknown setting) when it refuses.
 */
public final class SettingsClient {
    private final ApiClient api;

    /** Settings calls over {@code api} (the install token's client: sandbox tokens get 403 here). */
    public SettingsClient(ApiClient api) {
        this.api = api;
    }

    /** {@code GET /v1/settings}: every known setting with its value, by name. */
    public List<SettingView> list() throws PaddockException {
        JsonNode settings = read(api.get(SettingsRoutes.PREFIX), JsonNode.class).path("settings");
        List<SettingView> out = new ArrayList<>();
        for (JsonNode n : settings) {
            out.add(convert(n));
        }
        return out;
    }

    /** {@code GET /v1/settings/{name}}. */
    public SettingView get(String name) throws PaddockException {
        return read(api.get(path(name)), SettingView.class);
    }

    /** {@code PUT /v1/settings/{name}}: the setting with its new value. */
    public SettingView set(String name, String value, String by) throws PaddockException {
        return read(api.send("PUT", path(name), write(Map.of("value", value, "by", by))), SettingView.class);
    }

    /** {@code DELETE /v1/settings/{name}}: the setting back at its default. */
    public SettingView reset(String name, String by) throws PaddockException {
        return read(api.send("DELETE", path(name) + "?by=" + ApiClient.encode(by), null), SettingView.class);
    }

    private static String path(String name) {
        return SettingsRoutes.PREFIX + "/" + ApiClient.encode(name);
    }

    private static String write(Object body) throws PaddockException {
        try {
            return Json.mapper().writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new PaddockException("Cannot write the request: " + e.getOriginalMessage(), e);
        }
    }

    private static SettingView convert(JsonNode n) throws PaddockException {
        try {
            return Json.mapper().treeToValue(n, SettingView.class);
        } catch (JsonProcessingException e) {
            throw new PaddockException("The running Paddock gave an unexpected answer: " + e.getOriginalMessage(), e);
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
