package dev.paddock.container;

import dev.paddock.common.PaddockException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One container run to its end (see {@link DockerContainers#runToEnd}): start, follow the output into a log
 * file, wait with a timeout while polling a cancel flag, and remove the container whatever happened.
 */
final class ContainerRunToEnd {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerRunToEnd.class);
    /** How often the cancel flag is polled. */
    private static final long POLL_MS = 100;
    /** How long the log follow may take, after a stopped container is gone, to write its last lines and tell. */
    private static final Duration DRAIN = Duration.ofSeconds(2);

    private ContainerRunToEnd() {}

    static ContainerRunEnd run(
            DockerContainers containers,
            ContainerSpec spec,
            Path logFile,
            Duration timeout,
            Duration grace,
            BooleanSupplier cancelled,
            DockerContainers.Started started)
            throws ContainerException, PaddockException {
        long t0 = System.nanoTime();
        String id = containers.run(spec);
        CompletableFuture<ContainerExit> end = new CompletableFuture<>();
        ContainerFollow follow = null;
        try {
            started.started(id);
            follow = containers.follow(id, logFile, null, end::complete);
            long deadline = t0 + timeout.toNanos();
            while (true) {
                if (cancelled.getAsBoolean()) {
                    return stopped(containers, id, grace, false, t0);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return stopped(containers, id, grace, true, t0);
                }
                try {
                    ContainerExit exit =
                            end.get(Math.max(1, Math.min(POLL_MS, left / 1_000_000)), TimeUnit.MILLISECONDS);
                    return new ContainerRunEnd(id, exit, false, false, Duration.ofNanos(System.nanoTime() - t0));
                } catch (TimeoutException stillRunning) {
                    // poll again
                } catch (ExecutionException e) {
                    throw new ContainerException(
                            "Following the container " + DockerContainers.shortId(id) + " failed: " + e.getCause(),
                            e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return stopped(containers, id, grace, false, t0);
                }
            }
        } finally {
            if (follow != null) {
                // Stopped early: the follow may still be writing; give it a moment, then let go of the stream.
                awaitQuietly(end);
                follow.close();
            }
            try {
                containers.stopAndRemove(id, grace);
            } catch (ContainerException e) {
                LOG.warn("Could not remove the container {}: {}", DockerContainers.shortId(id), e.getMessage());
            }
            try {
                Files.deleteIfExists(ContainerFollow.positionFile(logFile));
            } catch (IOException e) {
                LOG.debug("Leftover {}: {}", ContainerFollow.positionFile(logFile), e.getMessage());
            }
        }
    }

    private static ContainerRunEnd stopped(
            DockerContainers containers, String id, Duration grace, boolean timedOut, long t0)
            throws ContainerException {
        containers.stopAndRemove(id, grace);
        return new ContainerRunEnd(id, null, timedOut, !timedOut, Duration.ofNanos(System.nanoTime() - t0));
    }

    private static void awaitQuietly(CompletableFuture<ContainerExit> end) {
        if (end.isDone()) {
            return;
        }
        try {
            end.get(DRAIN.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            LOG.debug("The follow did not tell the end: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
