package dev.paddock.isolation.host;

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

    private ProcessTree() {}

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
        return h.get()
                .info()
                .startInstant()
                .map(s -> Duration.between(s, startedAt).abs().getSeconds() <= 2)
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

    /**
     * A process watched over many ticks: its pid and its start in clock ticks since boot (field 22 of
     * {@code /proc/<pid>/stat}, see proc(5)), taken once. {@link #running()} then costs one read of that
     * file, where {@link #isRunning(ProcessHandle)} costs two (Java's own liveness check reads it too).
     * Without {@code /proc} it falls back to the handle.
     */
    public static final class Watched {
        private final ProcessHandle handle;
        private final long startTicks;

        private Watched(ProcessHandle handle, long startTicks) {
            this.handle = handle;
            this.startTicks = startTicks;
        }

        /** Starts watching a live process; empty when it is gone or a zombie already. */
        public static Optional<Watched> of(long pid) {
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            if (h.isEmpty() || !isRunning(h.get())) {
                return Optional.empty();
            }
            long ticks = procStat(pid).map(ProcStat::startTicks).orElse(-1L);
            return Optional.of(new Watched(h.get(), ticks));
        }

        /** The pid watched. */
        public long pid() {
            return handle.pid();
        }

        /**
         * Whether it still runs: not gone, not a zombie, and its pid not taken by another process since
         * (the start ticks differ then).
         */
        public boolean running() {
            if (startTicks < 0) {
                return isRunning(handle);
            }
            Optional<ProcStat> stat = procStat(handle.pid());
            return stat.isPresent()
                    && stat.get().startTicks() == startTicks
                    && stat.get().state() != 'Z'
                    && stat.get().state() != 'X';
        }
    }

    /**
     * The state letter (field 3), process group (field 5) and start time in clock ticks since boot (field 22) of
     * /proc/pid/stat.
     */
    record ProcStat(char state, long group, long startTicks) {}

    /** One read of {@code /proc/<pid>/stat}; empty when the process is gone or there is no such file. */
    static Optional<ProcStat> procStat(long pid) {
        String text;
        // One read(2) of a buffer the line always fits in (comm is at most 16 bytes, the 52 numbers
        // below 1 KiB): the kernel builds the line afresh for every read, so no second read to EOF.
        try (java.io.FileInputStream in = new java.io.FileInputStream("/proc/" + pid + "/stat")) {
            byte[] buf = new byte[1024];
            int n = in.read(buf);
            if (n <= 0) {
                return Optional.empty();
            }
            text = new String(buf, 0, n, java.nio.charset.StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return Optional.empty();
        }
        // "pid (comm) S ppid ...": comm may hold spaces and parentheses, so fields count from the last ')'.
        int close = text.lastIndexOf(')');
        if (close < 0 || close + 2 >= text.length()) {
            return Optional.empty();
        }
        String[] fields = text.substring(close + 2).split(" ", 21);
        if (fields.length < 20) {
            return Optional.empty();
        }
        try {
            // fields[0] is field 3 (state), fields[2] field 5 (pgrp); field 22 (starttime) is fields[19].
            return Optional.of(
                    new ProcStat(fields[0].charAt(0), Long.parseLong(fields[2]), Long.parseLong(fields[19])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether a process of group {@code pgid} still runs (not a zombie): one read of {@code /proc/<pid>/stat} per
     * process. True when that cannot be told (no {@code /proc}, or it cannot be listed): signal the group then.
     * Nothing joins a group that has no process left, so a false answer stays true.
     */
    public static boolean groupRuns(long pgid) {
        Path proc = Path.of("/proc");
        if (!Files.isDirectory(proc.resolve("self"))) {
            return true;
        }
        try (java.nio.file.DirectoryStream<Path> dirs = Files.newDirectoryStream(proc)) {
            for (Path dir : dirs) {
                String name = dir.getFileName().toString();
                if (name.isEmpty() || !name.chars().allMatch(c -> c >= '0' && c <= '9') || name.length() > 10) {
                    continue;
                }
                Optional<ProcStat> stat = procStat(Long.parseLong(name));
                if (stat.isPresent()
                        && stat.get().group() == pgid
                        && stat.get().state() != 'Z'
                        && stat.get().state() != 'X') {
                    return true;
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return true;
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
            LOG.warn(
                    "Processes of tree {} survived SIGKILL: {}",
                    pid,
                    members.stream()
                            .filter(ProcessTree::isRunning)
                            .map(ProcessHandle::pid)
                            .toList());
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
            Process p = new ProcessBuilder("kill", "-s", signal, "--", "-" + pgid)
                    .redirectErrorStream(true)
                    .redirectInput(Processes.NO_INPUT)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            LOG.debug("kill -{} -{}: {}", signal, pgid, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
