package dev.paddock.ui.shell;

import dev.paddock.common.Threads;
import dev.paddock.repo.RepoRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.EnvironmentMonitor;
import dev.paddock.ui.common.UiExecutor;
import dev.paddock.ui.dashboard.DashboardViewModel;
import java.nio.file.Path;
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
 * repositories, which one is shown, and the environment for the status bar. It sees the running Paddock only
 * through {@link PanelBackends}, one typed backend per view. Commands run off the FX thread; properties change on
 * it.
 */
public final class ShellViewModel implements AutoCloseable {
    // Looked up when needed: the first logger initialises Logback, which the first frame must not wait for.
    private static Logger log() {
        return LoggerFactory.getLogger(ShellViewModel.class);
    }

    /** Where the panel is in its start-up. */
    public enum Phase {
        STARTING,
        READY,
        FAILED
    }

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
    private final ReadOnlyObjectWrapper<java.util.List<String>> engines =
            new ReadOnlyObjectWrapper<>(java.util.List.of());

    private final PanelBackends.Starter starter;
    private volatile PanelBackends backends;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile CompletableFuture<PanelBackends> startingFuture;
    private dev.paddock.ui.notify.DesktopNotifier desktop = new dev.paddock.ui.notify.DesktopNotifier();
    private java.util.function.BooleanSupplier windowFocused = () -> false;
    private final dev.paddock.ui.notify.WaitingNotifier waiting = new dev.paddock.ui.notify.WaitingNotifier(
            (summary, body, wanted) -> desktop.notify(summary, body, wanted),
            this::notificationsWanted,
            this::lookedAt);

    /** @param starter starts Paddock for {@link #start(PaddockHome, Path)} */
    public ShellViewModel(PanelBackends.Starter starter) {
        this.starter = starter;
        // Each status shown tells which sandboxes started waiting; a repository shown anew starts from its own.
        dashboard.latestProperty().addListener((o, a, status) -> {
            if (status == null) {
                waiting.reset();
            } else {
                waiting.rows(status.sandboxes());
            }
        });
    }

    /**
     * Where desktop notifications go (by default {@code notify-send} on Paddock's PATH); the one replaced is closed.
     * Call on the FX thread.
     */
    public void useDesktopNotifier(dev.paddock.ui.notify.DesktopNotifier notifier) {
        dev.paddock.ui.notify.DesktopNotifier old = desktop;
        desktop = notifier;
        old.close();
    }

    /** Tells whether the panel's window has the focus (the main window sets it when it is shown). */
    public void setWindowFocused(java.util.function.BooleanSupplier focused) {
        windowFocused = focused;
    }

    /** Whether the person is looking at the sandbox: the window focused, and it selected. */
    private boolean lookedAt(String id) {
        var selected = dashboard.sandboxPanel().details().sandboxProperty().get();
        return windowFocused.getAsBoolean() && selected != null && selected.id().equals(id);
    }

    /** The setting {@code ui.notifications.desktop} (asked off the FX thread). */
    private boolean notificationsWanted() {
        PanelBackends b = backends;
        return b != null && b.shell().desktopNotifications();
    }

    /** A shell that is given a Paddock already starting ({@link #start(CompletableFuture, Path)}). */
    public ShellViewModel() {
        this(home -> {
            throw new IllegalStateException("This panel was not given a way to start Paddock");
        });
    }

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
    public ReadOnlyObjectProperty<java.util.List<String>> enginesProperty() {
        return engines.getReadOnlyProperty();
    }

    /** The Docker engine and bubblewrap as last probed, for the status bar. */
    public ReadOnlyObjectProperty<EnvironmentMonitor.Snapshot> environmentProperty() {
        return environment.getReadOnlyProperty();
    }

    /** Paddock's home directory once started (global policy, hook script), else null. */
    public Path paddockHome() {
        PanelBackends b = backends;
        return b == null ? null : b.home();
    }

    /** The policy files (the Policy dialog), once Paddock started; else null. */
    public dev.paddock.ui.policy.PolicyEditorBackend policies() {
        PanelBackends b = backends;
        return b == null ? null : b.policies();
    }

    /** The merge settings of the repositories, once Paddock started; else null. */
    public dev.paddock.ui.mergesettings.MergeSettingsBackend mergeSettings() {
        PanelBackends b = backends;
        return b == null ? null : b.mergeSettings();
    }

    /** The shared layers of the repositories, once Paddock started; else null. */
    public dev.paddock.ui.layers.SharedLayersBackend sharedLayers() {
        PanelBackends b = backends;
        return b == null ? null : b.sharedLayers();
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
        return start(startPaddock(starter, home), repo);
    }

    /**
     * Starts Paddock on its own thread ({@code host-start}) so that the store opens while JavaFX starts.
     *
     * @return completes with the running Paddock's backends, or with the reason it could not start
     */
    public static CompletableFuture<PanelBackends> startPaddock(PanelBackends.Starter starter, PaddockHome home) {
        CompletableFuture<PanelBackends> future = new CompletableFuture<>();
        Threads.start("host-start", () -> {
            try {
                future.complete(starter.start(home));
            } catch (Throwable e) {
                future.completeExceptionally(e);
            }
        });
        return future;
    }

    /**
     * Waits (off the FX thread) for {@code starting}, then opens {@code repo} (errors shown on the welcome
     * page), or the repository of the current directory when {@code repo} is null (silently skipped when
     * the current directory is not in one).
     *
     * @return completes on the FX thread once start-up finished, either way
     */
    public CompletableFuture<Void> start(CompletableFuture<PanelBackends> starting, Path repo) {
        startingFuture = starting;
        CompletableFuture<Void> done = new CompletableFuture<>();
        Path target = repo != null ? repo : Path.of("").toAbsolutePath();
        UiExecutor.run(
                () -> {
                    PanelBackends b = join(starting);
                    backends = b;
                    b.shell().onEnvironment(s -> Platform.runLater(() -> environment.set(s)));
                    b.shell().onEngineLines(l -> Platform.runLater(() -> engines.set(l)));
                    return b.shell().open(target, repo != null);
                },
                opened -> {
                    environment.set(backends.shell().environment());
                    engines.set(backends.shell().engineLines());
                    dashboard.containers().connect(backends.metrics());
                    // The repository first: its first status is read while the window puts the dashboard in place.
                    showOpened(opened);
                    phase.set(Phase.READY);
                    done.complete(null);
                },
                error -> {
                    // Logback's stderr line reads "paddock: cannot start: another Paddock (...) is running on this home
                    // ...".
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
        String line = reason.length() > 1
                        && Character.isUpperCase(reason.charAt(0))
                        && Character.isLowerCase(reason.charAt(1))
                ? Character.toLowerCase(reason.charAt(0)) + reason.substring(1)
                : reason;
        return line.startsWith("cannot start") ? line : "cannot start: " + line;
    }

    private static PanelBackends join(CompletableFuture<PanelBackends> starting) throws Exception {
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
        PanelBackends b = backends;
        if (b == null) {
            done.complete(null);
            return done;
        }
        busy.set(true);
        UiExecutor.run(
                () -> b.shell().open(path, true),
                opened -> {
                    busy.set(false);
                    showOpened(opened);
                    done.complete(null);
                },
                error -> {
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
        PanelBackends b = backends;
        RepoRecord r = current.get();
        if (b != null && r != null) {
            b.shell().poke(r.id());
        }
    }

    private void showOpened(ShellBackend.Opened opened) {
        recents.setAll(opened.recents());
        openError.set(opened.error());
        if (opened.repo() == null) {
            return;
        }
        RepoRecord repo = opened.repo();
        current.set(repo);
        PanelBackends b = backends;
        dashboard.sandboxPanel().connect(b.sandboxes(), repo);
        dashboard.approvals().connect(b.approvals(), repo.id());
        dashboard.conflicts().connect(b.conflicts());
        dashboard.mergeQueue().connect(b.mergeQueue(), repo.path());
        dashboard.show(b.shell().status(repo));
    }

    /** Stops refreshing and shuts Paddock down (API, monitors, store). Safe to call more than once. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        dashboard.close();
        desktop.close();
        PanelBackends b = backends;
        backends = null;
        if (b != null) {
            b.close();
        } else if (startingFuture != null) {
            // closed while still starting: shut it down once it is up
            startingFuture.thenAccept(PanelBackends::close);
        }
    }
}
