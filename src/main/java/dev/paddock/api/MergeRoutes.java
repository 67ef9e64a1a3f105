package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import dev.paddock.common.PaddockException;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeException;
import dev.paddock.merge.MergeService;
import dev.paddock.merge.MergeStore;
import dev.paddock.merge.ResolutionService;
import dev.paddock.status.UnknownRepositoryException;
import dev.paddock.worktree.GitException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The merge queue routes, over {@link MergeService}:
 * <ul>
 *   <li>{@code GET /v1/merges?repo=PATH[&limit=N]} → {@code {"merges": [MergeView...]}}: running, then queued in
 *       queue order, then the latest others</li>
 *   <li>{@code POST /v1/merges} ({@link EnqueueRequest}: a sandbox, or a repository and branch) → 201 MergeView</li>
 *   <li>{@code POST /v1/merges/{id}/cancel}, {@code POST /v1/merges/{id}/retry} (body {@code {"by"}}) → MergeView</li>
 *   <li>{@code GET /v1/merges/{id}/review} → {@code {entry: MergeView, files, baseBranch, baseCommit, reviewCommit,
 *       diff, truncated, approvedCommit, approvedBy, approvedAt}}: what a person reviews for an entry stopped by a
 *       change to policy or hook configuration; {@code POST /v1/merges/{id}/approve} (body {@code {"by", "commit"}},
 *       {@code commit} the reviewed one: 409 when the entry waits with another) and {@code POST
 *       /v1/merges/{id}/reject} (body {@code {"by", "reason"}}) → MergeView. Like every route here, the install
 *       token only: a sandbox's token never approves its own policy change.</li>
 *   <li>{@code GET /v1/merges/settings?repo=PATH} → {@link SettingsView}; {@code PUT} the same with a
 *   {@link SettingsRequest} body (absent fields keep their value, a blank test command clears it) → the new
 *   {@link SettingsView}</li>
 *   <li>{@code GET /v1/conflicts[?repo=PATH]} → {@code {"conflicts": [{"entry": MergeView, "files": [...]}]}}</li>
 * </ul>
 * Errors: 400 bad input, 404 no such entry, sandbox or repository, 405 wrong method, 409 the entry's state refuses.
 */
final class MergeRoutes {
    static final String MERGES = "/v1/merges";
    static final String CONFLICTS = "/v1/conflicts";
    private static final int DEFAULT_LIMIT = 100;
    private static final java.util.Set<String> ACTIONS = java.util.Set.of("cancel", "retry", "approve", "reject");

    private final MergeService merges;

    MergeRoutes(MergeService merges, ResolutionService resolutions) {
        this.merges = merges;
    }

    /** Whether {@code path} is one of these routes. */
    static boolean matches(String path) {
        return path.equals(MERGES) || path.startsWith(MERGES + "/") || path.equals(CONFLICTS);
    }

    /**
     * Body of {@code POST /v1/merges}.
     *
     * @param sandbox the sandbox whose branch to merge; or
     * @param repo absolute path of the repository and
     * @param branch the branch to merge
     * @param by who asks (shown in the event)
     */
    record EnqueueRequest(String sandbox, String repo, String branch, String by) {}

    /**
     * A repository's merge settings as the API shows them.
     *
     * @param strategy      {@code merge} or {@code rebase}
     * @param testCommand   the test command ({@code /bin/sh -c}), or null for none
     * @param testTimeoutMs how long a test may run, ms
     * @param maxAttempts   failed attempts before the entry waits for a person
     * @param autoResolve   {@code propose} (a person confirms safe proposals) or {@code apply} (the queue applies them)
     * @param regenerate    lockfile or generated file (name or path) → the command that regenerates it
     * @param review        {@code required} (a person approves each finished sandbox's change) or {@code auto}
     * @param target        where approved work goes: {@code local} (the merge queue) or {@code push} (a remote)
     * @param remote        the remote a {@code push} target pushes to; null: origin, or the only remote
     * @param pullRequest   whether a {@code push} target also opens a pull request (with gh)
     */
    public record SettingsView(
            String strategy,
            String testCommand,
            long testTimeoutMs,
            int maxAttempts,
            String autoResolve,
            java.util.Map<String, String> regenerate,
            String review,
            String target,
            String remote,
            boolean pullRequest) {
        static SettingsView of(dev.paddock.merge.MergeSettings s, java.util.Map<String, String> regenerate) {
            return new SettingsView(
                    s.strategy().id(),
                    s.hasTest() ? s.testCommand() : null,
                    s.testTimeout().toMillis(),
                    s.maxAttempts(),
                    s.autoResolve().id(),
                    regenerate,
                    s.review().id(),
                    s.target().kind().id(),
                    s.target().remote(),
                    s.target().pullRequest());
        }
    }

    /**
     * Body of {@code PUT /v1/merges/settings}: null fields keep their value; in {@code regenerate}, a file with a
     * blank command loses its command and files not named keep theirs.
     */
    public record SettingsRequest(
            String strategy,
            String testCommand,
            Long testTimeoutMs,
            Integer maxAttempts,
            String autoResolve,
            java.util.Map<String, String> regenerate,
            String review,
            String target,
            String remote,
            Boolean pullRequest) {
        /** A request without the review and the merge target's fields (kept as they are). */
        public SettingsRequest(
                String strategy,
                String testCommand,
                Long testTimeoutMs,
                Integer maxAttempts,
                String autoResolve,
                java.util.Map<String, String> regenerate) {
            this(strategy, testCommand, testTimeoutMs, maxAttempts, autoResolve, regenerate, null, null, null, null);
        }

        /** Whether it changes the merge target, its remote or its pull request. */
        boolean changesTarget() {
            return target != null || remote != null || pullRequest != null;
        }
    }

    /**
     * Optional body of cancel, retry, approve and reject.
     *
     * @param by who acts (shown in the event)
     * @param commit for approve: the commit the person reviewed (null: the one under review)
     * @param reason for reject: why (may be null)
     */
    record ActionRequest(String by, String commit, String reason) {}

    /** A typed merge target checked before anything changes. */
    private static void checkTarget(String target) throws ApiError {
        try {
            dev.paddock.merge.MergeTarget.Kind.of(target);
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest(e.getMessage());
        }
    }

    void handle(HttpExchange ex) throws ApiError, IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        try {
            if (path.equals(CONFLICTS)) {
                require(method, "GET", path);
                conflicts(ex);
                return;
            }
            List<String> seg = Arrays.stream(path.substring(MERGES.length()).split("/"))
                    .filter(s -> !s.isEmpty())
                    .toList();
            if (seg.size() == 1 && seg.get(0).equals("settings")) {
                Path repo = repo(HttpIo.query(ex, "repo"), true);
                switch (method) {
                    case "GET" ->
                        HttpIo.json(ex, 200, SettingsView.of(merges.settings(repo), merges.regenerateCommands(repo)));
                    case "PUT" -> {
                        SettingsRequest req = HttpIo.body(ex, SettingsRequest.class);
                        if (req == null) {
                            throw ApiError.badRequest("send {\"strategy\", \"testCommand\", \"testTimeoutMs\","
                                    + " \"maxAttempts\", \"autoResolve\", \"regenerate\", \"review\", \"target\","
                                    + " \"remote\", \"pullRequest\"} (any of them)");
                        }
                        java.util.Map<String, String> regen =
                                req.regenerate() == null ? java.util.Map.of() : req.regenerate();
                        for (String file : regen.keySet()) {
                            dev.paddock.merge.MergeService.regenerateFile(file);
                        }
                        checkTarget(req.target());
                        dev.paddock.merge.MergeSettings s = merges.configure(
                                repo,
                                req.strategy(),
                                req.testCommand(),
                                req.testTimeoutMs(),
                                req.maxAttempts(),
                                req.autoResolve(),
                                req.review());
                        for (java.util.Map.Entry<String, String> r : regen.entrySet()) {
                            merges.regenerate(repo, r.getKey(), r.getValue());
                        }
                        if (req.changesTarget()) {
                            s = merges.configureTarget(repo, req.target(), req.remote(), req.pullRequest());
                        }
                        HttpIo.json(ex, 200, SettingsView.of(s, merges.regenerateCommands(repo)));
                    }
                    default ->
                        throw new ApiError(405, "method " + method + " is not allowed on " + path + "; use GET or PUT");
                }
            } else if (seg.isEmpty()) {
                switch (method) {
                    case "GET" -> list(ex);
                    case "POST" -> enqueue(ex);
                    default ->
                        throw new ApiError(
                                405, "method " + method + " is not allowed on " + path + "; use GET or POST");
                }
            } else if (seg.size() == 2 && ACTIONS.contains(seg.get(1))) {
                require(method, "POST", path);
                long id = id(seg.get(0));
                ActionRequest req = HttpIo.body(ex, ActionRequest.class);
                String by =
                        req == null || req.by() == null || req.by().isBlank() ? SandboxRoutes.DEFAULT_WHO : req.by();
                MergeEntry e = switch (seg.get(1)) {
                    case "cancel" -> merges.cancel(id, by);
                    case "retry" -> merges.retry(id, by);
                    case "approve" -> merges.approvePolicy(id, by, req == null ? null : req.commit());
                    default -> merges.rejectPolicy(id, by, req == null ? null : req.reason());
                };
                HttpIo.json(ex, 200, MergeView.of(e, null, Instant.now()));
            } else if (seg.size() == 2 && seg.get(1).equals("review")) {
                require(method, "GET", path);
                review(ex, id(seg.get(0)));
            } else if (seg.size() == 1) {
                require(method, "GET", path);
                HttpIo.json(ex, 200, MergeView.of(merges.get(id(seg.get(0))), null, Instant.now()));
            } else {
                throw ApiError.notFound("no route " + method + " " + path);
            }
        } catch (PaddockException e) {
            throw map(e);
        }
    }

    private void list(HttpExchange ex) throws ApiError, IOException, PaddockException {
        Path repo = repo(HttpIo.query(ex, "repo"), true);
        int limit = DEFAULT_LIMIT;
        String l = HttpIo.query(ex, "limit");
        if (l != null) {
            try {
                limit = Integer.parseInt(l);
            } catch (NumberFormatException e) {
                throw ApiError.badRequest("limit must be a number: " + l);
            }
        }
        HttpIo.json(ex, 200, Map.of("merges", views(merges.list(repo, limit))));
    }

    /** Views with queue positions: 0 for the running entry, 1.. for queued ones in order. */
    static List<MergeView> views(List<MergeEntry> entries) {
        Instant now = Instant.now();
        Map<Long, Integer> positions = MergeService.positions(entries);
        List<MergeView> out = new ArrayList<>();
        for (MergeEntry e : entries) {
            out.add(MergeView.of(e, positions.get(e.id()), now));
        }
        return out;
    }

    private void enqueue(HttpExchange ex) throws ApiError, IOException, PaddockException {
        EnqueueRequest req = HttpIo.body(ex, EnqueueRequest.class);
        if (req == null
                || ((req.sandbox() == null || req.sandbox().isBlank())
                        && (req.repo() == null || req.branch() == null))) {
            throw ApiError.badRequest("send {\"sandbox\": \"ID\"} or {\"repo\": \"/abs/path\", \"branch\": \"name\"}");
        }
        String by = req.by() == null || req.by().isBlank() ? SandboxRoutes.DEFAULT_WHO : req.by();
        MergeEntry e = req.sandbox() != null && !req.sandbox().isBlank()
                ? merges.enqueueSandbox(req.sandbox(), by)
                : merges.enqueueBranch(repo(req.repo(), true), req.branch(), by);
        HttpIo.json(ex, 201, MergeView.of(e, null, Instant.now()));
    }

    private void review(HttpExchange ex, long id) throws ApiError, IOException, PaddockException {
        dev.paddock.merge.PolicyDiff d = merges.policyDiff(id);
        dev.paddock.merge.PolicyReview r = merges.review(id);
        HttpIo.json(
                ex,
                200,
                new MergeReviewView(
                        MergeView.of(merges.get(id), null, Instant.now()),
                        d.files(),
                        d.baseBranch(),
                        d.baseCommit(),
                        d.reviewCommit(),
                        d.text(),
                        d.truncated(),
                        r.approvedCommit(),
                        r.approvedBy(),
                        r.approvedAt()));
    }

    private void conflicts(HttpExchange ex) throws ApiError, IOException, PaddockException {
        Path repo = repo(HttpIo.query(ex, "repo"), false);
        List<Map<String, Object>> out = new ArrayList<>();
        for (MergeEntry e : merges.conflicted(repo)) {
            List<Map<String, Object>> files = new ArrayList<>();
            for (MergeStore.StoredConflict c : merges.conflictFiles(e.id())) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("path", c.path());
                f.put("kind", c.kind());
                f.put("class", c.conflictClass());
                f.put("resolvedBy", c.resolvedBy());
                f.put("resolvedAt", c.resolvedAt());
                files.add(f);
            }
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("entry", MergeView.of(e, null, Instant.now()));
            item.put("files", files);
            out.add(item);
        }
        HttpIo.json(ex, 200, Map.of("conflicts", out));
    }

    private static Path repo(String text, boolean required) throws ApiError {
        if (text == null || text.isBlank()) {
            if (required) {
                throw ApiError.badRequest("repo is missing: pass the repository's absolute path");
            }
            return null;
        }
        return HttpIo.repoPath(text);
    }

    private static long id(String text) throws ApiError {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw ApiError.notFound("no merge queue entry " + text + " (ids are numbers)");
        }
    }

    private static void require(String method, String expected, String path) throws ApiError {
        if (!method.equals(expected)) {
            throw new ApiError(405, "method " + method + " is not allowed on " + path + "; use " + expected);
        }
    }

    static ApiError map(PaddockException e) {
        if (e instanceof MergeException m) {
            return switch (m.kind()) {
                case NOT_FOUND -> ApiError.notFound(e.getMessage());
                case CONFLICT -> ApiError.conflict(e.getMessage());
                case BAD_REQUEST -> ApiError.badRequest(e.getMessage());
                case FAILED -> new ApiError(500, e.getMessage());
            };
        }
        if (e instanceof GitException || e instanceof UnknownRepositoryException) {
            return ApiError.notFound(e.getMessage());
        }
        return new ApiError(500, e.getMessage());
    }
}
