package dev.paddock.api;

import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.diff.DiffOptions;
import dev.paddock.diff.FilePatch;
import dev.paddock.diff.SandboxDiff;
import java.io.IOException;

/** The diff routes ({@link DiffRoutes}) as calls, for the CLI. */
public final class DiffClient {
    private final ApiClient api;

    public DiffClient(ApiClient api) {
        this.api = api;
    }

    /** {@code GET /v1/sandboxes/{id}/diff}. */
    public SandboxDiff diff(String id, DiffOptions o) throws PaddockException {
        return read(get(id, "", o, null), SandboxDiff.class);
    }

    /** {@code GET /v1/sandboxes/{id}/diff/file?path=P}. */
    public FilePatch file(String id, String path, DiffOptions o) throws PaddockException {
        return read(get(id, "/file", o, path), FilePatch.class);
    }

    /** {@code GET /v1/sandboxes/{id}/diff/patch}: the unified patch. */
    public String patch(String id, DiffOptions o) throws PaddockException {
        return get(id, "/patch", o, null);
    }

    private String get(String id, String route, DiffOptions o, String path) throws PaddockException {
        StringBuilder q = new StringBuilder(SandboxRoutes.PREFIX + "/" + ApiClient.encode(id) + "/diff" + route);
        char sep = '?';
        if (o != null && o.ignoreWhitespace()) {
            q.append(sep).append("ignoreWhitespace=true");
            sep = '&';
        }
        if (o != null && o.commit() != null) {
            q.append(sep).append("commit=").append(ApiClient.encode(o.commit()));
            sep = '&';
        }
        if (o != null && o.snapshot() != null) {
            q.append(sep).append("snapshot=").append(ApiClient.encode(o.snapshot()));
            sep = '&';
        }
        if (o != null && o.checkpoint() != null) {
            q.append(sep).append("checkpoint=").append(o.checkpoint());
            sep = '&';
            if (o.toCheckpoint() != null) {
                q.append(sep).append("to=").append(o.toCheckpoint());
            }
        }
        if (path != null) {
            q.append(sep).append("path=").append(ApiClient.encode(path));
        }
        return api.send("GET", q.toString(), null, ApiClient.SLOW_TIMEOUT);
    }

    private static <T> T read(String json, Class<T> type) throws PaddockException {
        try {
            return Json.mapper().readValue(json, type);
        } catch (IOException e) {
            throw new PaddockException("Paddock's API answered something unreadable: " + e.getMessage(), e);
        }
    }
}
