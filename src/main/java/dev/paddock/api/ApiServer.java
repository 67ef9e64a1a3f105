package dev.paddock.api;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.paddock.approval.ApprovalBroker;
import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.isolation.ApiRelays;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.settings.SettingsStore;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.status.UnknownRepositoryException;
import dev.paddock.worktree.GitException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paddock's HTTP API, bound to the loopback interface only (127.0.0.1): on the port this home's Paddock had last
 * time ({@code api-port}) when it is free, so that agents which outlived a restart keep a working
 * {@code PADDOCK_API}; else on a free port. The port is published in {@code instance.json} so CLI commands, and
 * hooks whose {@code PADDOCK_API} no longer answers, find it.
 *
 * <p>Every request needs a bearer token: the install's ({@code api-token}, for the CLI and the panel's
 * user), which may do everything, or a sandbox's own ({@code PADDOCK_TOKEN}, given to its agent), which may
 * only send that sandbox's heartbeats ({@code POST /v1/sandboxes/{id}/heartbeat}) and ask for its agent's
 * decisions ({@link ApprovalRoutes}), and gets 403 anywhere else. No token or an unknown one gets 401.
 *
 * <p>Routes: {@code GET /v1/health} (503 with {@code error} while the store cannot write); {@code GET /v1/status[?repo=PATH]} → {@link RepositoryStatus}
 * (with {@code render=json|text}: what {@code paddock status} prints, {@link CliText}); the
 * sandbox routes of {@link SandboxRoutes}, {@link CheckpointRoutes}, {@link DiffRoutes} and {@link PublishRoutes}; the settings routes of {@link SettingsRoutes}; the approval routes
 * of {@link ApprovalRoutes}; {@code POST /v1/hooks/claude/turn} ({@link TurnRoutes}); {@code PUT /v1/repositories/container-image} and {@code GET|PUT /v1/repositories/agent-flags} ({@link RepositoryRoutes}); the review routes of {@link ReviewRoutes}. Errors are
 * JSON objects {@code {"error": "..."}} with a 4xx or
 * 5xx status.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
    /** Workers for admitted quick requests. */
    private static final int WORKERS = 4;
    /** Connections the kernel queues while the dispatcher is busy accepting. */
    private static final int BACKLOG = 256;

    /** What the API asks of the running Paddock. */
    public interface Backend {
        /**
         * The status of the repository containing {@code repo}, or of the most recently opened one
         * when {@code repo} is null.
         *
         * @throws PaddockException a {@code GitException} or {@code UnknownRepositoryException} when there is
         *     no such repository (answered 404); anything else, such as a store failure, is answered 500
         */
        RepositoryStatus status(Path repo) throws PaddockException;

        /** Whether the Docker engine does not answer, or has not answered yet (a container's state is unknown). */
        default boolean engineAway() {
            return false;
        }

        /**
         * Whether the Docker engine {@code engine} (null or {@code local}: the docker CLI's choice) does not answer,
         * or has not answered yet.
         */
        default boolean engineAway(String engine) {
            return dev.paddock.isolation.Engines.isLocal(engine) && engineAway();
        }
    }

    private final HttpServer server;
    /** Reads requests (headers, then the whole body) and settles who sent them: see {@link #handle}. */
    private final ExecutorService readers;
    /** Answers the quick requests of admitted callers: heartbeats, reads, settings. */
    private final ExecutorService workers = Executors.newFixedThreadPool(WORKERS, Threads.numbered("api"));

    private final RequestIntake intake;
    private final Gate gate;
    private final Backend backend;
    private final SandboxRoutes sandboxRoutes;
    private final TurnRoutes turnRoutes;
    private final SettingsRoutes settingsRoutes;
    private final ApprovalRoutes approvalRoutes;
    private final RepositoryRoutes repositoryRoutes;
    private final String mode;
    /** Why the store cannot write, if it cannot ({@link #watchStore}): {@code /v1/health} then answers 503. */
    private volatile java.util.function.Supplier<java.util.Optional<String>> storeProblem = java.util.Optional::empty;
    /** The merge queue's routes, once the host hands them the services ({@link #serveMerges}); 503 before. */
    private volatile MergeRoutes mergeRoutes;
    /** The review routes, once the host hands them the service ({@link #serveReviews}); 503 before. */
    private volatile ReviewRoutes reviewRoutes;
    /** The checkpoint routes, once the host hands them the service ({@link #serveCheckpoints}); 503 before. */
    private volatile CheckpointRoutes checkpointRoutes;
    /** The diff routes, once the host hands them the service ({@link #serveDiffs}); 503 before. */
    private volatile DiffRoutes diffRoutes;
    /** The push and pull request routes, once the host hands them the service ({@link #servePublishing}). */
    private volatile PublishRoutes publishRoutes;
    /** The shared layer routes, once the host hands them the service ({@link #serveLayers}); 503 before. */
    private volatile LayerRoutes layerRoutes;
    /**
     * Threads for slow requests of the install token: as many as there are at once (each waits on git or a
     * dying process; only the install's owner can send them).
     */
    private final ExecutorService slow = Executors.newCachedThreadPool(Threads.numbered("api-slow"));
    /**
     * Threads for requests that wait for a person (an agent's request the policy asks about): one per
     * waiting request, for as long as it waits (10 minutes by default).
     */
    private final ExecutorService waiting = Executors.newCachedThreadPool(Threads.numbered("api-wait"));

    private ApiServer(
            HttpServer server,
            ExecutorService readers,
            ApiToken token,
            Backend backend,
            SandboxService sandboxes,
            SettingsStore settings,
            ApprovalBroker approvals,
            String mode) {
        this.server = server;
        this.readers = readers;
        this.intake = new RequestIntake(server.getAddress().getPort());
        this.gate = new Gate(token, sandboxes, Clock.systemUTC());
        this.backend = backend;
        this.sandboxRoutes = new SandboxRoutes(sandboxes, approvals, backend::engineAway);
        this.turnRoutes = new TurnRoutes(sandboxes);
        this.settingsRoutes = new SettingsRoutes(settings);
        this.approvalRoutes = new ApprovalRoutes(approvals);
        this.repositoryRoutes = new RepositoryRoutes(sandboxes);
        this.mode = mode;
    }

    /**
     * Starts the API on 127.0.0.1 and a free port.
     *
     * @param backend answers {@code /v1/status}
     * @param sandboxes answers {@code /v1/sandboxes/...} and knows the sandboxes' own tokens
     * @param settings answers {@code /v1/settings/...} (install token only)
     * @param mode {@code panel} or {@code serve}, reported by {@code /v1/health}
     * @throws IOException when no loopback port can be bound
     */
    public static ApiServer start(
            ApiToken token, Backend backend, SandboxService sandboxes, SettingsStore settings, String mode)
            throws IOException {
        return start(token, backend, sandboxes, settings, null, mode);
    }

    /**
     * Starts the API on 127.0.0.1 and a free port, with the approval routes.
     *
     * @param approvals answers {@code /v1/decide}, {@code /v1/hooks/claude} and {@code /v1/approvals}; null:
     *     those answer 503
     * @throws IOException when no loopback port can be bound
     */
    public static ApiServer start(
            ApiToken token,
            Backend backend,
            SandboxService sandboxes,
            SettingsStore settings,
            ApprovalBroker approvals,
            String mode)
            throws IOException {
        return start(token, backend, sandboxes, settings, approvals, mode, 0);
    }

    /**
     * Starts the API on 127.0.0.1, on {@code preferredPort} when it is free (the port this home's Paddock had
     * last time: agents that outlived it keep {@code PADDOCK_API}), else on a free port.
     *
     * @param preferredPort 0 for any free port
     * @throws IOException when no loopback port can be bound
     */
    public static ApiServer start(
            ApiToken token,
            Backend backend,
            SandboxService sandboxes,
            SettingsStore settings,
            ApprovalBroker approvals,
            String mode,
            int preferredPort)
            throws IOException {
        ServerLimits.apply();
        HttpServer server = bind(preferredPort);
        ExecutorService readers = ServerLimits.readers(Threads.numbered("api-read"));
        server.setExecutor(readers);
        ApiServer api = new ApiServer(server, readers, token, backend, sandboxes, settings, approvals, mode);
        // Every path, not just /v1/: the token check and JSON errors then cover the whole port (the
        // JDK's own 404 for a path without a context is HTML and asks for no token).
        server.createContext("/", api::handle);
        server.start();
        LOG.info("API listening on {}", server.getAddress());
        return api;
    }

    private static HttpServer bind(int preferredPort) throws IOException {
        if (preferredPort > 0 && preferredPort <= 65535) {
            try {
                return HttpServer.create(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), preferredPort), BACKLOG);
            } catch (java.net.BindException taken) {
                LOG.info(
                        "The API's port {} of the last start is taken ({}); using another one (agents still"
                                + " running find it through instance.json)",
                        preferredPort,
                        taken.getMessage());
            }
        }
        return HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), BACKLOG);
    }

    /**
     * Takes connections relayed from the sandboxes' API sockets ({@link ApiRelays}) from now on: each counts for
     * its sandbox alone, and a hook signs {@link HookAuth#SOCKET_ADDRESS} there.
     */
    public void serveRelays(ApiRelays relays) {
        gate.relays(relays);
    }

    /** Serves the checkpoint routes ({@link CheckpointRoutes}) from now on; 503 before. */
    public void serveCheckpoints(dev.paddock.checkpoint.CheckpointService checkpoints) {
        this.checkpointRoutes = new CheckpointRoutes(checkpoints);
    }

    /** Serves the diff routes ({@link DiffRoutes}) from now on; 503 before. */
    public void serveDiffs(dev.paddock.diff.DiffService diffs) {
        this.diffRoutes = new DiffRoutes(diffs);
    }

    /** Serves the shared layer routes ({@link LayerRoutes}) from now on; 503 before. */
    public void serveLayers(dev.paddock.layer.SharedLayers layers, dev.paddock.sandbox.SandboxService sandboxes) {
        this.layerRoutes = new LayerRoutes(layers, sandboxes);
    }

    /** Serves the push and pull request routes ({@link PublishRoutes}) from now on; 503 before. */
    public void servePublishing(dev.paddock.publish.PublishService publish) {
        this.publishRoutes = new PublishRoutes(publish);
    }

    /** Serves {@code GET /v1/sandboxes/{id}/compare} from now on; 503 before. */
    public void serveComparisons(dev.paddock.compare.GroupComparer comparer) {
        sandboxRoutes.serveComparisons(comparer);
    }

    /** Serves {@code /v1/reviews} ({@link ReviewRoutes}) from now on; 503 before. */
    public void serveReviews(dev.paddock.review.ReviewService reviews) {
        this.reviewRoutes = new ReviewRoutes(reviews);
    }

    /** Serves {@code /v1/merges} and {@code /v1/conflicts} ({@link MergeRoutes}) from now on. */
    public void serveMerges(dev.paddock.merge.MergeService merges, dev.paddock.merge.ResolutionService resolutions) {
        this.mergeRoutes = new MergeRoutes(merges, resolutions);
    }

    /**
     * Makes {@code GET /v1/health} answer 503 with {@code problem}'s text while it has one (the store cannot write:
     * a full disk, a closed store), so a monitor sees what agents' heartbeats and hooks would run into.
     */
    public void watchStore(java.util.function.Supplier<java.util.Optional<String>> problem) {
        this.storeProblem = problem;
    }

    /** The bound address (always a loopback address). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /**
     * Takes one request, on a reader thread (the JDK server reads the headers on the thread it hands the
     * exchange to): checks its {@code Host}, reads its whole body and settles who sent it, so a slow or
     * unknown client never reaches a worker. Admitted requests then go on on a worker; those that may take
     * seconds (creating, stopping, retrying, removing sandboxes) or wait for a person on threads of their own,
     * so they never hold up heartbeats, hooks and reads, which must answer in milliseconds.
     */
    private void handle(HttpExchange ex) throws IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        Caller caller;
        try {
            String relayed = gate.relayed(ex);
            if (relayed == null) {
                intake.checkHost(ex);
            } else {
                RequestIntake.checkRelayed(ex);
            }
            boolean keyed = Gate.usesHookKey(ex);
            Caller byToken = keyed ? null : gate.bearer(ex);
            byte[] body = intake.body(ex);
            caller = keyed ? gate.hookKey(ex, body, relayed) : byToken;
            Gate.throughOwnSocket(caller, relayed);
            gate.permit(caller, method, path);
            ex.setStreams(new ByteArrayInputStream(body), null);
        } catch (ApiError e) {
            // Then closed: a client that sends request after request on one connection and never reads the
            // refusals could otherwise fill the socket's buffers and hold this thread in a write.
            ex.getResponseHeaders().set("Connection", "close");
            answer(ex, e.status(), HttpIo.error(e.getMessage(), e.code()));
            return;
        } catch (IOException e) {
            LOG.debug("API request {} not read: {}", ex.getRequestURI(), e.toString());
            ex.close();
            return;
        } catch (RuntimeException e) {
            LOG.warn("API request {} failed", ex.getRequestURI(), e);
            answer(ex, 500, HttpIo.error("internal error: " + e));
            return;
        }
        // One answer a connection, for everyone: an agent that sent request after request without reading the
        // answers would otherwise fill the socket's buffers and hold a worker in a write for good; and a client
        // that keeps connections alive (HttpURLConnection, the CLI's) must never send a request on one this
        // server has meanwhile closed. Connecting on loopback costs a fraction of a millisecond.
        ex.getResponseHeaders().set("Connection", "close");
        ExecutorService own = ApprovalRoutes.waits(method, path)
                ? waiting
                : caller.isInstall()
                                && (SandboxRoutes.isSlow(method, path)
                                        || CheckpointRoutes.isSlow(method, path)
                                        || DiffRoutes.isSlow(method, path)
                                        || PublishRoutes.isSlow(method, path)
                                        || LayerRoutes.isSlow(method, path)
                                        || ReviewRoutes.isSlow(method, path))
                        ? slow
                        : workers;
        try {
            own.execute(() -> serve(ex, caller));
        } catch (RejectedExecutionException closing) {
            ex.close();
        }
    }

    private void serve(HttpExchange ex, Caller caller) {
        // The 500 answer is sent inside the try-with-resources: its catch clause would run after the
        // exchange is closed, and the client would get a dropped connection instead of JSON.
        try (ex) {
            try {
                route(ex, caller);
            } catch (ApiError e) {
                HttpIo.json(ex, e.status(), HttpIo.error(e.getMessage(), e.code()));
            } catch (RuntimeException e) {
                LOG.warn("API request {} failed", ex.getRequestURI(), e);
                HttpIo.json(ex, 500, HttpIo.error("internal error: " + e));
            }
        } catch (IOException e) {
            LOG.debug("API answer to {} not sent: {}", ex.getRequestURI(), e.toString());
        }
    }

    private static void answer(HttpExchange ex, int status, Object body) throws IOException {
        try (ex) {
            HttpIo.json(ex, status, body);
        }
    }

    private void route(HttpExchange ex, Caller caller) throws IOException, ApiError {
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod();
        if (TurnRoutes.matches(path)) {
            turnRoutes.handle(ex, caller);
            return;
        }
        if (CheckpointRoutes.matches(path)) {
            CheckpointRoutes routes = checkpointRoutes;
            if (routes == null) {
                throw new ApiError(503, "checkpoints are not served by this Paddock");
            }
            routes.handle(ex, caller);
        } else if (DiffRoutes.matches(path)) {
            DiffRoutes routes = diffRoutes;
            if (routes == null) {
                throw new ApiError(503, "diffs are not served by this Paddock");
            }
            routes.handle(ex);
        } else if (LayerRoutes.matches(path)) {
            LayerRoutes routes = layerRoutes;
            if (routes == null) {
                throw new ApiError(503, "shared layers are not served by this Paddock");
            }
            routes.handle(ex, caller);
        } else if (PublishRoutes.matches(path)) {
            PublishRoutes routes = publishRoutes;
            if (routes == null) {
                throw new ApiError(503, "pushing is not served by this Paddock");
            }
            routes.handle(ex, caller);
        } else if (SandboxRoutes.matches(path)) {
            sandboxRoutes.handle(ex, caller);
        } else if (SettingsRoutes.matches(path)) {
            settingsRoutes.handle(ex);
        } else if (ApprovalRoutes.matches(path)) {
            approvalRoutes.handle(ex, caller);
        } else if (MergeRoutes.matches(path)) {
            MergeRoutes routes = mergeRoutes;
            if (routes == null) {
                throw new ApiError(503, "the merge queue is not running in this Paddock");
            }
            routes.handle(ex);
        } else if (ReviewRoutes.matches(path)) {
            ReviewRoutes routes = reviewRoutes;
            if (routes == null) {
                throw new ApiError(503, "reviews are not served by this Paddock");
            }
            routes.handle(ex);
        } else if (RepositoryRoutes.matches(path)) {
            repositoryRoutes.handle(ex);
        } else if (path.equals("/v1/health") && method.equals("GET")) {
            java.util.Optional<String> problem = storeProblem.get();
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("ok", problem.isEmpty());
            body.put("mode", mode);
            body.put("pid", ProcessHandle.current().pid());
            body.put("time", Instant.now().toString());
            problem.ifPresent(p -> body.put("error", p));
            HttpIo.json(ex, problem.isEmpty() ? 200 : 503, body);
        } else if (path.equals("/v1/status") && method.equals("GET")) {
            status(ex);
        } else if (path.equals("/v1/status") || path.equals("/v1/health")) {
            throw new ApiError(405, "method " + method + " is not allowed on " + path + "; use GET");
        } else {
            throw ApiError.notFound("no route " + method + " " + path);
        }
    }

    private void status(HttpExchange ex) throws IOException, ApiError {
        String repo = HttpIo.query(ex, "repo");
        String render = CliText.asked(ex);
        try {
            Path path = repo == null ? null : HttpIo.repoPath(repo);
            RepositoryStatus status = backend.status(path);
            if (render != null) {
                CliText.answer(ex, CliText.status(ex, render, status));
                return;
            }
            HttpIo.json(ex, 200, status);
        } catch (GitException | UnknownRepositoryException e) {
            throw ApiError.notFound(e.getMessage());
        } catch (PaddockException e) {
            throw new ApiError(500, e.getMessage());
        }
    }

    @Override
    public void close() {
        server.stop(0);
        readers.shutdownNow();
        workers.shutdownNow();
        slow.shutdownNow();
        waiting.shutdownNow();
        try {
            workers.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
