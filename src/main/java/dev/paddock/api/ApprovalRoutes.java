package dev.paddock.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalBroker;
import dev.paddock.approval.ApprovalException;
import dev.paddock.approval.ApprovalRequest;
import dev.paddock.approval.ApprovalState;
import dev.paddock.approval.ClaudeHook;
import dev.paddock.approval.Ticket;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The approval broker's routes, over {@link ApprovalBroker}:
 * <ul>
 *   <li>{@code POST /v1/decide} body {@code {sandboxId?, tool, input: <tool_input object>, cwd, sessionId?}}
 *       → {@code {decision: "allow"|"deny", reason, rule, approvalId, state}}. A sandbox's token ties the
 *       request to its sandbox (another sandbox id: 403); the install token needs {@code sandboxId}, or a
 *       {@code cwd} inside a live sandbox's worktree.</li>
 *   <li>{@code POST /v1/hooks/claude[?sandbox=ID]} body: Claude Code's PreToolUse JSON as the hook got it on
 *       stdin → {@code text/plain}, three lines: {@code allow} or {@code deny} (the hook's exit code 0 or 2),
 *       the hook's stdout JSON, the reason (the hook's stderr on deny). Malformed input is answered
 *       {@code deny}, not an HTTP error, so the shell hook needs no JSON parser.</li>
 *   <li>{@code GET /v1/approvals[?state=pending][&limit=N]} → {@code {"approvals": [ApprovalView...]}};
 *       {@code POST /v1/approvals/{id}/approve|deny|allow} body {@code {by?, reason?}} → {@link ApprovalView}
 *       ({@code allow}: approve and allow from now on, plus {@code rule} and {@code policyFile}). Install
 *       token only.</li>
 * </ul>
 * Requests the policy asks about are long-polled: the answer's headers (200, chunked) go out at once, then
 * one space every {@value #KEEPALIVE_MS} ms while a person decides (leading whitespace is valid JSON, and is
 * skipped by the shell hook, which denies when they stop); a failed write means the requester went away and
 * cancels the request. They run on threads
 * of their own ({@link #waits}), never holding up other requests.
 */
final class ApprovalRoutes {
    static final String DECIDE = "/v1/decide";
    static final String HOOK = "/v1/hooks/claude";
    static final String PREFIX = "/v1/approvals";
    /**
     * Interval of the keep-alive spaces on a long-polled answer, in ms: two a second, so the curl hook's speed
     * limit of one byte a second (averaged over curl's last seconds) holds while they flow.
     */
    static final long KEEPALIVE_MS = 500;

    private static final int LIST_LIMIT = 500;

    private final ApprovalBroker broker;

    ApprovalRoutes(ApprovalBroker broker) {
        this.broker = broker;
    }

    /** Whether {@code path} is one of these routes. */
    static boolean matches(String path) {
        return path.equals(DECIDE) || path.equals(HOOK) || path.equals(PREFIX) || path.startsWith(PREFIX + "/");
    }

    /** Whether the request may wait for a person: runs on a thread of its own. */
    static boolean waits(String method, String path) {
        return method.equals("POST") && (path.equals(DECIDE) || path.equals(HOOK));
    }

    /** Whether a sandbox's token may send this request (its own decisions only; the route checks the id). */
    static boolean sandboxMay(String method, String path) {
        return waits(method, path);
    }

    /** Answers one request under these routes. */
    void handle(HttpExchange ex, Caller caller) throws ApiError, IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        if (broker == null) {
            throw new ApiError(503, "this Paddock has no approval broker");
        }
        if (path.equals(DECIDE) || path.equals(HOOK)) {
            if (!method.equals("POST")) {
                throw new ApiError(405, "method " + method + " is not allowed on " + path + "; use POST");
            }
            if (path.equals(DECIDE)) {
                decide(ex, caller);
            } else {
                hook(ex, caller);
            }
            return;
        }
        List<String> seg = Arrays.stream(path.substring(PREFIX.length()).split("/"))
                .filter(s -> !s.isEmpty())
                .toList();
        try {
            if (seg.isEmpty() && method.equals("GET")) {
                list(ex);
            } else if (seg.size() == 2 && method.equals("POST")) {
                act(ex, seg.get(0), seg.get(1));
            } else if (seg.isEmpty() || seg.size() == 2) {
                throw new ApiError(405, "method " + method + " is not allowed on " + path);
            } else {
                throw ApiError.notFound("no route " + method + " " + path);
            }
        } catch (PaddockException e) {
            throw map(e);
        }
    }

    /** Body of {@code POST /v1/decide}. {@code input} is the tool_input object (a string is taken as is). */
    record DecideRequest(
            String sandboxId, String tool, JsonNode input, String cwd, String sessionId, String toolUseId) {}

    /** Optional body of the approve and deny routes. */
    record DecisionRequest(String by, String reason) {}

    private void decide(HttpExchange ex, Caller caller) throws ApiError, IOException {
        DecideRequest req = HttpIo.body(ex, DecideRequest.class);
        if (req == null) {
            throw ApiError.badRequest("the request body is empty: send {\"tool\", \"input\", \"cwd\", ...}");
        }
        Path cwd = path(req.cwd());
        String input = req.input() != null && req.input().isTextual()
                ? req.input().asText()
                : ApprovalRequest.mainInput(req.tool(), req.input());
        Ticket t;
        try {
            String sandbox = sandboxOf(caller, req.sandboxId(), cwd);
            t = broker.decide(new ApprovalRequest(
                    sandbox,
                    req.tool(),
                    input,
                    cwd,
                    req.sessionId(),
                    req.toolUseId() == null || req.toolUseId().length() > 256 ? null : req.toolUseId()));
        } catch (PaddockException e) {
            throw map(e);
        }
        answer(ex, t, "application/json; charset=utf-8", ApprovalRoutes::decideBody);
    }

    private void hook(HttpExchange ex, Caller caller) throws ApiError, IOException {
        String payload;
        try (InputStream in = ex.getRequestBody()) {
            byte[] bytes = in.readNBytes(HttpIo.MAX_BODY_BYTES + 1);
            if (bytes.length > HttpIo.MAX_BODY_BYTES) {
                hookAnswer(ex, false, "Paddock: the hook's input is larger than " + HttpIo.MAX_BODY_BYTES + " bytes");
                return;
            }
            payload = new String(bytes, StandardCharsets.UTF_8);
        }
        Ticket t;
        ClaudeHook.Call call;
        try {
            call = ClaudeHook.parse(payload);
            String sandbox = sandboxOf(caller, HttpIo.query(ex, "sandbox"), call.cwd());
            if (call.isPermissionRequest()) {
                permission(ex, sandbox, call);
                return;
            }
            t = broker.decide(call.toRequest(sandbox));
        } catch (ApprovalException e) {
            hookAnswer(ex, false, "Paddock denied it: " + e.getMessage());
            return;
        } catch (PaddockException e) {
            hookAnswer(ex, false, "Paddock could not decide, so it is denied: " + e.getMessage());
            return;
        }
        answer(ex, t, "text/plain; charset=utf-8", a -> hookBody(a, call));
    }

    /**
     * Claude Code's PermissionRequest: it would ask a person whether a call may run outside its own sandbox. Allowed
     * only for a call a person approved ({@link ApprovalBroker#permitOutsideSandbox}); anything else is refused, as
     * {@code -p} itself would.
     */
    private void permission(HttpExchange ex, String sandbox, ClaudeHook.Call call)
            throws IOException, PaddockException {
        String input = ApprovalRequest.mainInput(call.tool(), call.toolInput());
        Optional<Approval> by = broker.permitOutsideSandbox(sandbox, call.tool(), input);
        String reason = by.map(a -> "Paddock: a person approved it (approval " + a.id() + ")")
                .orElse("Paddock: only a call a person approved may run outside the agent's own sandbox; this one"
                        + " was not (ask without dangerouslyDisableSandbox, or wait for a person's approval)");
        boolean allow = by.isPresent();
        HttpIo.text(ex, 200, hookLines(allow, call.output(allow, reason, false), reason));
    }

    /**
     * The sandbox a request is for: a sandbox's token names its own (another one is refused); the install
     * token names one, or the request's working directory lies in a live sandbox's worktree.
     */
    private String sandboxOf(Caller caller, String asked, Path cwd) throws ApiError, PaddockException {
        String named = asked == null || asked.isBlank() ? null : asked.strip();
        if (!caller.isInstall()) {
            if (named != null && !named.equals(caller.sandboxId())) {
                throw ApiError.forbidden(
                        "this token belongs to sandbox " + caller.sandboxId() + "; it cannot ask for " + named);
            }
            return caller.sandboxId();
        }
        if (named != null) {
            return named;
        }
        return broker.sandboxContaining(cwd)
                .orElseThrow(() -> ApiError.badRequest("with the install token, name the"
                        + " sandbox (sandboxId, or PADDOCK_SANDBOX_ID for the hook)"
                        + (cwd == null ? "" : "; " + cwd + " is in no live sandbox's worktree")));
    }

    /** Answers a ticket: at once when decided, else long-polled with keep-alive spaces. */
    private static void answer(HttpExchange ex, Ticket t, String contentType, Function<Approval, String> render)
            throws IOException {
        ex.getResponseHeaders().set("Content-Type", contentType);
        if (t.isDecided()) {
            byte[] bytes = render.apply(t.first()).getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
            return;
        }
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        String body;
        while (true) {
            try {
                body = render.apply(t.outcome().get(KEEPALIVE_MS, TimeUnit.MILLISECONDS));
                break;
            } catch (TimeoutException e) {
                try {
                    out.write(' ');
                    out.flush();
                } catch (IOException gone) {
                    t.abandon();
                    throw gone;
                }
            } catch (ExecutionException | CancellationException e) {
                body = render.apply(stopped(t.first()));
                break;
            } catch (InterruptedException e) {
                // The server is stopping: the request stays pending for the next start.
                Thread.currentThread().interrupt();
                throw new IOException(
                        "interrupted while waiting for approval " + t.first().id());
            }
        }
        // Decided: when nobody is left to tell, the write fails and the decision is stored all the same.
        out.write(body.getBytes(StandardCharsets.UTF_8));
        out.close();
    }

    private static Approval stopped(Approval a) {
        return a.toBuilder()
                .state(ApprovalState.PENDING)
                .decision(null)
                .decidedBy(null)
                .decider(null)
                .reason("Paddock is stopping before anyone decided; denied for now (the request stays pending)")
                .decidedAt(null)
                .build();
    }

    private static String decideBody(Approval a) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("decision", a.answer());
        body.put("reason", a.reason());
        body.put("rule", a.matchedRule());
        body.put("approvalId", a.id());
        body.put("state", a.state().id());
        try {
            return Json.mapper().writeValueAsString(body);
        } catch (IOException e) {
            return "{\"decision\":\"deny\",\"reason\":\"cannot serialise the answer\"}";
        }
    }

    private static String hookBody(Approval a, ClaudeHook.Call call) {
        String reason = hookReason(a);
        return hookLines(a.allowed(), call.output(a.allowed(), reason, "human".equals(a.decidedBy())), reason);
    }

    /** What the agent is told: the decision's reason, with the deciding rule when there is one. */
    private static String hookReason(Approval a) {
        String why = a.reason() == null ? a.state().id() : a.reason();
        String rule = a.matchedRule() == null || why.contains(a.matchedRule()) ? "" : " [" + a.matchedRule() + "]";
        return "Paddock: " + why + rule + " (approval " + a.id() + ")";
    }

    /** What the hook programs read: the verdict, the line they print on stdout, the reason for stderr. */
    private static String hookLines(boolean allow, String stdoutJson, String reason) {
        return (allow ? "allow" : "deny") + "\n" + stdoutJson + "\n" + ClaudeHook.oneLine(reason) + "\n";
    }

    private static void hookAnswer(HttpExchange ex, boolean allow, String reason) throws IOException {
        HttpIo.text(ex, 200, hookLines(allow, ClaudeHook.output(allow, reason), reason));
    }

    private void list(HttpExchange ex) throws ApiError, IOException, PaddockException {
        String s = HttpIo.query(ex, "state");
        ApprovalState state;
        try {
            state = s == null || s.isBlank() ? null : ApprovalState.of(s);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(
                    "unknown state \"" + s + "\": use pending, approved, denied, expired or" + " cancelled");
        }
        int limit = LIST_LIMIT;
        String l = HttpIo.query(ex, "limit");
        if (l != null && !l.isBlank()) {
            try {
                limit = Math.max(1, Math.min(LIST_LIMIT, Integer.parseInt(l.strip())));
            } catch (NumberFormatException e) {
                throw ApiError.badRequest("limit must be a number, not \"" + l + "\"");
            }
        }
        HttpIo.json(
                ex,
                200,
                Map.of(
                        "approvals",
                        broker.list(state, limit).stream().map(ApprovalView::of).toList()));
    }

    private void act(HttpExchange ex, String idText, String action) throws ApiError, IOException, PaddockException {
        long id;
        try {
            id = Long.parseLong(idText);
        } catch (NumberFormatException e) {
            throw ApiError.notFound("no approval request " + idText);
        }
        DecisionRequest req = HttpIo.body(ex, DecisionRequest.class);
        String by = req == null || req.by() == null || req.by().isBlank()
                ? SandboxRoutes.DEFAULT_WHO
                : req.by().strip();
        switch (action) {
            case "approve" -> HttpIo.json(ex, 200, ApprovalView.of(broker.approve(id, by)));
            case "deny" ->
                HttpIo.json(ex, 200, ApprovalView.of(broker.deny(id, by, req == null ? null : req.reason())));
            case "allow" -> {
                ApprovalBroker.AllowResult r = broker.approveAndAllow(id, by);
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("approval", ApprovalView.of(r.approval()));
                body.put("rule", r.rule());
                body.put("policyFile", r.policyFile().toString());
                body.put("deciding", r.deciding());
                body.put("droppedAsks", r.droppedAsks());
                HttpIo.json(ex, 200, body);
            }
            default ->
                throw ApiError.notFound(
                        "no route POST " + PREFIX + "/" + idText + "/" + action + "; use approve, deny or allow");
        }
    }

    private static Path path(String cwd) throws ApiError {
        if (cwd == null || cwd.isBlank()) {
            return null;
        }
        try {
            Path p = Path.of(cwd);
            if (!p.isAbsolute()) {
                throw ApiError.badRequest("cwd must be an absolute path: " + cwd);
            }
            return p;
        } catch (InvalidPathException e) {
            throw ApiError.badRequest("cwd is not a valid path: " + cwd);
        }
    }

    private static ApiError map(PaddockException e) {
        if (e instanceof ApprovalException a) {
            return switch (a.kind()) {
                case BAD_REQUEST -> ApiError.badRequest(a.getMessage());
                case NOT_FOUND -> ApiError.notFound(a.getMessage());
                case CONFLICT -> ApiError.conflict(a.getMessage());
            };
        }
        return new ApiError(500, e.getMessage());
    }
}
