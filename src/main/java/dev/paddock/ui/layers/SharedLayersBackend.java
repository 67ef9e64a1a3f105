package dev.paddock.ui.layers;

import dev.paddock.common.PaddockException;
import dev.paddock.layer.SharedLayers;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the Shared layers dialog needs from Paddock: read and change the folders a repository's namespace sandboxes
 * share, and build a new generation of them. Every method reads the store or the disk, and {@link #refresh} runs
 * the setup command: the panel calls them off the FX thread.
 */
public interface SharedLayersBackend {
    /**
     * What the repository containing {@code repository} shares, and its newest generation.
     *
     * @throws PaddockException when the repository cannot be opened or the store read
     */
    SharedLayers.Status status(Path repository) throws PaddockException;

    /**
     * Sets the shared folders (none: share nothing) and the setup command (null or blank: copy the folders from the
     * main checkout), with a {@code layers.configured} event.
     *
     * @return the status afterwards
     * @throws PaddockException with a message for people when a folder is refused (then nothing changed) or the
     *     repository or the store cannot be reached
     */
    SharedLayers.Status configure(Path repository, List<String> folders, String setupCommand) throws PaddockException;

    /**
     * Builds a new generation and makes it current (seconds to minutes: it may run the setup command).
     *
     * @param progress told each step, on the calling thread
     * @return the status afterwards
     * @throws PaddockException when nothing is shared, another refresh runs, or the build fails (nothing changed)
     */
    SharedLayers.Status refresh(Path repository, Consumer<String> progress) throws PaddockException;
}
