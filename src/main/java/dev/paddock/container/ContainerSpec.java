package dev.paddock.container;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything a sandbox's container is made of. {@link DockerContainers#run} adds what every Paddock container
 * has whatever the spec: a read-only root with a tmpfs {@code /tmp}, an init process, no capabilities, no new
 * privileges.
 *
 * @param name container name (unique on the engine), e.g. {@code paddock-fix-auth-20261130-001-r3}
 * @param image image reference, e.g. {@code node:22}; never pulled (the engine must have it)
 * @param command the argv run in the container (the image's entrypoint is replaced by it)
 * @param env environment variables inside (the image's own are kept unless named here)
 * @param workingDir working directory inside
 * @param user {@code uid:gid} the command runs as
 * @param mounts bind mounts from the host, volumes and tmpfs, in order
 * @param limits CPU, memory, pids and open-file limits
 * @param network true: the engine's default network; false: {@code none} (loopback only)
 * @param labels labels, e.g. {@code paddock.sandbox=<id>}
 */
public record ContainerSpec(
        String name,
        String image,
        List<String> command,
        Map<String, String> env,
        String workingDir,
        String user,
        List<Mount> mounts,
        ResourceLimits limits,
        boolean network,
        Map<String, String> labels) {

    /** Like a record's, with the environment's values left out: they may hold a sandbox's token. */
    @Override
    public String toString() {
        return "ContainerSpec[name=" + name + ", image=" + image + ", command=" + command + ", env=" + env.keySet()
                + ", workingDir=" + workingDir + ", user=" + user + ", mounts=" + mounts + ", limits=" + limits
                + ", network=" + network + ", labels=" + labels + "]";
    }

    /**
     * A mount: a bind mount of a host path, a named volume of the engine, or a tmpfs.
     *
     * @param host absolute path on the engine's host (a local engine: this machine); null for a volume or tmpfs
     * @param target absolute path inside the container
     * @param readOnly whether the container may only read it
     * @param kind what is mounted
     * @param source the volume's name ({@link Kind#VOLUME}), the tmpfs options ({@link Kind#TMPFS}), else null
     */
    public record Mount(Path host, String target, boolean readOnly, Kind kind, String source) {
        /** What a mount is. */
        public enum Kind {
            BIND,
            VOLUME,
            TMPFS
        }

        /** A bind mount of {@code host}. */
        public Mount(Path host, String target, boolean readOnly) {
            this(host, target, readOnly, Kind.BIND, null);
        }

        public static Mount readWrite(Path host, String target) {
            return new Mount(host, target, false);
        }

        public static Mount readOnly(Path host, String target) {
            return new Mount(host, target, true);
        }

        /** The engine's named volume {@code name} at {@code target}. */
        public static Mount volume(String name, String target, boolean readOnly) {
            return new Mount(null, target, readOnly, Kind.VOLUME, name);
        }

        /** A tmpfs at {@code target} with the engine's tmpfs {@code options} ({@code mode=0755,size=64k}). */
        public static Mount tmpfs(String target, String options) {
            return new Mount(null, target, false, Kind.TMPFS, options);
        }
    }
}
