package dev.paddock.ui.layers;

import dev.paddock.common.PaddockException;
import dev.paddock.layer.SharedLayers;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/** The Shared layers dialog's backend over {@link SharedLayers}, the same calls as {@code paddock layers}. */
public final class ServiceSharedLayersBackend implements SharedLayersBackend {
    private final SharedLayers layers;

    /** A backend over Paddock's shared layers. */
    public ServiceSharedLayersBackend(SharedLayers layers) {
        this.layers = Objects.requireNonNull(layers, "layers");
    }

    @Override
    public SharedLayers.Status status(Path repository) throws PaddockException {
        return layers.status(repository);
    }

    @Override
    public SharedLayers.Status configure(Path repository, List<String> folders, String setupCommand)
            throws PaddockException {
        return layers.configure(repository, folders, setupCommand);
    }

    @Override
    public SharedLayers.Status refresh(Path repository, Consumer<String> progress) throws PaddockException {
        return layers.refresh(repository, progress);
    }
}
