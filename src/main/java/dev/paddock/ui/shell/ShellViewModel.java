package dev.paddock.ui.shell;

import dev.paddock.ui.conflicts.MergeConflictBackend;
import dev.paddock.Host;
import dev.paddock.settings.SettingsStore;
import dev.paddock.common.PaddockException;
import dev.paddock.repo.RepoRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.EnvironmentMonitor;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.status.Workspace;
import dev.paddock.ui.approvals.BrokerApprovalBackend;
import dev.paddock.ui.common.UiExecutor;
import dev.paddock.ui.dashboard.DashboardViewModel;
import dev.paddock.ui.dashboard.StatusSource;
import dev.paddock.ui.sandboxes.ServiceSandboxBackend;
import dev.paddock.worktree.GitException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The panel's shell: starting Paddock (store, API, probes) in the background, the registered
 * repositories, which one is shown, and the environment for the status bar. Commands run off the
 * FX thread; properties change on it.
 */
public final class ShellViewModel implements AutoCloseable {
    // Looked up when needed: the first logger initialises Logback, which the first frame must not wait for.
    private static Logger log() {
        return LoggerFactory.getLogger(ShellViewModel.class);
    }

    /** Where the panel is in its start-up. */
    public enum Phase { STARTING, READY, FAILED }

    // Properties
    private final ReadOnlyObjectWrapper<Phase> phase = new ReadOnlyObjectWrapper<>(Phase.STARTING);
    private final ReadOnlyStringWrapper startupError = new ReadOnlyStringWrapper();
    private final ObservableList<RepoRecord> recents = FXCollections.observableArrayList();
    private final ObservableList<RepoRecord> recentsView = FXCollections.unmodifiableObservableList(recents);
    private final ReadOnlyObjectWrapper<RepoRecord> current = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper openError = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<EnvironmentMonitor.Snapshot> environment = new ReadOnlyObjectWrapper<>();
    private final DashboardViewModel dashboard = new DashboardViewModel();

    private volatile Host host;
    private volatile ServiceSandboxBackend sandboxBackend;
    private volatile BrokerApprovalBackend approvalBackend;
    private volatile MergeConflictBackend conflictBackend;
    private volatile dev.paddock.ui.mergequeue.ServiceMergeQueueBackend mergeQueueBackend;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile CompletableFuture<Host> hostFuture;

    public ReadOnlyObjectProperty<Phase> phaseProperty() {
        return phase.getReadOnlyProperty();
    }

    /** Why the panel could not start (store in use, home not writable, ...), or null. */
    public ReadOnlyStringProperty startupErrorProperty() {
        return startupError.getReadOnlyProperty();
    }

    /** Registered repositories, most recently opened first. */
    public ObservableList<RepoRecord> recents() {
        return recentsView;
    }

    /** The repository shown, or null while none is open. */
    public ReadOnlyObjectProperty<RepoRecord> currentProperty() {
        return current.getReadOnlyProperty();
    }

    /** Why the last attempt to open a repository failed, or null. */
    public ReadOnlyStringProperty openErrorProperty() {
        return openError.getReadOnlyProperty();
    }

    /** True while a repository is being opened. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Docker engine and bubblewrap, for the status bar (null until the first probe). */
    public ReadOnlyObjectProperty<EnvironmentMonitor.Snapshot> environmentProperty() {
        return environment.getReadOnlyProperty();
    }

    /** Paddock's home directory once started (global policy, hook script), else null. */
    public Path paddockHome() {
        Host h = host;
        return h == null ? null : h.wiring().home().dir();
    }

    /** The merge settings of the repositories, once Paddock started; else null. */
    public dev.paddock.ui.mergesettings.MergeSettingsBackend mergeSettings() {
        Host h = host;
        return h == null ? null : new dev.paddock.ui.mergesettings.ServiceMergeSettingsBackend(h.wiring().merges());
    }

    /** The dashboard's ViewModel. */
    public DashboardViewModel dashboard() {
        return dashboard;
    }

    // Commands ----------------------------------------------------------------------------------

    /**
     * Starts Paddock (store, API, probes) on a background thread; see {@link #start(CompletableFuture, Path)}.
     */
    public CompletableFuture<Void> start(PaddockHome home, Path repo) {
        return start(startHost(home), repo);
    }

    /**
     * Paddock's approval timeout in ms (setting {@code approval.timeoutMs}); its default when Paddock is not
     * running or the store cannot be read. Reads the store: call it off the FX thread.
     */
    public long approvalTimeoutMs() {
        Host h = host;
        try {
            return h == null ? SettingsStore.APPROVAL_TIMEOUT_MS.defaultValue()
                    : h.wiring().settings().get(SettingsStore.APPROVAL_TIMEOUT_MS);
        } catch (dev.paddock.store.StoreException e) {
            return SettingsStore.APPROVAL_TIMEOUT_MS.defaultValue();
        }
    }

    /**
     * Starts Paddock on its own thread ({@code host-start}) so that the store opens while JavaFX starts.
     *
     * @return completes with the running host, or with the reason it could not start
     */
    public static CompletableFuture<Host> startHost(PaddockHome home) {
        CompletableFuture<Host> future = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                future.complete(Host.start(home, "panel"));
            } catch (Throwable e) {
                future.completeExceptionally(e);
            }
        }, "host-start");
        t.setDaemon(true);
        t.start();
        return future;
    }

    /**
     * Waits (off the FX thread) for {@code starting}, then opens {@code repo} (errors shown on the welcome
     * page), or the repository of the current directory when {@code repo} is null (silently skipped when
     * the current directory is not in one).
     *
     * @return completes on the FX thread once start-up finished, either way
     */
    public CompletableFuture<Void> start(CompletableFuture<Host> starting, Path repo) {
        hostFuture = starting;
        CompletableFuture<Void> done = new CompletableFuture<>();
        Path target = repo != null ? repo : Path.of("").toAbsolutePath();
        UiExecutor.run(() -> {
            Host h = join(starting);
            host = h;
            sandboxBackend = new ServiceSandboxBackend(h.wiring());
            approvalBackend = new BrokerApprovalBackend(h.wiring().approvals(), h.wiring().bus());
            conflictBackend = new MergeConflictBackend(h.wiring().merges(), h.wiring().resolutions(), h.wiring().bus(),
                    System.getProperty("user.name", "someone") + " in the panel");
            mergeQueueBackend = new dev.paddock.ui.mergequeue.ServiceMergeQueueBackend(h.wiring().merges(),
                    h.wiring().bus(), System.getProperty("user.name", "someone") + " in the panel");
            h.wiring().environment().addListener(s -> Platform.runLater(() -> environment.set(s)));
            return tryOpen(h.wiring().workspace(), target, repo != null);
        }, opened -> {
            environment.set(host.wiring().environment().snapshot());
            dashboard.containers().connect(host.wiring().containers().metrics());
            phase.set(Phase.READY);
            showOpened(opened);
            done.complete(null);
        }, error -> {
            // Logback's stderr line reads "paddock: cannot start: another Paddock (...) is running on this home ...".
            log().error("{}", failureLine(error.getMessage()), error);
            startupError.set(error.getMessage());
            phase.set(Phase.FAILED);
            done.complete(null);
        });
        return done;
    }

    /**
     * The one line saying why the panel could not start, after Logback's "paddock: " on stderr: "cannot start: "
     * and the reason with its first letter in lower case ("cannot start: another Paddock (`paddock serve`, pid 42)
     * is running on this home ..."); a reason that already begins with "Cannot start" is not prefixed again.
     */
    static String failureLine(String reason) {
        if (reason == null || reason.isBlank()) {
            return "cannot start (no reason given; see the log)";
        }
        String line = reason.length() > 1 && Character.isUpperCase(reason.charAt(0))
                && Character.isLowerCase(reason.charAt(1))
                ? Character.toLowerCase(reason.charAt(0)) + reason.substring(1) : reason;
        return line.startsWith("cannot start") ? line : "cannot start: " + line;
    }

    private static Host join(CompletableFuture<Host> starting) throws Exception {
        try {
            return starting.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Opens (registers and shows) the repository containing {@code path}. */
    public CompletableFuture<Void> open(Path path) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Host h = host;
        if (h == null) {
            done.complete(null);
            return done;
        }
        busy.set(true);
        UiExecutor.run(() -> tryOpen(h.wiring().workspace(), path, true), opened -> {
            busy.set(false);
            showOpened(opened);
            done.complete(null);
        }, error -> {
            busy.set(false);
            openError.set(error.getMessage());
            done.complete(null);
        });
        return done;
    }

    /** Shows a registered repository. */
    public CompletableFuture<Void> select(RepoRecord repo) {
        if (repo == null || current.get() != null && current.get().id() == repo.id()) {
            return CompletableFuture.completedFuture(null);
        }
        return open(repo.path());
    }

    /** Refreshes the dashboard now (F5). */
    public void refresh() {
        dashboard.refresh();
        Host h = host;
        RepoRecord r = current.get();
        if (h != null && r != null) {
            h.wiring().workspace().monitor(r.id()).ifPresent(m -> m.poke());
        }
    }

    /** Result of an open attempt, computed off the FX thread. */
    private record Opened(RepoRecord repo, List<RepoRecord> recents, String error) {
    }

    private static Opened tryOpen(Workspace workspace, Path path, boolean reportErrors) throws PaddockException {
        RepoRecord repo = null;
        String error = null;
        try {
            repo = workspace.open(path);
        } catch (GitException e) {
            if (reportErrors) {
                error = e.getMessage();
            }
        }
        return new Opened(repo, workspace.recent(), error);
    }

    private void showOpened(Opened opened) {
        recents.setAll(opened.recents());
        openError.set(opened.error());
        if (opened.repo() == null) {
            return;
        }
        RepoRecord repo = opened.repo();
        current.set(repo);
        dashboard.sandboxPanel().connect(sandboxBackend, repo);
        dashboard.approvals().connect(approvalBackend, repo.id());
        dashboard.conflicts().connect(conflictBackend);
        dashboard.mergeQueue().connect(mergeQueueBackend, repo.path());
        Workspace ws = host.wiring().workspace();
        dev.paddock.events.EventBus bus = host.wiring().bus();
        dashboard.show(new StatusSource() {
            @Override
            public RepositoryStatus load() throws PaddockException {
                return ws.status(repo.id());
            }

            @Override
            public Runnable onChange(Runnable callback) {
                // Every state change of a sandbox, approval or merge of this repository is an event; what changes
                // on disk comes from the worktree monitor.
                dev.paddock.events.EventBus.Subscription events = bus.subscribe(
                        e -> e.repositoryId() == null || e.repositoryId() == repo.id(), e -> callback.run());
                Runnable disk = ws.monitor(repo.id()).map(m -> m.addListener(s -> callback.run())).orElse(() -> { });
                return () -> {
                    events.close();
                    disk.run();
                };
            }
        });
    }

    /** Stops refreshing and shuts Paddock down (API, monitors, store). Safe to call more than once. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        dashboard.close();
        Host h = host;
        host = null;
        if (h != null) {
            h.close();
        } else if (hostFuture != null) {
            // closed while still starting: shut it down once it is up
            hostFuture.thenAccept(Host::close);
        }
    }
}
