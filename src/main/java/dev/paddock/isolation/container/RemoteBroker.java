package dev.paddock.isolation.container;

import dev.paddock.container.ContainerException;
import dev.paddock.container.DockerEngine;
import dev.paddock.container.ExecPipe;
import dev.paddock.container.WorkspaceVolumes;
import dev.paddock.isolation.ApiRelays;
import dev.paddock.isolation.BrokerChannel;
import dev.paddock.isolation.SandboxApi;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

/**
 * How an agent on an engine that shares no disk with Paddock reaches Paddock's API: its hook programs and
 * {@value #RELAY} (a static program of Paddock's, {@code src/main/c/paddock-relay.c}) are put into a volume the
 * container mounts read-only at {@link SandboxApi#BIN}; once the container runs, Paddock starts the relay in it with
 * {@code docker exec} as {@value #RELAY_USER} (never the agent's user), holds its standard input and output, and
 * carries the connections to {@link SandboxApi#SOCKET} to its loopback API as that sandbox's ({@link BrokerChannel}).
 * See docs/decisions/0030-remote-workspace-and-broker-channel.md.
 *
 * <p>The container must have a tmpfs at {@link SandboxApi#SOCKET_DIR} owned by {@value #RELAY_USER} with mode 0755
 * ({@link #SOCKET_DIR_TMPFS_OPTIONS}): the relay can create its socket there and the agent cannot replace it.
 */
public final class RemoteBroker {
    /** The relay's file name in the programs' volume. */
    public static final String RELAY = "paddock-relay";
    /** The user (uid:gid) the relay runs as inside: neither root nor an agent's. */
    public static final String RELAY_USER = "65532:65532";
    /** The tmpfs options of {@link SandboxApi#SOCKET_DIR} in the agent's container. */
    public static final String SOCKET_DIR_TMPFS_OPTIONS = "mode=0755,uid=65532,gid=65532,size=64k";
    /** Time for the relay to say it listens. */
    public static final Duration READY = Duration.ofSeconds(10);

    private RemoteBroker() {}

    /** The relay built into this Paddock for this machine's architecture, if it was built (a C compiler). */
    public static Optional<byte[]> relayProgram() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        try (InputStream in =
                RemoteBroker.class.getResourceAsStream("/dev/paddock/isolation/native/linux-" + arch + "/" + RELAY)) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Puts the relay and {@code programs} (the hook programs, by file name) into {@code volume} (created unless it
     * exists), owned by root and mode 0555; the agent's container mounts it read-only at {@link SandboxApi#BIN}.
     *
     * @throws ContainerException when the engine fails or this Paddock has no relay program
     */
    public static void installPrograms(
            WorkspaceVolumes volumes, String volume, String image, List<Path> programs, Map<String, String> labels)
            throws ContainerException, IOException {
        byte[] relay = relayProgram()
                .orElseThrow(() -> new ContainerException("This Paddock was built without " + RELAY + " (no C"
                        + " compiler at build time): agents on a remote engine cannot reach it."));
        List<Map.Entry<String, byte[]>> files = new ArrayList<>();
        files.add(Map.entry(RELAY, relay));
        for (Path p : programs) {
            files.add(Map.entry(p.getFileName().toString(), Files.readAllBytes(p)));
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(buf, StandardCharsets.UTF_8.name())) {
            TarArchiveEntry dir = new TarArchiveEntry(WorkspaceVolumes.TOP + "/", TarConstants.LF_DIR);
            dir.setMode(040755);
            tar.putArchiveEntry(dir);
            tar.closeArchiveEntry();
            for (Map.Entry<String, byte[]> f : files) {
                TarArchiveEntry e = new TarArchiveEntry(WorkspaceVolumes.TOP + "/" + f.getKey());
                e.setMode(0100555);
                e.setSize(f.getValue().length);
                tar.putArchiveEntry(e);
                tar.write(f.getValue());
                tar.closeArchiveEntry();
            }
        }
        volumes.create(volume, labels);
        volumes.put(volume, image, new java.io.ByteArrayInputStream(buf.toByteArray()));
    }

    /**
     * Starts the relay in the running container and opens the sandbox's channel on its standard input and output.
     *
     * @throws ContainerException when the relay cannot be started or does not listen within {@link #READY}
     */
    public static BrokerChannel open(DockerEngine engine, String containerId, String sandboxId, ApiRelays relays)
            throws ContainerException, InterruptedException {
        ExecPipe pipe = ExecPipe.start(
                engine, containerId, List.of(SandboxApi.BIN + "/" + RELAY, SandboxApi.SOCKET), RELAY_USER);
        BrokerChannel channel = relays.channel(sandboxId, pipe.stdout(), pipe.stdin(), pipe::close);
        if (!channel.awaitReady(READY)) {
            channel.close();
            throw new ContainerException("The broker channel of " + sandboxId + " did not open: " + RELAY
                    + " does not listen in its container on " + engine.endpoint() + " (is " + SandboxApi.BIN
                    + " mounted and " + SandboxApi.SOCKET_DIR + " a tmpfs of " + RELAY_USER + "?)");
        }
        return channel;
    }
}
