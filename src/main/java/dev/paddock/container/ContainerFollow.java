package dev.paddock.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import dev.paddock.common.PrivateFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One container's log followed into a file, and the way its end is noticed without polling: the engine ends a
 * follow stream when the container stops, so the end of the stream is the moment to look (one
 * {@code inspect}). A stream that ended for another reason (the engine restarted, the connection broke) is
 * attached again, after a pause that grows from 0.2 s to 10 s while the engine stays away.
 *
 * <p>The stream asks for timestamps ({@code docker logs -t}): each line's timestamp is stripped before it is
 * written and remembered, so a re-attached stream ({@code since} is whole seconds) skips what was written
 * already. Lines go to the file as the engine sends them; stdout and stderr are interleaved.
 *
 * <p>A container killed by SIGKILL (exit 137) without {@code State.OOMKilled} is looked at a few more times
 * ({@value #OOM_LOOKS} × {@value #OOM_PAUSE_MS} ms) before its end is told: on this machine's engine (20.10,
 * cgroup v1) the flag was seen unset right at the end of the stream and set a moment later.
 */
public final class ContainerFollow implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerFollow.class);
    private static final long FIRST_PAUSE_MS = 200;
    private static final long MAX_PAUSE_MS = 10_000;
    /**
     * How often a SIGKILLed container (exit 137) without {@code OOMKilled} is looked at again, and how long
     * apart: the engine handles the kernel's OOM event and the container's exit separately, so for a moment
     * after the exit the flag may not be set yet.
     */
    static final int OOM_LOOKS = 5;

    static final long OOM_PAUSE_MS = 200;

    private final DockerClient client;
    private final DockerContainers containers;
    private final ScheduledExecutorService watcher;
    private final String containerId;
    private final Path logFile;
    private final Consumer<ContainerExit> onExit;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile boolean closed;
    private volatile Instant last;
    private volatile ResultCallback.Adapter<Frame> current;
    private volatile long pauseMs = FIRST_PAUSE_MS;
    private int oomLooks;

    ContainerFollow(
            DockerClient client,
            DockerContainers containers,
            ScheduledExecutorService watcher,
            String containerId,
            Path logFile,
            Instant since,
            Consumer<ContainerExit> onExit) {
        this.client = client;
        this.containers = containers;
        this.watcher = watcher;
        this.containerId = containerId;
        this.logFile = logFile;
        this.last = since;
        this.onExit = onExit;
    }

    /**
     * Where the engine's timestamp of the last line written to {@code logFile} is kept ({@code <log>.pos}), so a
     * Paddock that restarts resumes after exactly that line. The log file's own modification time is not
     * enough: the kernel stamps files with a coarse clock (a few ms behind), so a line written within
     * those ms of its engine timestamp looked new again and was written twice.
     */
    public static Path positionFile(Path logFile) {
        return logFile.resolveSibling(logFile.getFileName() + ".pos");
    }

    /** The timestamp of the last line written to {@code logFile}, if a follower recorded one. */
    public static java.util.Optional<Instant> lastPosition(Path logFile) {
        try {
            return java.util.Optional.ofNullable(
                    parse(java.nio.file.Files.readString(positionFile(logFile)).strip()));
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }

    /** The container followed. */
    public String containerId() {
        return containerId;
    }

    /** Whether its end was seen (and {@code onExit} called). */
    public boolean ended() {
        return ended.get();
    }

    void attach() {
        if (closed || ended.get()) {
            return;
        }
        OutputStream out;
        try {
            out = PrivateFiles.openAppend(logFile);
        } catch (IOException e) {
            LOG.warn(
                    "Cannot write the log of container {} to {}: {}",
                    DockerContainers.shortId(containerId),
                    logFile,
                    e.getMessage());
            out = OutputStream.nullOutputStream();
        }
        OutputStream sink = out;
        ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                pauseMs = FIRST_PAUSE_MS;
                write(sink, frame.getPayload());
            }

            @Override
            public void onError(Throwable t) {
                LOG.debug("Log stream of {} broke: {}", DockerContainers.shortId(containerId), t.toString());
                streamEnded(sink);
            }

            @Override
            public void onComplete() {
                streamEnded(sink);
            }
        };
        current = callback;
        try {
            var cmd = client.logContainerCmd(containerId)
                    .withFollowStream(true)
                    .withStdOut(true)
                    .withStdErr(true)
                    .withTimestamps(true);
            Instant since = last;
            if (since != null) {
                cmd = cmd.withSince((int) since.getEpochSecond());
            }
            cmd.exec(callback);
        } catch (RuntimeException e) {
            LOG.debug("Cannot follow the log of {}: {}", DockerContainers.shortId(containerId), e.toString());
            streamEnded(sink);
        }
    }

    /** Writes a frame's lines without their timestamps, skipping lines at or before {@link #last}. */
    private void write(OutputStream out, byte[] payload) {
        String text = new String(payload, StandardCharsets.UTF_8);
        StringBuilder keep = new StringBuilder(text.length());
        int start = 0;
        while (start < text.length()) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? text.length() : nl + 1;
            String line = text.substring(start, end);
            start = end;
            int space = line.indexOf(' ');
            Instant at = space > 0 ? parse(line.substring(0, space)) : null;
            if (at == null) {
                keep.append(line);
                continue;
            }
            Instant seen = last;
            if (seen != null && !at.isAfter(seen)) {
                continue;
            }
            last = at;
            keep.append(line, space + 1, line.length());
        }
        try {
            out.write(keep.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            Instant at = last;
            if (at != null) {
                Path pos = positionFile(logFile);
                Path tmp = pos.resolveSibling(pos.getFileName() + ".tmp");
                java.nio.file.Files.writeString(tmp, at.toString());
                java.nio.file.Files.move(
                        tmp,
                        pos,
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            LOG.debug("Writing the log of {}: {}", DockerContainers.shortId(containerId), e.getMessage());
        }
    }

    private static Instant parse(String s) {
        if (s.length() < 20 || s.charAt(4) != '-' || s.charAt(10) != 'T') {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private void streamEnded(OutputStream out) {
        try {
            out.close();
        } catch (IOException e) {
            LOG.debug("Closing the log of {}: {}", DockerContainers.shortId(containerId), e.getMessage());
        }
        if (!closed && !ended.get()) {
            watcher.execute(this::lookAtTheEnd);
        }
    }

    /** On the watcher thread: did the container stop, or did only the stream break? */
    private void lookAtTheEnd() {
        if (closed || ended.get()) {
            return;
        }
        try {
            var exit = containers.exitOf(containerId);
            if (exit.isPresent() && mayStillLearnOfOom(exit.get()) && oomLooks++ < OOM_LOOKS) {
                watcher.schedule(this::lookAtTheEnd, OOM_PAUSE_MS, TimeUnit.MILLISECONDS);
                return;
            }
            if (exit.isPresent()) {
                if (ended.compareAndSet(false, true)) {
                    onExit.accept(exit.get());
                }
                return;
            }
        } catch (ContainerException e) {
            LOG.debug("Engine away while following {}: {}", DockerContainers.shortId(containerId), e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("Following {} failed: {}", DockerContainers.shortId(containerId), e.toString());
        }
        long pause = pauseMs;
        pauseMs = Math.min(MAX_PAUSE_MS, pauseMs * 2);
        if (!watcher.isShutdown()) {
            watcher.schedule(this::attach, pause, TimeUnit.MILLISECONDS);
        }
    }

    private static boolean mayStillLearnOfOom(ContainerExit e) {
        return e.code() != null && e.code() == 137 && !e.oomKilled();
    }

    /** Stops following (the container is not touched). */
    @Override
    public void close() {
        closed = true;
        ResultCallback.Adapter<Frame> c = current;
        if (c != null) {
            try {
                c.close();
            } catch (IOException e) {
                LOG.debug("Closing the log stream of {}: {}", DockerContainers.shortId(containerId), e.getMessage());
            }
        }
    }
}
