package dev.paddock.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Mount;
import com.github.dockerjava.api.model.MountType;
import com.github.dockerjava.api.model.VolumeOptions;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Named volumes on an engine that hold a sandbox's files where no host directory can be mounted (an engine on
 * another machine): created empty, filled and read back through the engine's archive API alone. Each transfer goes
 * through a helper container that is created with the volume mounted at {@value #MOUNT} and never started, then
 * removed; so the agent's own container is not needed (it may not exist yet, or be stopped or gone), and the
 * image needs nothing (no shell, no tar).
 */
public final class WorkspaceVolumes {
    private static final Logger LOG = LoggerFactory.getLogger(WorkspaceVolumes.class);
    /** Where a helper container mounts the volume; the archives read back start with {@code paddock-volume/}. */
    public static final String MOUNT = "/paddock-volume";
    /** The label on the volumes and helper containers this makes. */
    public static final String VOLUME_LABEL = "paddock.volume";

    private final DockerEngine engine;

    /** @param engine the engine the volumes live on (not closed here) */
    public WorkspaceVolumes(DockerEngine engine) {
        this.engine = engine;
    }

    /**
     * Creates the volume (empty) unless it exists.
     *
     * @return whether it was made now (false: it existed)
     * @throws ContainerException when the engine does not answer or refuses
     */
    public boolean create(String volume, Map<String, String> labels) throws ContainerException {
        DockerClient c = engine.client();
        try {
            c.inspectVolumeCmd(volume).exec();
            return false;
        } catch (NotFoundException e) {
            // make it
        } catch (RuntimeException e) {
            throw failure("inspect the volume " + volume, e);
        }
        try {
            Map<String, String> all = new java.util.LinkedHashMap<>(labels);
            all.put(VOLUME_LABEL, volume);
            c.createVolumeCmd().withName(volume).withLabels(all).exec();
            return true;
        } catch (RuntimeException e) {
            throw failure("create the volume " + volume, e);
        }
    }

    /** Removes the volume (a missing one is no error). */
    public void remove(String volume) throws ContainerException {
        try {
            engine.client().removeVolumeCmd(volume).exec();
        } catch (NotFoundException e) {
            // gone already
        } catch (RuntimeException e) {
            throw failure("remove the volume " + volume, e);
        }
    }

    /** The top directory of the tar streams {@link #put} takes and {@link #get} gives: {@code paddock-volume}. */
    public static final String TOP = MOUNT.substring(1);

    /**
     * Unpacks a tar stream into the volume, owners and modes as the entries say. Its entries start with
     * {@link #TOP}{@code /}; an entry for {@link #TOP}{@code /} itself sets the owner and mode of the volume's root
     * (so an agent that is not root can write there).
     *
     * @param image any image on the engine (the helper container is never started)
     * @throws ContainerException when the engine does not answer or refuses the archive
     */
    public void put(String volume, String image, InputStream tar) throws ContainerException {
        String helper = helper(volume, image);
        try {
            engine.streamingClient()
                    .copyArchiveToContainerCmd(helper)
                    .withRemotePath("/")
                    .withTarInputStream(tar)
                    .exec();
        } catch (RuntimeException e) {
            throw failure("copy files into the volume " + volume, e);
        } finally {
            removeQuietly(helper);
        }
    }

    /** Reads a tar stream (entries under {@code paddock-volume/}). */
    public interface TarReader<T> {
        T read(InputStream tar) throws IOException;
    }

    /**
     * Hands the volume's content, as a tar stream whose entries start with {@code paddock-volume/}, to
     * {@code reader}.
     *
     * @throws ContainerException when the engine does not answer or refuses
     * @throws IOException what {@code reader} threw
     */
    public <T> T get(String volume, String image, TarReader<T> reader) throws ContainerException, IOException {
        String helper = helper(volume, image);
        try (InputStream in = engine.streamingClient()
                .copyArchiveFromContainerCmd(helper, MOUNT)
                .exec()) {
            return reader.read(in);
        } catch (RuntimeException e) {
            throw failure("copy files out of the volume " + volume, e);
        } finally {
            removeQuietly(helper);
        }
    }

    private String helper(String volume, String image) throws ContainerException {
        try {
            return engine.client()
                    .createContainerCmd(image)
                    .withEntrypoint(List.of("/paddock-never-started"))
                    .withCmd(List.of())
                    .withLabels(Map.of(VOLUME_LABEL, volume))
                    .withNetworkDisabled(true)
                    .withHostConfig(HostConfig.newHostConfig()
                            .withMounts(List.of(new Mount()
                                    .withType(MountType.VOLUME)
                                    .withSource(volume)
                                    .withTarget(MOUNT)
                                    .withVolumeOptions(new VolumeOptions().withNoCopy(true)))))
                    .exec()
                    .getId();
        } catch (NotFoundException e) {
            throw new ContainerException(
                    "The image " + image + " is not on the Docker engine at " + engine.endpoint()
                            + "; Paddock pulls nothing: pull or build it first.",
                    e);
        } catch (RuntimeException e) {
            throw failure("create a helper container for the volume " + volume, e);
        }
    }

    private void removeQuietly(String container) {
        try {
            engine.client().removeContainerCmd(container).withForce(true).exec();
        } catch (ContainerException | RuntimeException e) {
            LOG.warn("Cannot remove the helper container {}: {}", container, e.toString());
        }
    }

    private ContainerException failure(String what, RuntimeException e) {
        return new ContainerException(
                "Cannot " + what + " on the Docker engine at " + engine.endpoint() + ": " + DockerEngine.describe(e),
                e);
    }
}
