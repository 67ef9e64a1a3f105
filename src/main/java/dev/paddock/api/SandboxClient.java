package dev.paddock.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.RemoveMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sandbox routes of Paddock's API as Java calls (see {@link SandboxRoutes} for the routes). Every
 * call throws {@link ApiUnreachableException} when nothing answers and {@link ApiAnswerException} with
 * the API's message when it refuses.
 */
public final class SandboxClient {
    private final ApiClient api;

    public SandboxClient(ApiClient api) {
        this.api = api;
    }

    /** {@code POST /v1/sandboxes}: the created sandbox (pending; the supervisor starts it). */
    public SandboxView create(CreateSandboxRequest request) throws PaddockException {
        return read(api.send("POST", SandboxRoutes.PREFIX, write(request), ApiClient.SLOW_TIMEOUT), SandboxView.class);
    }

    /**
     * {@code POST /v1/sandboxes} with {@code agents}: a fan-out, its sandboxes pending. When it stops part way, the
     * {@link ApiAnswerException}'s message says which sandboxes were made and which were not.
     */
    public SandboxGroupView createGroup(CreateSandboxRequest request) throws PaddockException {
        int total;
        try {
            total = dev.paddock.sandbox.AgentCounts.parse(request.agents()).total();
        } catch (IllegalArgumentException e) {
            total = 1; // the API says what is wrong
        }
        // Each sandbox is made in turn, each as long as one on its own may take.
        return read(
                api.send("POST", SandboxRoutes.PREFIX, write(request), ApiClient.SLOW_TIMEOUT.multipliedBy(total)),
                SandboxGroupView.class);
    }

    /** {@code GET /v1/sandboxes[?repo=]}: sandboxes not closed, newest first (of every repository when null). */
    public List<SandboxView> list(Path repo) throws PaddockException {
        String body =
                api.get(SandboxRoutes.PREFIX + (repo == null ? "" : "?repo=" + ApiClient.encode(repo.toString())));
        JavaType type = Json.mapper()
                .getTypeFactory()
                .constructMapType(
                        Map.class,
                        Json.mapper().constructType(String.class),
                        Json.mapper().getTypeFactory().constructCollectionType(List.class, SandboxView.class));
        Map<String, List<SandboxView>> answer = read(body, type);
        return answer.getOrDefault("sandboxes", List.of());
    }

    /**
     * {@code PUT /v1/repositories/container-image}: the image of the repository's container sandboxes (null
     * clears it).
     *
     * @return the repository's main worktree, as Paddock registered it
     */
    public String setContainerImage(Path repo, String image) throws PaddockException {
        Map<String, String> body = new java.util.HashMap<>();
        body.put("repo", repo.toString());
        body.put("image", image);
        return read(
                        api.send("PUT", RepositoryRoutes.CONTAINER_IMAGE, write(body), ApiClient.SLOW_TIMEOUT),
                        com.fasterxml.jackson.databind.JsonNode.class)
                .path("repo")
                .asText();
    }

    /**
     * {@code PUT /v1/repositories/agent-flags}: the extra flags of {@code agent}'s command lines in the repository
     * (empty clears them).
     *
     * @return the repository's main worktree, as Paddock registered it
     */
    public String setAgentFlags(Path repo, String agent, List<String> flags) throws PaddockException {
        Map<String, Object> body = new java.util.HashMap<>();
        body.put("repo", repo.toString());
        body.put("agent", agent);
        body.put("flags", flags);
        return read(
                        api.send("PUT", RepositoryRoutes.AGENT_FLAGS, write(body), ApiClient.SLOW_TIMEOUT),
                        com.fasterxml.jackson.databind.JsonNode.class)
                .path("repo")
                .asText();
    }

    /** {@code GET /v1/repositories/agent-flags?repo=}: every agent's extra flags in the repository, by agent. */
    public Map<String, List<String>> agentFlags(Path repo) throws PaddockException {
        com.fasterxml.jackson.databind.JsonNode answer = read(
                api.get(RepositoryRoutes.AGENT_FLAGS + "?repo=" + ApiClient.encode(repo.toString())),
                com.fasterxml.jackson.databind.JsonNode.class);
        Map<String, List<String>> flags = new java.util.TreeMap<>();
        answer.path("flags").fields().forEachRemaining(e -> {
            List<String> words = new java.util.ArrayList<>();
            e.getValue().forEach(w -> words.add(w.asText()));
            flags.put(e.getKey(), List.copyOf(words));
        });
        return flags;
    }

    /** {@code POST /v1/sandboxes/{id}/stop}. */
    public SandboxView stop(String id, String by) throws PaddockException {
        return read(
                api.send("POST", path(id) + "/stop", write(Map.of("by", by)), ApiClient.SLOW_TIMEOUT),
                SandboxView.class);
    }

    /** {@code POST /v1/sandboxes/{id}/retry}. */
    public SandboxView retry(String id, String by) throws PaddockException {
        return read(
                api.send("POST", path(id) + "/retry", write(Map.of("by", by)), ApiClient.SLOW_TIMEOUT),
                SandboxView.class);
    }

    /** {@code POST /v1/sandboxes/{id}/say}: a follow-up prompt; the agent resumes its session with it. */
    public SandboxView say(String id, String text, String by) throws PaddockException {
        return read(
                api.send("POST", path(id) + "/say", write(Map.of("text", text, "by", by)), ApiClient.SLOW_TIMEOUT),
                SandboxView.class);
    }

    /** {@code DELETE /v1/sandboxes/{id}}: removes it ({@link RemoveMode#STRICT} refuses to lose work, 409). */
    public SandboxView remove(String id, RemoveMode mode, boolean deleteBranch, String by) throws PaddockException {
        return read(
                api.send(
                        "DELETE",
                        path(id) + "?mode=" + mode.name().toLowerCase(Locale.ROOT) + "&deleteBranch=" + deleteBranch
                                + "&by=" + ApiClient.encode(by),
                        null,
                        ApiClient.SLOW_TIMEOUT),
                SandboxView.class);
    }

    /** {@code GET /v1/sandboxes/{id}/removal}: what removing it would lose, and the ignored files that go with it. */
    public dev.paddock.sandbox.RemovalPlan removalPlan(String id) throws PaddockException {
        return read(api.get(path(id) + "/removal"), dev.paddock.sandbox.RemovalPlan.class);
    }

    /** {@code GET /v1/sandboxes/{id}/compare}: the fan-out {@code id} names (a group, or a sandbox of one) compared. */
    public dev.paddock.compare.GroupComparison compare(String id) throws PaddockException {
        return read(api.send("GET", path(id) + "/compare", null), dev.paddock.compare.GroupComparison.class);
    }

    /** {@code GET /v1/sandboxes/{id}/transcript}: the agent's log read by its parser ({@link TranscriptView}). */
    public com.fasterxml.jackson.databind.JsonNode transcript(String id) throws PaddockException {
        return read(api.send("GET", path(id) + "/transcript", null), com.fasterxml.jackson.databind.JsonNode.class);
    }

    /** {@code POST /v1/sandboxes/{id}/heartbeat} with a progress text. */
    public void heartbeat(String id, String progress) throws PaddockException {
        api.send("POST", path(id) + "/heartbeat", write(Map.of("progress", progress == null ? "" : progress)));
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
        return read(body, Json.mapper().constructType(type));
    }

    private static <T> T read(String body, JavaType type) throws PaddockException {
        try {
            return Json.mapper().readValue(body, type);
        } catch (JsonProcessingException e) {
            throw new PaddockException("The running Paddock gave an unexpected answer: " + e.getOriginalMessage(), e);
        }
    }
}
