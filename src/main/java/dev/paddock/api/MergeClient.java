package dev.paddock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The merge queue routes ({@link MergeRoutes}) for the CLI. */
public final class MergeClient {
    private final ApiClient api;

    public MergeClient(ApiClient api) {
        this.api = api;
    }

    /** {@code GET /v1/merges?repo=}. */
    public List<MergeView> list(Path repo) throws PaddockException {
        JsonNode n = read(api.get(MergeRoutes.MERGES + "?repo=" + ApiClient.encode(repo.toString())));
        List<MergeView> out = new ArrayList<>();
        for (JsonNode m : n.path("merges")) {
            out.add(Json.mapper().convertValue(m, MergeView.class));
        }
        return out;
    }

    /** {@code POST /v1/merges} with a sandbox, or with a repository and branch when {@code sandbox} is null. */
    public MergeView enqueue(String sandbox, Path repo, String branch, String by) throws PaddockException {
        Map<String, String> body = new HashMap<>();
        body.put("sandbox", sandbox);
        body.put("repo", repo == null ? null : repo.toString());
        body.put("branch", branch);
        body.put("by", by);
        return view(api.send("POST", MergeRoutes.MERGES, write(body), ApiClient.SLOW_TIMEOUT));
    }

    /** {@code GET /v1/merges/settings?repo=}: the repository's merge settings. */
    public MergeRoutes.SettingsView settings(Path repo) throws PaddockException {
        return Json.mapper()
                .convertValue(
                        read(api.get(MergeRoutes.MERGES + "/settings?repo=" + ApiClient.encode(repo.toString()))),
                        MergeRoutes.SettingsView.class);
    }

    /** {@code PUT /v1/merges/settings?repo=}: null arguments keep their value; a blank test command clears it. */
    public MergeRoutes.SettingsView configure(
            Path repo, String strategy, String testCommand, Long testTimeoutMs, Integer maxAttempts)
            throws PaddockException {
        return configure(repo, strategy, testCommand, testTimeoutMs, maxAttempts, null);
    }

    /**
     * {@code PUT /v1/merges/settings?repo=}: null arguments keep their value; a blank test command clears it.
     *
     * @param autoResolve {@code propose} or {@code apply}; null keeps it
     * @throws PaddockException with the server's message for a bad value (nothing changed)
     */
    public MergeRoutes.SettingsView configure(
            Path repo, String strategy, String testCommand, Long testTimeoutMs, Integer maxAttempts, String autoResolve)
            throws PaddockException {
        return configure(repo, strategy, testCommand, testTimeoutMs, maxAttempts, autoResolve, null);
    }

    /**
     * {@code PUT /v1/merges/settings?repo=}: null arguments keep their value; a blank test command clears it.
     *
     * @param autoResolve {@code propose} or {@code apply}; null keeps it
     * @param regenerate  file → command regenerating it (a blank command removes it); null or empty changes none
     * @throws PaddockException with the server's message for a bad value
     */
    public MergeRoutes.SettingsView configure(
            Path repo,
            String strategy,
            String testCommand,
            Long testTimeoutMs,
            Integer maxAttempts,
            String autoResolve,
            Map<String, String> regenerate)
            throws PaddockException {
        return configure(
                repo,
                new MergeRoutes.SettingsRequest(
                        strategy, testCommand, testTimeoutMs, maxAttempts, autoResolve, regenerate));
    }

    /**
     * {@code PUT /v1/merges/settings?repo=} with the review and the merge target's fields too; null arguments keep
     * their value.
     *
     * @param review {@code required} or {@code auto}; null keeps it
     * @param target {@code local} or {@code push}; null keeps it
     * @param remote the remote a push target pushes to, {@code ""} for origin or the only remote; null keeps it
     * @param pullRequest whether a push target opens a pull request; null keeps it
     * @throws PaddockException with the server's message for a bad value
     */
    public MergeRoutes.SettingsView configure(
            Path repo,
            String strategy,
            String testCommand,
            Long testTimeoutMs,
            Integer maxAttempts,
            String autoResolve,
            Map<String, String> regenerate,
            String review,
            String target,
            String remote,
            Boolean pullRequest)
            throws PaddockException {
        return configure(
                repo,
                new MergeRoutes.SettingsRequest(
                        strategy,
                        testCommand,
                        testTimeoutMs,
                        maxAttempts,
                        autoResolve,
                        regenerate,
                        review,
                        target,
                        remote,
                        pullRequest));
    }

    private MergeRoutes.SettingsView configure(Path repo, MergeRoutes.SettingsRequest request) throws PaddockException {
        String body = write(request);
        return Json.mapper()
                .convertValue(
                        read(api.send(
                                "PUT",
                                MergeRoutes.MERGES + "/settings?repo=" + ApiClient.encode(repo.toString()),
                                body,
                                ApiClient.SLOW_TIMEOUT)),
                        MergeRoutes.SettingsView.class);
    }

    /** {@code POST /v1/merges/{id}/cancel} or {@code .../retry}. */
    public MergeView act(long id, String action, String by) throws PaddockException {
        return view(api.send(
                "POST", MergeRoutes.MERGES + "/" + id + "/" + action, write(Map.of("by", by)), ApiClient.SLOW_TIMEOUT));
    }

    /** {@code POST /v1/merges/{id}/approve}: approves the policy change under review, bound to {@code commit}. */
    public MergeView approve(long id, String by, String commit) throws PaddockException {
        Map<String, String> body = new HashMap<>();
        body.put("by", by);
        body.put("commit", commit);
        return view(api.send("POST", MergeRoutes.MERGES + "/" + id + "/approve", write(body), ApiClient.SLOW_TIMEOUT));
    }

    /** {@code POST /v1/merges/{id}/reject}: rejects the policy change under review ({@code reason} may be null). */
    public MergeView reject(long id, String by, String reason) throws PaddockException {
        Map<String, String> body = new HashMap<>();
        body.put("by", by);
        body.put("reason", reason);
        return view(api.send("POST", MergeRoutes.MERGES + "/" + id + "/reject", write(body), ApiClient.SLOW_TIMEOUT));
    }

    /** {@code GET /v1/merges/{id}/review}: the policy change to review. */
    public MergeReviewView review(long id) throws PaddockException {
        return Json.mapper()
                .convertValue(read(api.get(MergeRoutes.MERGES + "/" + id + "/review")), MergeReviewView.class);
    }

    private static MergeView view(String body) throws PaddockException {
        return Json.mapper().convertValue(read(body), MergeView.class);
    }

    private static JsonNode read(String body) throws PaddockException {
        try {
            return Json.mapper().readTree(body);
        } catch (IOException e) {
            throw new PaddockException("The running Paddock answered something that is not JSON: " + e.getMessage(), e);
        }
    }

    private static String write(Object o) throws PaddockException {
        try {
            return Json.mapper().writeValueAsString(o);
        } catch (IOException e) {
            throw new PaddockException("Cannot write the request: " + e.getMessage(), e);
        }
    }
}
