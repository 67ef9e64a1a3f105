package dev.paddock.ui.notify;

import dev.paddock.common.Threads;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Desktop notifications through libnotify's {@code notify-send}, found on a PATH: each one a process started with its
 * arguments (no shell), on a thread of its own so the caller (the FX thread) never waits. Where no {@code notify-send}
 * is found nothing is shown, and one log line says so.
 */
public final class DesktopNotifier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DesktopNotifier.class);
    /** The program looked for. */
    public static final String PROGRAM = "notify-send";
    /** How long one notify-send may take before it is ended. */
    private static final long TIMEOUT_MS = 5_000;

    private final Supplier<String> path;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(Threads.daemon("desktop-notifications"));
    private final AtomicBoolean saidMissing = new AtomicBoolean();

    /** Looks for {@code notify-send} on Paddock's own PATH. */
    public DesktopNotifier() {
        this(() -> System.getenv("PATH"));
    }

    /** @param path the PATH to look for {@code notify-send} on, asked at each notification */
    public DesktopNotifier(Supplier<String> path) {
        this.path = path;
    }

    /**
     * Shows a notification, later and on another thread.
     *
     * @param summary its first line, e.g. "fix-auth-20261205-001 is waiting for you"
     * @param body the line under it (may be empty)
     * @param wanted asked on that thread first (a setting read from the store): nothing is shown when it says no
     */
    public void notify(String summary, String body, Supplier<Boolean> wanted) {
        runner.execute(() -> {
            try {
                if (Boolean.TRUE.equals(wanted.get())) {
                    show(summary, body);
                }
            } catch (RuntimeException e) {
                LOG.warn("Desktop notification not shown: {}", e.toString());
            }
        });
    }

    private void show(String summary, String body) {
        Optional<Path> program = locate(path.get());
        if (program.isEmpty()) {
            if (saidMissing.compareAndSet(false, true)) {
                LOG.info(
                        "No desktop notifications: there is no {} on PATH (on Debian and Ubuntu it comes with"
                                + " libnotify-bin).",
                        PROGRAM);
            }
            return;
        }
        List<String> argv =
                List.of(program.get().toString(), "--app-name=Paddock", "--", summary, body == null ? "" : body);
        try {
            Process p = new ProcessBuilder(argv)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!p.waitFor(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                LOG.warn("{} did not end within {} ms; ended it", PROGRAM, TIMEOUT_MS);
            } else if (p.exitValue() != 0) {
                LOG.debug("{} exited with {}", PROGRAM, p.exitValue());
            }
        } catch (java.io.IOException e) {
            LOG.warn("Cannot run {}: {}", program.get(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The first executable {@code notify-send} in an absolute directory of {@code path}. */
    static Optional<Path> locate(String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty() || !Path.of(dir).isAbsolute()) {
                continue; // the current directory is never where a program is taken from
            }
            Path p = Path.of(dir, PROGRAM);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Stops the thread; notifications not yet shown are dropped. */
    @Override
    public void close() {
        runner.shutdownNow();
    }
}
