package dev.paddock;

import dev.paddock.api.ApiPort;
import dev.paddock.api.ApiServer;
import dev.paddock.api.ApiToken;
import dev.paddock.api.HookAuth;
import dev.paddock.api.InstanceFile;
import dev.paddock.approval.HookScript;
import dev.paddock.common.PaddockException;
import dev.paddock.repo.RepoRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.status.UnknownRepositoryException;
import dev.paddock.status.Workspace;
import dev.paddock.store.DatabaseInUseException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Paddock (the panel or {@code paddock serve}): the store and services from
 * {@link Wiring}, the background probes, and the loopback API announced in {@code instance.json}.
 */
public final class Host implements AutoCloseable {
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private static final Logger LOG = LoggerFactory.getLogger(Host.class);
    /** How long the panel waits before probing Docker and bubblewrap (after its first frame). */
    static final Duration PANEL_PROBE_DELAY = Duration.ofMillis(2500);

    private final Wiring wiring;
    private final ApiServer api;
    private final InstanceFile instance;
    private volatile Runnable whenStoreLost = () -> {};

    private Host(Wiring wiring, ApiServer api, InstanceFile instance) {
        this.wiring = wiring;
        this.api = api;
        this.instance = instance;
    }

    /**
     * Opens the store, starts the environment probes and the API, writes {@code instance.json}, and
     * starts the sandbox supervisor, then the reconciler (orphans, vanished worktrees, removals to finish).
     * A store on a server is joined first ({@code Database.join}): this Paddock supervises the sandboxes it holds
     * ({@code sandbox.SandboxOwners}); the coordinator among the Paddocks sharing the store also runs the store-wide
     * work, and one that loses the coordinator's lease to another stops.
     *
     * @param mode {@code panel} or {@code serve}
     * @throws PaddockException when the store is held by another Paddock or cannot be opened, or the
     *     API cannot start
     */
    public static Host start(PaddockHome home, String mode) throws PaddockException {
        return start(home, mode, System.getenv());
    }

    /**
     * {@link #start(PaddockHome, String)} with {@code environment} as Paddock's own environment where agents take
     * theirs from it (their programs on its {@code PATH}, the variables their presets pass through).
     */
    public static Host start(PaddockHome home, String mode, Map<String, String> environment) throws PaddockException {
        Wiring wiring;
        try {
            wiring = Wiring.open(home, environment);
        } catch (DatabaseInUseException e) {
            throw heldBy(home, e);
        }
        ApiServer api = null;
        java.util.concurrent.atomic.AtomicReference<Host> started = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicBoolean lostEarly = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            // A store on a server: this Paddock joins the others that share it; the coordinator among them runs the
            // store-wide work (an H2 file: this Paddock, by its lock, and this does nothing).
            java.util.concurrent.atomic.AtomicBoolean singletons = new java.util.concurrent.atomic.AtomicBoolean();
            boolean coordinator = wiring.database()
                    .join(
                            HomeStart.hostName(),
                            () -> {
                                Host h = started.get();
                                if (h != null) {
                                    LOG.info(
                                            "This Paddock is the coordinator of the store {} now",
                                            wiring.database().name());
                                    startStoreWideWork(wiring, singletons);
                                }
                            },
                            () -> {
                                Host h = started.get();
                                if (h == null) {
                                    lostEarly.set(true);
                                } else {
                                    h.stopAfterLosingStore();
                                }
                            });
            wiring.environment().start("panel".equals(mode) ? PANEL_PROBE_DELAY : Duration.ZERO);
            wiring.engines().watchAll("panel".equals(mode) ? PANEL_PROBE_DELAY : Duration.ZERO);
            ApiToken token = ApiToken.loadOrCreate(home.tokenFile());
            wiring.approvals().start();
            api = ApiServer.start(
                    token,
                    new ApiServer.Backend() {
                        @Override
                        public RepositoryStatus status(Path repo) throws PaddockException {
                            return Host.status(wiring.workspace(), repo);
                        }

                        @Override
                        public boolean engineAway() {
                            return !wiring.environment().snapshot().docker().reachable();
                        }

                        @Override
                        public boolean engineAway(String engine) {
                            if (dev.paddock.isolation.Engines.isLocal(engine)) {
                                return engineAway();
                            }
                            var e = wiring.engines().engine(engine);
                            return e == null || e.runtime().stateUnknown();
                        }
                    },
                    wiring.sandboxService(),
                    wiring.settings(),
                    wiring.approvals(),
                    mode,
                    ApiPort.read(home.apiPortFile()));
            ApiPort.write(home.apiPortFile(), api.address().getPort());
            api.watchStore(wiring.database().health()::problem);
            InstanceFile instance = new InstanceFile(
                    ProcessHandle.current().pid(), api.address().getPort(), mode, Instant.now());
            instance.write(home.instanceFile());
            wiring.setApiUrl("http://127.0.0.1:" + instance.port());
            wiring.setHookKeys(id -> HookAuth.sandboxKey(token.value(), id));
            wiring.serveSandboxSockets(instance.port(), api::serveRelays);
            writeHookScript(home, wiring.settings().get(dev.paddock.settings.SettingsStore.APPROVAL_TIMEOUT_MS));
            wiring.supervisor().start();
            if (coordinator) {
                startStoreWideWork(wiring, singletons);
            }
            api.serveMerges(wiring.merges(), wiring.resolutions());
            api.serveReviews(wiring.reviews());
            api.serveComparisons(wiring.comparisons());
            wiring.checkpoints().start();
            wiring.timedCheckpoints().start();
            api.serveCheckpoints(wiring.checkpoints());
            api.serveDiffs(wiring.diffs());
            api.servePublishing(wiring.publish());
            api.serveLayers(wiring.layers(), wiring.sandboxService());
            Thread reclaim = new Thread(wiring::reclaimLayers, "layers-reclaim");
            reclaim.setDaemon(true);
            reclaim.start();
            Host host = new Host(wiring, api, instance);
            started.set(host);
            if (wiring.database().coordinator()) {
                startStoreWideWork(wiring, singletons); // became it while starting
            }
            if (lostEarly.get()) {
                host.stopAfterLosingStore();
                throw new PaddockException("This Paddock lost the store "
                        + wiring.database().name() + " to another Paddock while starting; it stopped.");
            }
            LOG.info(
                    "Paddock {} started: home {}, store {}, API 127.0.0.1:{}",
                    mode,
                    home,
                    wiring.database().name(),
                    instance.port());
            return host;
        } catch (IOException e) {
            closeAfterFailedStart(api, wiring);
            throw new PaddockException("Cannot start Paddock's local API: " + e.getMessage(), e);
        } catch (PaddockException | RuntimeException e) {
            closeAfterFailedStart(api, wiring);
            throw e;
        }
    }

    /**
     * Starts what one Paddock runs for the whole store (once): the store's maintenance, event retention, the
     * reconciler (orphans, vanished worktrees, removals to finish) and the merge queue. On a store several Paddocks
     * share, the coordinator alone runs it ({@code store.StoreLease}).
     */
    private static void startStoreWideWork(Wiring wiring, java.util.concurrent.atomic.AtomicBoolean once) {
        if (!once.compareAndSet(false, true)) {
            return;
        }
        wiring.database().startMaintenance();
        wiring.eventRetention().start();
        wiring.reconciler().start();
        wiring.merges().queue().start();
    }

    /**
     * Why the store of {@code home} cannot be opened when another process holds it: names the Paddock running on
     * this home (its mode and pid, from a live {@code instance.json}), e.g. "Another Paddock (`paddock serve`,
     * pid 4242) is running on this home (/home/ann/.paddock) and holds its store /home/ann/.paddock/paddock.mv.db.
     * Use that one, or start with --home DIR for a separate store."; else {@code e} itself (the holder has not
     * written its {@code instance.json} yet).
     */
    static DatabaseInUseException heldBy(PaddockHome home, DatabaseInUseException e) {
        return InstanceFile.live(home.instanceFile())
                .filter(i -> i.pid() != ProcessHandle.current().pid())
                .map(i -> new DatabaseInUseException(
                        "Another Paddock ("
                                + ("serve".equals(i.mode()) ? "`paddock serve`" : "a panel") + ", pid " + i.pid()
                                + ") is running on this home (" + home + ") and holds its store " + home.databaseBase()
                                + ".mv.db. Use that one, or start with --home DIR for a separate store.",
                        e))
                .orElse(e);
    }

    /** Writes the light Claude Code hook for this home; a failure is logged, not fatal (the JVM hook remains). */
    private static void writeHookScript(PaddockHome home, long approvalTimeoutMs) {
        try {
            HookScript.write(home.dir(), approvalTimeoutMs);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot write the Claude Code hook script {}: {}", HookScript.path(home.dir()), e.toString());
        }
    }

    /** Stops what a failed start had already started: a server left running would outlive the store. */
    private static void closeAfterFailedStart(ApiServer api, Wiring wiring) {
        if (api != null) {
            api.close();
        }
        wiring.close();
    }

    private static RepositoryStatus status(Workspace workspace, Path repo) throws PaddockException {
        if (repo != null) {
            return workspace.statusOf(repo);
        }
        Optional<RepoRecord> current = workspace.mostRecentWatched();
        if (current.isEmpty()) {
            throw new UnknownRepositoryException("No repository is open in the running Paddock; pass --repo PATH.");
        }
        return workspace.status(current.get().id());
    }

    public Wiring wiring() {
        return wiring;
    }

    /** This Paddock as the panel sees it: its backends, whose closing stops this Host. */
    public dev.paddock.ui.shell.PanelBackends panel() {
        return wiring.panelBackends(this);
    }

    /** The loopback port of the API. */
    public int apiPort() {
        return instance.port();
    }

    /**
     * Runs {@code action} after this Paddock stopped because another one owns its store on a server now (see
     * {@code store.StoreLease}); {@code paddock serve} then exits with code 1, the panel's process too.
     */
    public void whenStoreLost(Runnable action) {
        whenStoreLost = action;
    }

    /** The lease on the store is lost: stop supervising at once (close), then tell whoever started this Paddock. */
    private void stopAfterLosingStore() {
        LOG.error(
                "This Paddock ({}) lost the coordinator's lease of the store {} (another Paddock holds it, or the"
                        + " server did not answer for a whole lease): it stops, so that one coordinator alone runs the"
                        + " store-wide work",
                instance.mode(),
                wiring.database().name());
        close();
        whenStoreLost.run();
    }

    /** Stops the API, removes {@code instance.json}, stops the services and closes the store. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return; // once: the panel's backends and whoever started it may both close it
        }
        // First: requests waiting for a person are released without being cancelled (they stay pending).
        wiring.approvals().close();
        api.close();
        instance.deleteIfOurs(wiring.home().instanceFile());
        wiring.close();
        LOG.info("Paddock {} stopped", instance.mode());
    }
}
