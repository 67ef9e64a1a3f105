package dev.paddock.isolation.host;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Processes found by a variable in their environment ({@code /proc/<pid>/environ}, the environment they were
 * started with), such as {@code PADDOCK_MERGE_RUN=<home id>:<entry id>:<nonce>}. Every process a command starts
 * inherits its environment unless it clears it, whatever its process group, session or parent: so a marker set
 * before the command starts finds all of it after the process that started it is gone (killed with
 * {@code kill -9} before it could record a pid), including children that left the group ({@code setsid}) or were
 * re-parented to init. Only processes of this user are readable; others are skipped.
 */
public final class MarkedProcesses {
    private static final Logger LOG = LoggerFactory.getLogger(MarkedProcesses.class);
    private static final Path PROC = Path.of("/proc");
    /** Rounds of look and kill: a process may start children while its siblings are being killed. */
    private static final int ROUNDS = 5;

    private MarkedProcesses() {}

    /**
     * The live processes (not zombies) whose environment has {@code name} with a value starting with
     * {@code valuePrefix}, this process excepted. Empty where there is no {@code /proc}.
     */
    public static List<ProcessHandle> find(String name, String valuePrefix) {
        byte[] wanted = (name + "=" + valuePrefix).getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        List<ProcessHandle> found = new ArrayList<>();
        try (DirectoryStream<Path> dirs =
                Files.newDirectoryStream(PROC, p -> isPid(p.getFileName().toString()))) {
            for (Path dir : dirs) {
                long pid = Long.parseLong(dir.getFileName().toString());
                if (pid != self && hasEntry(dir.resolve("environ"), wanted)) {
                    Optional<ProcessHandle> h = ProcessHandle.of(pid);
                    if (h.isPresent() && ProcessTree.isRunning(h.get())) {
                        found.add(h.get());
                    }
                }
            }
        } catch (IOException e) {
            LOG.debug("Cannot list {}: {}", PROC, e.getMessage());
        }
        return found;
    }

    /**
     * Kills every process {@link #find} finds: SIGTERM, up to {@code grace} for them to end, then SIGKILL to what
     * is left, looking again each round for processes started meanwhile.
     *
     * @return how many processes were signalled
     */
    public static int kill(String name, String valuePrefix, Duration grace) {
        List<ProcessHandle> first = find(name, valuePrefix);
        if (first.isEmpty()) {
            return 0;
        }
        int signalled = first.size();
        first.forEach(ProcessHandle::destroy);
        waitGone(first, grace);
        for (int round = 0; round < ROUNDS; round++) {
            List<ProcessHandle> left = find(name, valuePrefix);
            if (left.isEmpty()) {
                return signalled;
            }
            signalled += (int) left.stream().filter(h -> !first.contains(h)).count();
            left.forEach(ProcessHandle::destroyForcibly);
            waitGone(left, Duration.ofSeconds(2));
        }
        List<ProcessHandle> survivors = find(name, valuePrefix);
        if (!survivors.isEmpty()) {
            LOG.warn(
                    "Processes marked {}={}… survived SIGKILL: {}",
                    name,
                    valuePrefix,
                    survivors.stream().map(ProcessHandle::pid).toList());
        }
        return signalled;
    }

    private static void waitGone(List<ProcessHandle> processes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (processes.stream().anyMatch(ProcessTree::isRunning) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static boolean isPid(String name) {
        if (name.isEmpty() || name.length() > 10) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Whether the NUL-separated environment file has an entry that starts with {@code wanted}. */
    private static boolean hasEntry(Path environ, byte[] wanted) {
        byte[] env;
        try (InputStream in = Files.newInputStream(environ)) {
            env = in.readNBytes(1 << 20);
        } catch (IOException | SecurityException e) {
            return false; // gone, or another user's
        }
        for (int start = 0; start + wanted.length <= env.length; ) {
            if (startsWith(env, start, wanted)) {
                return true;
            }
            int nul = indexOfNul(env, start);
            if (nul < 0) {
                return false;
            }
            start = nul + 1;
        }
        return false;
    }

    private static boolean startsWith(byte[] a, int from, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (a[from + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOfNul(byte[] a, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == 0) {
                return i;
            }
        }
        return -1;
    }
}
