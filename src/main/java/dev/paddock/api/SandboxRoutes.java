package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.agent.SandboxTranscript;
import dev.paddock.approval.ApprovalBroker;
import dev.paddock.common.PaddockException;
import dev.paddock.compare.GroupComparer;
import dev.paddock.sandbox.RemoveMode;
import dev.paddock.sandbox.SandboxConflictException;
import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxNotFoundException;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.status.UnknownRepositoryException;
import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code /v1/sandboxes} routes, over {@link SandboxService}:
 * <ul>
 *   <li>{@code POST /v1/sandboxes} ({@link CreateSandboxRequest}) → 201 {@link SandboxView}; with {@code agents}
 *       (a fan-out) → 201 {@link SandboxGroupView}, or when it stopped part way the error's status with
 *       {@code "code": "fan_out_incomplete"} and the sandboxes {@code created}, the one {@code failed} and those
 *       {@code notTried}</li>
 *   <li>{@code GET /v1/sandboxes[?repo=PATH]} → {@code {"sandboxes": [SandboxView...]}}, newest first, not closed
 *       (with {@code render=json|text}: what {@code paddock sandbox list} prints, {@link CliText})</li>
 *   <li>{@code GET /v1/sandboxes/{id}} → {@link SandboxDetail}; {@code GET .../log} → the log tail as text;
 *       {@code GET .../transcript} → {@link TranscriptView} (the log read by its agent's parser, each
 *       tool call with its decision); {@code GET .../compare} → {@link dev.paddock.compare.GroupComparison} of the
 *       fan-out {@code id} names (a group, or a sandbox of one)</li>
 *   <li>{@code POST .../stop}, {@code POST .../retry} (body {@code {"by": "who"}}, optional) → {@link SandboxView}</li>
 *   <li>{@code POST .../say} (body {@code {"text": "...", "by": "who"}}) → {@link SandboxView}: a follow-up prompt;
 *       the agent resumes its session with it (409 while it still runs, 400 for an agent that cannot resume)</li>
 *   <li>{@code GET .../removal} → {@link dev.paddock.sandbox.RemovalPlan};
 *       {@code DELETE /v1/sandboxes/{id}?mode=strict|commit|force&deleteBranch=true|false[&by=who]} → {@link SandboxView}</li>
 *   <li>{@code POST .../heartbeat} (body {@code {"progress": "..."}}) → {@code {"ok": true}}</li>
 * </ul>
 * Errors: 400 bad input (a sandbox in no group to compare), 404 no such sandbox or repository, 405 wrong method, 409 the sandbox's state (or a
 * taken id, directory or branch) refuses it, 500 anything else. Who may call them is {@link ApiServer}'s
 * business, except that a sandbox's token sends only its own sandbox's heartbeats.
 */
final class SandboxRoutes {
    static final String PREFIX = "/v1/sandboxes";
    /** The code of a fan-out that made some of its sandboxes and not the rest. */
    static final String FAN_OUT_INCOMPLETE = "fan_out_incomplete";
    /** Who a change is attributed to when the request does not say. */
    static final String DEFAULT_WHO = "the API";

    private final SandboxService sandboxes;
    private final ApprovalBroker approvals;
    /** Answers {@code GET .../compare} once the host hands it over ({@link #serveComparisons}); 503 before. */
    private volatile GroupComparer comparer;

    /** Whether the Docker engine does not answer: the list shows a live container sandbox's state as unknown. */
    private final java.util.function.Predicate<String> engineAway;

    /**
     * @param approvals the decisions a transcript's tool calls are shown with; null: none
     * @param engineAway whether the Docker engine of that name does not answer (or has not yet)
     */
    SandboxRoutes(SandboxService sandboxes, ApprovalBroker approvals, java.util.function.Predicate<String> engineAway) {
        this.sandboxes = sandboxes;
        this.approvals = approvals;
        this.engineAway = engineAway;
    }

    /** Serves {@code GET /v1/sandboxes/{id}/compare} from now on. */
    void serveComparisons(GroupComparer comparer) {
        this.comparer = comparer;
    }

    /** Whether {@code path} is one of these routes. */
    static boolean matches(String path) {
        return path.equals(PREFIX) || path.startsWith(PREFIX + "/");
    }

    /**
     * Whether the request may take seconds: creating (git), stopping and retrying (waits for a process tree
     * to die), removing (both).
     */
    static boolean isSlow(String method, String path) {
        List<String> seg = segments(path);
        if (!matches(path)) {
            return false;
        }
        return (seg.isEmpty() && method.equals("POST"))
                || (seg.size() == 1 && method.equals("DELETE"))
                || (seg.size() == 2
                        && method.equals("POST")
                        && (seg.get(1).equals("stop") || seg.get(1).equals("retry")))
                || (seg.size() == 2 && method.equals("GET") && seg.get(1).equals("compare"));
    }

    /** The sandbox id of {@code POST /v1/sandboxes/{id}/heartbeat}, or null for any other request. */
    static String heartbeatTarget(String method, String path) {
        List<String> seg = segments(path);
        return method.equals("POST") && seg.size() == 2 && seg.get(1).equals("heartbeat") ? seg.get(0) : null;
    }

    private static List<String> segments(String path) {
        if (!matches(path)) {
            return List.of();
        }
        String rest = path.substring(PREFIX.length());
        return Arrays.stream(rest.split("/")).filter(s -> !s.isEmpty()).toList();
    }

    /** Answers one request under {@link #PREFIX}. */
    void handle(HttpExchange ex, Caller caller) throws ApiError, IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        List<String> seg = segments(path);
        if (seg.isEmpty()) {
            switch (method) {
                case "GET" -> list(ex);
                case "POST" -> create(ex);
                default -> throw notAllowed(method, path, "GET or POST");
            }
        } else if (seg.size() == 1) {
            switch (method) {
                case "GET" -> detail(ex, seg.get(0));
                case "DELETE" -> remove(ex, seg.get(0));
                default -> throw notAllowed(method, path, "GET or DELETE");
            }
        } else if (seg.size() == 2) {
            action(ex, caller, method, path, seg.get(0), seg.get(1));
        } else {
            throw ApiError.notFound("no route " + method + " " + path);
        }
    }

    private void action(HttpExchange ex, Caller caller, String method, String path, String id, String action)
            throws ApiError, IOException {
        String expected = switch (action) {
            case "log", "removal", "transcript", "compare" -> "GET";
            case "stop", "retry", "heartbeat", "say" -> "POST";
            default -> throw ApiError.notFound("no route " + method + " " + path);
        };
        if (!method.equals(expected)) {
            throw notAllowed(method, path, expected);
        }
        try {
            switch (action) {
                case "log" -> {
                    sandboxes.find(id);
                    HttpIo.text(ex, 200, sandboxes.logTail(id));
                }
                case "transcript" ->
                    HttpIo.json(
                            ex,
                            200,
                            TranscriptView.of(
                                    SandboxTranscript.read(sandboxes.find(id), sandboxes.logFile(id)),
                                    approvals == null
                                            ? List.of()
                                            : approvals.ofSandbox(id, SandboxTranscript.MAX_APPROVALS)));
                case "compare" -> {
                    GroupComparer c = comparer;
                    if (c == null) {
                        throw new ApiError(503, "comparisons are not served by this Paddock");
                    }
                    HttpIo.json(ex, 200, c.compare(id));
                }
                case "removal" -> {
                    sandboxes.find(id);
                    HttpIo.json(ex, 200, sandboxes.plan(id));
                }
                case "stop" -> HttpIo.json(ex, 200, SandboxView.of(sandboxes.stop(id, who(ex))));
                case "retry" -> HttpIo.json(ex, 200, SandboxView.of(sandboxes.retry(id, who(ex))));
                case "say" -> say(ex, id);
                default -> heartbeat(ex, caller, id);
            }
        } catch (PaddockException e) {
            throw map(e, 400);
        }
    }

    private void heartbeat(HttpExchange ex, Caller caller, String id) throws ApiError, IOException, PaddockException {
        if (!caller.mayHeartbeat(id)) {
            throw ApiError.forbidden(
                    "this token belongs to sandbox " + caller.sandboxId() + "; it cannot send heartbeats for " + id);
        }
        HeartbeatRequest req = HttpIo.body(ex, HeartbeatRequest.class);
        sandboxes.heartbeat(id, req == null ? null : req.progress());
        HttpIo.json(ex, 200, Map.of("ok", true));
    }

    private void say(HttpExchange ex, String id) throws ApiError, IOException, PaddockException {
        SayRequest req = HttpIo.body(ex, SayRequest.class);
        if (req == null || req.text() == null || req.text().isBlank()) {
            throw ApiError.badRequest("send {\"text\": \"the follow-up prompt\"}: the follow-up is empty");
        }
        String by =
                req.by() == null || req.by().isBlank() ? DEFAULT_WHO : req.by().strip();
        HttpIo.json(ex, 200, SandboxView.of(sandboxes.say(id, req.text(), by)));
    }

    private void list(HttpExchange ex) throws ApiError, IOException {
        String repo = HttpIo.query(ex, "repo");
        String render = CliText.asked(ex);
        try {
            List<SandboxView> list = sandboxes.list(repo == null ? null : absolute(repo)).stream()
                    .map(s -> SandboxView.of(s, engineAway.test(s.spec().engine())))
                    .toList();
            if (render != null) {
                CliText.answer(ex, CliText.sandboxes(ex, render, list, repo == null ? null : absolute(repo)));
                return;
            }
            HttpIo.json(ex, 200, Map.of("sandboxes", list));
        } catch (PaddockException e) {
            throw map(e, 404);
        }
    }

    private void create(HttpExchange ex) throws ApiError, IOException {
        CreateSandboxRequest req = HttpIo.body(ex, CreateSandboxRequest.class);
        if (req == null) {
            throw ApiError.badRequest("the request body is empty: send {\"repo\", \"task\", \"command\", ...}");
        }
        if (req.fanOut()) {
            createGroup(ex, req);
            return;
        }
        try {
            SandboxRecord created = sandboxes.create(req.toNewSandbox());
            ex.getResponseHeaders().set("Location", PREFIX + "/" + created.id());
            HttpIo.json(ex, 201, SandboxView.of(created));
        } catch (PaddockException e) {
            throw map(e, 400);
        }
    }

    private void createGroup(HttpExchange ex, CreateSandboxRequest req) throws ApiError, IOException {
        dev.paddock.sandbox.AgentCounts agents = req.agentCounts();
        try {
            HttpIo.json(ex, 201, SandboxGroupView.of(sandboxes.createGroup(req.toNewSandbox(), agents)));
        } catch (dev.paddock.sandbox.FanOutException e) {
            Map<String, Object> body = new java.util.LinkedHashMap<>();
            body.put("error", e.getMessage());
            body.put("code", FAN_OUT_INCOMPLETE);
            body.put("group", e.group());
            body.put("created", e.created().stream().map(SandboxView::of).toList());
            Map<String, Object> failed = new java.util.LinkedHashMap<>(member(e.failed()));
            failed.put("error", e.reason().getMessage());
            body.put("failed", failed);
            body.put(
                    "notTried", e.notTried().stream().map(SandboxRoutes::member).toList());
            HttpIo.json(ex, map(e.reason(), 400).status(), body);
        } catch (PaddockException e) {
            throw map(e, 400);
        }
    }

    private static Map<String, Object> member(dev.paddock.sandbox.FanOutException.Member m) {
        return Map.of("agent", m.agent(), "number", m.number(), "id", m.id(), "branch", m.branch());
    }

    private void detail(HttpExchange ex, String id) throws ApiError, IOException {
        try {
            SandboxRecord s = sandboxes.find(id);
            HttpIo.json(
                    ex,
                    200,
                    new SandboxDetail(
                            SandboxView.of(s),
                            sandboxes.history(id).stream()
                                    .map(SandboxDetail.HistoryEvent::of)
                                    .toList(),
                            SandboxDetail.Waiting.of(sandboxes.waiting(id).orElse(null)),
                            SandboxDetail.FollowUp.of(sandboxes.followUp(id).orElse(null))));
        } catch (PaddockException e) {
            throw map(e, 400);
        }
    }

    private void remove(HttpExchange ex, String id) throws ApiError, IOException {
        RemoveMode mode = mode(HttpIo.query(ex, "mode"));
        boolean deleteBranch = flag(HttpIo.query(ex, "deleteBranch"), "deleteBranch");
        String by = HttpIo.query(ex, "by");
        try {
            sandboxes.find(id);
            SandboxRecord removed =
                    sandboxes.remove(id, mode, deleteBranch, by == null || by.isBlank() ? DEFAULT_WHO : by);
            HttpIo.json(ex, 200, SandboxView.of(removed));
        } catch (PaddockException e) {
            // Anything but a missing sandbox is the removal refusing what the sandbox holds now.
            throw map(e, 409);
        }
    }

    private static String who(HttpExchange ex) throws ApiError, IOException {
        ActionRequest req = HttpIo.body(ex, ActionRequest.class);
        return req == null || req.by() == null || req.by().isBlank()
                ? DEFAULT_WHO
                : req.by().strip();
    }

    private static Path absolute(String repo) throws ApiError {
        return HttpIo.repoPath(repo);
    }

    private static RemoveMode mode(String mode) throws ApiError {
        if (mode == null || mode.isBlank()) {
            return RemoveMode.STRICT;
        }
        try {
            return RemoveMode.valueOf(mode.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("unknown mode \"" + mode + "\": use strict, commit or force");
        }
    }

    private static boolean flag(String value, String name) throws ApiError {
        if (value == null || value.isBlank() || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw ApiError.badRequest(name + " must be true or false, not \"" + value + "\"");
    }

    private static ApiError notAllowed(String method, String path, String allowed) {
        return new ApiError(405, "method " + method + " is not allowed on " + path + "; use " + allowed);
    }

    /**
     * The answer to a service's refusal: 404 for a missing sandbox or repository, 409 for a state conflict,
     * {@code refusal} for any other {@link SandboxException} or {@link GitException} (bad input), 500 else.
     */
    static ApiError map(PaddockException e, int refusal) {
        if (e instanceof SandboxNotFoundException || e instanceof UnknownRepositoryException) {
            return ApiError.notFound(e.getMessage());
        }
        if (e instanceof dev.paddock.sandbox.RemovalRefusedException) {
            return new ApiError(409, e.getMessage(), ApiAnswerException.REMOVAL_REFUSED);
        }
        if (e instanceof SandboxConflictException) {
            return ApiError.conflict(e.getMessage());
        }
        if (e instanceof SandboxException || e instanceof GitException) {
            return new ApiError(refusal, e.getMessage());
        }
        return new ApiError(500, e.getMessage());
    }

    /** Body of {@code POST .../heartbeat}. */
    record HeartbeatRequest(String progress) {}

    /** Body of {@code POST .../say}: the follow-up prompt, and who sends it (shown in the event). */
    record SayRequest(String text, String by) {}

    /** Optional body of {@code POST .../stop} and {@code .../retry}: who asks (shown in the event). */
    record ActionRequest(String by) {}
}
