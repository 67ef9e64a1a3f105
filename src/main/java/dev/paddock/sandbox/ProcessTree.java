package dev.paddock.sandbox;

import dev.paddock.common.Processes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends an agent's whole process tree: the process group its wrapper leads (agents run under
 * {@code setsid}, so the group id is the wrapper's pid) and every descendant still found through
 * {@code /proc} (a child that left the group, e.g. with its own {@code setsid}). SIGTERM first, then
 * SIGKILL after a grace period, so a server the agent started lets go of its port.
 *
 * <p>A process that double-forks and leaves both the group and the tree escapes this; the container
 * tier (cgroups) does not have that gap.
 */
public final class ProcessTree {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessTree.class);

    private ProcessTree() {
    }

    /** Whether process {@code pid} is alive and is the one that started at {@code startedAt} (±2 s). */
    public static boolean isAlive(long pid, Instant startedAt) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty() || !isRunning(h.get())) {
            return false;
        }
        if (startedAt == null) {
            return true;
        }
        // The kernel knows the start to the clock tick, Java's boot time to the second.
        return h.get().info().startInstant().map(s -> Duration.between(s, startedAt).abs().getSeconds() <= 2)
                .orElse(true);
    }

    /**
     * Whether a process still runs: alive and not a zombie. Java counts a zombie (ended, not yet reaped)
     * as alive; where the init process does not reap orphans promptly (some containers and VMs), killed
     * agents' children linger as zombies although they hold nothing any more.
     */
    public static boolean isRunning(ProcessHandle h) {
        if (!h.isAlive()) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(h.pid()), "stat");
        try {
            String text = Files.readString(stat);
            int close = text.lastIndexOf(')');
            char state = close >= 0 && close + 2 < text.length() ? text.charAt(close + 2) : '?';
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            return Files.exists(stat.getParent()) || !Files.exists(Path.of("/proc/self")); // no /proc: trust Java
        }
    }

    /** {@link #isRunning(ProcessHandle)} by pid. */
    public static boolean isRunning(long pid) {
        return ProcessHandle.of(pid).map(ProcessTree::isRunning).orElse(false);
    }

    /** The start time of a live process, if the OS tells it. */
    public static Optional<Instant> startOf(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().startInstant());
    }

    /**
     * Kills the tree of {@code pid} (its group and its descendants): SIGTERM, wait up to {@code grace},
     * SIGKILL to what is left, wait up to 5 s more.
     *
     * @return whether nothing of it is left
     */
    public static boolean kill(long pid, Duration grace) {
        Optional<ProcessHandle> root = ProcessHandle.of(pid);
        List<ProcessHandle> members = new ArrayList<>();
        root.ifPresent(r -> {
            members.add(r);
            r.descendants().forEach(members::add);
        });
        signalGroup(pid, "TERM");
        members.forEach(ProcessHandle::destroy);
        if (waitGone(members, grace)) {
            return true;
        }
        // Late children too.
        root.ifPresent(r -> r.descendants().forEach(members::add));
        signalGroup(pid, "KILL");
        members.forEach(ProcessHandle::destroyForcibly);
        boolean gone = waitGone(members, Duration.ofSeconds(5));
        if (!gone) {
            LOG.warn("Processes of tree {} survived SIGKILL: {}", pid,
                    members.stream().filter(ProcessTree::isRunning).map(ProcessHandle::pid).toList());
        }
        return gone;
    }

    private static boolean waitGone(List<ProcessHandle> members, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (members.stream().noneMatch(ProcessTree::isRunning)) {
                return true;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return members.stream().noneMatch(ProcessTree::isRunning);
    }

    /** {@code kill -s SIG -- -pgid}: the whole process group; no-op where there is no kill(1). */
    private static void signalGroup(long pgid, String signal) {
        try {
            Process p = new ProcessBuilder("kill", "-s", signal, "--", "-" + pgid).redirectErrorStream(true)
                    .redirectInput(Processes.NO_INPUT).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            LOG.debug("kill -{} -{}: {}", signal, pgid, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
