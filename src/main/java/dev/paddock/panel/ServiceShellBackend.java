package dev.paddock.panel;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventBus;
import dev.paddock.repo.RepoRecord;
import dev.paddock.status.EnvironmentMonitor;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.status.Workspace;
import dev.paddock.ui.dashboard.StatusSource;
import dev.paddock.ui.shell.ShellBackend;
import dev.paddock.worktree.GitException;
import java.nio.file.Path;
import java.util.function.Consumer;

/** {@link ShellBackend} over the running Paddock's workspace, settings, environment probes and event bus. */
public final class ServiceShellBackend implements ShellBackend {
    private final Workspace workspace;
    private final EnvironmentMonitor environment;
    private final EventBus bus;
    private final dev.paddock.settings.SettingsStore settings;
    private java.util.function.Supplier<java.util.List<String>> engineLines = java.util.List::of;
    private java.util.function.Consumer<Consumer<java.util.List<String>>> onEngineLines = l -> {};

    public ServiceShellBackend(
            Workspace workspace,
            EnvironmentMonitor environment,
            EventBus bus,
            dev.paddock.settings.SettingsStore settings) {
        this.workspace = workspace;
        this.environment = environment;
        this.bus = bus;
        this.settings = settings;
    }

    /** Where the lines of the engines besides local come from ({@code ContainerEngines}). */
    public ServiceShellBackend engines(
            java.util.function.Supplier<java.util.List<String>> lines,
            java.util.function.Consumer<Consumer<java.util.List<String>>> onLines) {
        this.engineLines = lines;
        this.onEngineLines = onLines;
        return this;
    }

    @Override
    public java.util.List<String> engineLines() {
        return engineLines.get();
    }

    @Override
    public void onEngineLines(Consumer<java.util.List<String>> listener) {
        onEngineLines.accept(listener);
    }

    @Override
    public boolean desktopNotifications() {
        try {
            return settings.get(dev.paddock.settings.SettingsStore.UI_NOTIFICATIONS_DESKTOP) != 0;
        } catch (PaddockException e) {
            org.slf4j.LoggerFactory.getLogger(ServiceShellBackend.class)
                    .warn(
                            "Cannot read the setting {} ({}):" + " desktop notifications stay on",
                            dev.paddock.settings.SettingsStore.UI_NOTIFICATIONS_DESKTOP.name(),
                            e.getMessage());
            return true;
        }
    }

    @Override
    public Opened open(Path path, boolean reportErrors) throws PaddockException {
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

    @Override
    public StatusSource status(RepoRecord repo) {
        return new StatusSource() {
            @Override
            public RepositoryStatus load() throws PaddockException {
                // Rows first: before the worktree monitor's first scan, without the dirty state it then tells.
                return workspace.statusNow(repo.id());
            }

            @Override
            public Runnable onChange(Runnable callback) {
                // Every state change of a sandbox, approval or merge of this repository is an event; what changes
                // on disk comes from the worktree monitor.
                EventBus.Subscription events = bus.subscribe(
                        e -> e.repositoryId() == null || e.repositoryId() == repo.id(), e -> callback.run());
                Runnable disk = workspace
                        .monitor(repo.id())
                        .map(m -> m.addListener(s -> callback.run()))
                        .orElse(() -> {});
                return () -> {
                    events.close();
                    disk.run();
                };
            }
        };
    }

    @Override
    public void poke(long repositoryId) {
        workspace.monitor(repositoryId).ifPresent(m -> m.poke());
    }

    @Override
    public EnvironmentMonitor.Snapshot environment() {
        return environment.snapshot();
    }

    @Override
    public void onEnvironment(Consumer<EnvironmentMonitor.Snapshot> listener) {
        environment.addListener(listener);
    }
}
