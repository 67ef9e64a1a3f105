package dev.paddock.ui.dashboard;

import dev.paddock.common.PaddockException;
import dev.paddock.status.RepositoryStatus;

/** Where the dashboard gets its snapshots of one repository. */
public interface StatusSource {
    /** Builds a fresh snapshot. Called off the FX thread. */
    RepositoryStatus load() throws PaddockException;

    /**
     * Registers a callback run (on any thread) when the repository changed and a reload is worth it.
     *
     * @return a handle that unregisters the callback
     */
    Runnable onChange(Runnable callback);
}
