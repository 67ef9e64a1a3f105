package dev.paddock.ui.shell;

import dev.paddock.common.PaddockException;
import dev.paddock.repo.RepoRecord;
import dev.paddock.status.EnvironmentMonitor;
import dev.paddock.ui.dashboard.StatusSource;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the panel's shell needs from a running Paddock: registered repositories, the dashboard's source of one, the
 * environment for the status bar. Every method but {@link #onEnvironment} and {@link #poke} may block on the store, git or the disk:
 * the panel calls them off the FX thread.
 */
public interface ShellBackend {
    /**
     * The result of opening a repository.
     *
     * @param repo the repository opened, or null when the path is not in one
     * @param recents the registered repositories, most recently opened first
     * @param error why the path is not in a repository (null when it is, or when not asked to say)
     */
    record Opened(RepoRecord repo, List<RepoRecord> recents, String error) {}

    /**
     * Registers and opens the repository containing {@code path}.
     *
     * @param reportErrors whether a path outside any repository is an error to show (else silently nothing)
     * @throws PaddockException when the store cannot be read or written
     */
    Opened open(Path path, boolean reportErrors) throws PaddockException;

    /** The dashboard's source of {@code repo}: its snapshots and its change notices. */
    StatusSource status(RepoRecord repo);

    /** Asks the repository's worktree monitor to look at the disk now (F5); does not block. */
    void poke(long repositoryId);

    /** Docker engine and bubblewrap as last probed. */
    EnvironmentMonitor.Snapshot environment();

    /** Registers a callback run (on any thread) with every new probe of the environment. */
    void onEnvironment(Consumer<EnvironmentMonitor.Snapshot> listener);

    /** One line per Docker engine registered besides local (health and load), as last read; none when alone. */
    default java.util.List<String> engineLines() {
        return java.util.List.of();
    }

    /** Registers a callback run (on any thread) with the engines' lines each time they are read again. */
    default void onEngineLines(Consumer<java.util.List<String>> listener) {}

    /**
     * Whether a desktop notification is wanted when a sandbox starts waiting for you (the setting
     * {@code ui.notifications.desktop}). May block on the store: call it off the FX thread.
     */
    default boolean desktopNotifications() {
        return true;
    }
}
