package dev.paddock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A second Docker engine of the test's own (a {@code dockerd} with its own socket, data root, exec root,
 * containerd and network namespace, no bridge and no iptables rules), so a test can stop and start an engine without touching the
 * machine's main one that other tests use. Everything lives under a short folder in /tmp (a unix socket path
 * may have at most 107 bytes). Needs root, {@code dockerd} and {@code unshare} on the PATH: without them the test fails when
 * {@code PADDOCK_REQUIRE_DOCKER=1}, else it is skipped.
 *
 * <p>{@link #startTls()} makes it a remote engine instead: it listens only on {@code tcp://10.231.N.2:2376} in a
 * named network namespace of its own joined to the host by a veth pair, requires TLS client certificates
 * ({@code --tlsverify}; a CA, a server and a client certificate generated with {@code openssl} for this engine
 * alone, in {@link #tlsDir()}), and has its own bridge and iptables rules inside that namespace, so its containers
 * have a network the way a remote machine's would. Needs {@code ip}, {@code nsenter} and {@code openssl} as well.
 */
public final class PrivateDockerd implements AutoCloseable {
    private static final boolean REQUIRED = "1".equals(System.getenv("PADDOCK_REQUIRE_DOCKER"));

    private final Path dir;
    private final boolean liveRestore;
    private final RemoteAddress remote;
    private Process process;

    private PrivateDockerd(Path dir, boolean liveRestore, RemoteAddress remote) {
        this.dir = dir;
        this.liveRestore = liveRestore;
        this.remote = remote;
    }

    /**
     * Starts a private engine and waits until it answers (up to 60 s).
     *
     * @param liveRestore {@code --live-restore}: containers run on while the engine is down
     */
    public static PrivateDockerd start(boolean liveRestore) throws IOException {
        requireTools("dockerd", "unshare");
        PrivateDockerd d = new PrivateDockerd(Files.createTempDirectory(Path.of("/tmp"), "pdk"), liveRestore, null);
        d.startEngine();
        return d;
    }

    /**
     * Starts a private engine reached only over TCP with TLS client certificates, from its own network namespace
     * (see the class comment), and waits until it answers (up to 60 s).
     */
    public static PrivateDockerd startTls() throws IOException {
        requireTools("dockerd", "ip", "nsenter", "openssl");
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "pdk");
        RemoteAddress remote;
        try {
            remote = RemoteAddress.create(dir);
            TestCertificates.write(dir, remote.engineIp());
        } catch (IOException | RuntimeException e) {
            new ProcessBuilder("rm", "-rf", dir.toString()).start();
            throw e;
        }
        PrivateDockerd d = new PrivateDockerd(dir, false, remote);
        try {
            d.startEngine();
        } catch (IOException | RuntimeException | AssertionError e) {
            d.close();
            throw e;
        }
        return d;
    }

    private static void requireTools(String... tools) {
        boolean root = "root".equals(System.getProperty("user.name"));
        List<String> missing = Stream.of(tools)
                .filter(tool -> Stream.of(
                                System.getenv().getOrDefault("PATH", "").split(":"))
                        .noneMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, tool))))
                .toList();
        if (REQUIRED) {
            assertThat(root && missing.isEmpty())
                    .as(
                            "PADDOCK_REQUIRE_DOCKER=1: a private dockerd needs root (%s) and %s on the PATH"
                                    + " (missing: %s)",
                            root, List.of(tools), missing)
                    .isTrue();
        }
        assumeTrue(root && missing.isEmpty(), "a private dockerd needs root and " + List.of(tools) + " on the PATH");
    }

    /**
     * The engine's address: {@code unix:///tmp/pdkNNN/d.sock}, or {@code tcp://10.231.N.2:2376} for an engine
     * started with {@link #startTls()}.
     */
    public String host() {
        return remote != null ? "tcp://" + remote.engineIp() + ":2376" : "unix://" + dir.resolve("d.sock");
    }

    /**
     * The client's TLS files of an engine started with {@link #startTls()} ({@code ca.pem}, {@code cert.pem},
     * {@code key.pem}, as a docker context or {@code DOCKER_CERT_PATH} holds them), else null.
     */
    public Path tlsDir() {
        return remote != null ? TestCertificates.clientDir(dir) : null;
    }

    /** The docker CLI's options to reach this engine: {@code -H} and, for a TLS engine, its certificates. */
    private List<String> cliOptions() {
        List<String> opts = new ArrayList<>(List.of("-H", host()));
        if (remote != null) {
            Path tls = tlsDir();
            opts.addAll(List.of(
                    "--tlsverify",
                    "--tlscacert",
                    tls.resolve("ca.pem").toString(),
                    "--tlscert",
                    tls.resolve("cert.pem").toString(),
                    "--tlskey",
                    tls.resolve("key.pem").toString()));
        }
        return opts;
    }

    private void startEngine() throws IOException {
        // In a network namespace of its own: a dockerd without a bridge deletes the host's docker0 at start
        // (removeDefaultBridgeInterface), which would cut the main engine's containers off their network.
        List<String> cmd = new ArrayList<>();
        if (remote == null) {
            cmd.addAll(List.of("unshare", "--net", "--", "dockerd", "--host", host()));
            cmd.addAll(List.of("--bridge", "none", "--iptables=false", "--ip6tables=false"));
        } else {
            // nsenter enters the network namespace alone; `ip netns exec` would also remount /sys, hiding the
            // cgroup mounts dockerd needs.
            cmd.addAll(List.of("nsenter", "--net=" + remote.namespacePath(), "--", "dockerd", "--host", host()));
            cmd.addAll(TestCertificates.serverOptions(dir));
        }
        cmd.addAll(List.of(
                "--data-root",
                dir.resolve("data").toString(),
                "--exec-root",
                dir.resolve("x").toString(),
                "--pidfile",
                dir.resolve("d.pid").toString()));
        if (liveRestore) {
            cmd.add("--live-restore");
        }
        process = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("dockerd.log").toFile()))
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (docker("version", "--format", "{{.Server.Version}}").code() != 0) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the private dockerd did not answer at " + host() + ":\n" + log());
            }
            sleep(200);
        }
    }

    /** Starts the engine again after {@link #kill}, on the same folders (its containers and images are kept). */
    public void restart() throws IOException {
        assertThat(process.isAlive())
                .as("the private dockerd is stopped before a restart")
                .isFalse();
        startEngine();
    }

    /**
     * Stops the engine: SIGKILL when {@code hard} (as a crash), else SIGTERM (as {@code systemctl stop}); returns
     * once the process is gone.
     */
    public void kill(boolean hard) throws InterruptedException {
        if (hard) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        assertThat(process.waitFor(60, TimeUnit.SECONDS))
                .as("the private dockerd ended")
                .isTrue();
        // Its containerd: without --live-restore it dies with the engine (parent-death signal), with it it may run
        // on until its next log line hits the dead engine's pipe. Either way it is ended here, as in a crash of the
        // whole engine, and its pid file removed: a dockerd that finds the pid file naming a live (or dying)
        // process waits for that one instead of starting its own, and gives up after a while. The container
        // shims live on without it.
        String containerd = "--config " + dir.resolve("x").resolve("containerd");
        List<ProcessHandle> left = ProcessHandle.allProcesses()
                .filter(h ->
                        h.info().commandLine().map(c -> c.contains(containerd)).orElse(false))
                .toList();
        left.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (left.stream().anyMatch(h -> h.isAlive() && !zombie(h.pid()))) {
            assertThat(System.nanoTime()).as("the private containerd ended").isLessThan(deadline);
            sleep(100);
        }
        try {
            Files.deleteIfExists(dir.resolve("x").resolve("containerd").resolve("containerd.pid"));
        } catch (IOException e) {
            throw new AssertionError("cannot remove the private containerd's pid file: " + e.getMessage(), e);
        }
    }

    private static boolean zombie(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                    .anyMatch(l -> l.startsWith("State:") && l.contains("Z"));
        } catch (IOException e) {
            return true; // gone meanwhile
        }
    }

    /** Runs {@code docker -H <this engine> <args>}. */
    public DockerTests.Result docker(String... args) {
        List<String> cmd = new ArrayList<>(cliOptions());
        cmd.addAll(List.of(args));
        return DockerTests.docker(cmd.toArray(String[]::new));
    }

    /** Copies {@code image} from the machine's main engine into this one ({@code docker save | docker load}). */
    public void load(String image) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", "i=$1; shift; docker save \"$i\" | docker \"$@\" load"));
        cmd.add("load");
        cmd.add(image);
        cmd.addAll(cliOptions());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0)
                .as("loading %s: %s", image, out)
                .isTrue();
    }

    /** The engine's own log, for failure messages. */
    public String log() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("dockerd.log")).stream()
                    .filter(l -> !l.contains("module=grpc"))
                    .toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /**
     * Removes its containers, stops the engine, ends the container shims it may have left (found by this
     * engine's exec root in their command line), unmounts what is left under its folder and deletes the folder.
     */
    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            DockerTests.Result ids = docker("ps", "-aq");
            for (String id : ids.out().lines().filter(l -> !l.isBlank()).toList()) {
                docker("rm", "-f", id);
            }
            try {
                kill(false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        String execRoot = dir.resolve("x").toString();
        ProcessHandle.allProcesses()
                .filter(h ->
                        h.info().commandLine().map(c -> c.contains(execRoot)).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
        if (remote != null) {
            remote.delete();
        }
        try {
            List<String> mounts = Files.readAllLines(Path.of("/proc/self/mounts")).stream()
                    .map(l -> l.split(" ")[1])
                    .filter(m -> m.startsWith(dir.toString()))
                    .sorted(Comparator.reverseOrder())
                    .toList();
            for (String m : mounts) {
                new ProcessBuilder("umount", "-l", m)
                        .redirectErrorStream(true)
                        .start()
                        .waitFor(10, TimeUnit.SECONDS);
            }
            new ProcessBuilder("rm", "-rf", dir.toString())
                    .redirectErrorStream(true)
                    .start()
                    .waitFor(60, TimeUnit.SECONDS);
        } catch (IOException e) {
            System.err.println("Cleaning up " + dir + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
