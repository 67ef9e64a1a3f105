package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.InvalidSettingValueException;
import dev.paddock.settings.SettingsStore;
import dev.paddock.settings.UnknownSettingException;
import java.io.IOException;
import java.util.Map;

/**
 * The {@code /v1/settings} routes, over {@link SettingsStore}, for the install token only:
 * <ul>
 *   <li>{@code GET /v1/settings} → {@code {"settings": [SettingView...]}}, by name</li>
 *   <li>{@code GET /v1/settings/{name}} → {@link SettingView}</li>
 *   <li>{@code PUT /v1/settings/{name}} (body {@code {"value": "5", "by": "who"}}, {@code by} optional) →
 *       {@link SettingView} with the new value</li>
 *   <li>{@code DELETE /v1/settings/{name}[?by=who]} → {@link SettingView} back at its default</li>
 * </ul>
 * Errors: 400 a value the setting does not take (nothing changed), 404 no such setting (the message lists
 * the known ones), 405 wrong method, 500 the store failed. Each change is an event in the feed.
 */
final class SettingsRoutes {
    static final String PREFIX = "/v1/settings";

    private final SettingsStore settings;

    SettingsRoutes(SettingsStore settings) {
        this.settings = settings;
    }

    /** Whether {@code path} is one of these routes. */
    static boolean matches(String path) {
        return path.equals(PREFIX) || path.startsWith(PREFIX + "/");
    }

    /** Answers one request under {@link #PREFIX}. */
    void handle(HttpExchange ex) throws ApiError, IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        String rest = path.length() > PREFIX.length() ? path.substring(PREFIX.length() + 1) : "";
        try {
            if (rest.isEmpty()) {
                if (!method.equals("GET")) {
                    throw notAllowed(method, path, "GET");
                }
                HttpIo.json(
                        ex,
                        200,
                        Map.of(
                                "settings",
                                settings.all().stream().map(SettingView::of).toList()));
                return;
            }
            if (rest.contains("/")) {
                throw ApiError.notFound("no route " + method + " " + path);
            }
            String name = rest;
            switch (method) {
                case "GET" -> HttpIo.json(ex, 200, SettingView.of(settings.entry(name)));
                case "PUT" -> put(ex, name);
                case "DELETE" -> HttpIo.json(ex, 200, SettingView.of(settings.reset(name, by(HttpIo.query(ex, "by")))));
                default -> throw notAllowed(method, path, "GET, PUT or DELETE");
            }
        } catch (UnknownSettingException e) {
            throw ApiError.notFound(e.getMessage());
        } catch (InvalidSettingValueException e) {
            throw ApiError.badRequest(e.getMessage());
        } catch (PaddockException e) {
            throw new ApiError(500, e.getMessage());
        }
    }

    private void put(HttpExchange ex, String name) throws ApiError, IOException, PaddockException {
        SetRequest req = HttpIo.body(ex, SetRequest.class);
        if (req == null || req.value() == null) {
            SettingsStore.known(name);
            throw ApiError.badRequest("send the new value of " + name + " as {\"value\": \"...\"}");
        }
        HttpIo.json(ex, 200, SettingView.of(settings.set(name, req.value(), by(req.by()))));
    }

    private static String by(String by) {
        return by == null || by.isBlank() ? SandboxRoutes.DEFAULT_WHO : by.strip();
    }

    private static ApiError notAllowed(String method, String path, String allowed) {
        return new ApiError(405, "method " + method + " is not allowed on " + path + "; use " + allowed);
    }

    /** Body of {@code PUT /v1/settings/{name}}: the value as text (a JSON number is taken too), and who asks. */
    record SetRequest(String value, String by) {}
}
