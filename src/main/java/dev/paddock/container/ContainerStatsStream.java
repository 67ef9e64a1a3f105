package dev.paddock.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Statistics;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One container's stats stream ({@code docker stats} for one container, kept open): the engine sends a sample a
 * second; each becomes a {@link ContainerMetrics} on the {@link ContainerMetricsBoard}. The first sample (no
 * previous counters) is skipped. When the stream ends (the engine ends it when the container stops) or a
 * sample has no figures, the board shows the container stopped; {@link #close()} ends it from Paddock's side
 * (the sandbox's container was removed) and shows it stopped too.
 */
public final class ContainerStatsStream implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ContainerStatsStream.class);

    private final ContainerMetricsBoard board;
    private final Clock clock;
    private final String sandboxId;
    private final String containerId;
    private final long nanoCpus;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile ResultCallback.Adapter<Statistics> callback;

    ContainerStatsStream(
            ContainerMetricsBoard board, Clock clock, String sandboxId, String containerId, long nanoCpus) {
        this.board = board;
        this.clock = clock;
        this.sandboxId = sandboxId;
        this.containerId = containerId;
        this.nanoCpus = nanoCpus;
    }

    /** The container measured. */
    public String containerId() {
        return containerId;
    }

    void open(DockerClient client) {
        ResultCallback.Adapter<Statistics> cb = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Statistics s) {
                sample(s);
            }

            @Override
            public void onError(Throwable t) {
                LOG.debug("Stats stream of {} broke: {}", DockerContainers.shortId(containerId), t.toString());
                end();
            }

            @Override
            public void onComplete() {
                end();
            }
        };
        callback = cb;
        client.statsCmd(containerId).withNoStream(false).exec(cb);
    }

    void sample(Statistics s) {
        if (ended.get()) {
            return;
        }
        if (s.getMemoryStats() == null || s.getMemoryStats().getUsage() == null || readAt(s) == null) {
            // the engine sends an empty sample for a container that is not running
            end();
            return;
        }
        StatsFormula.metrics(sandboxId, containerId, nanoCpus, s, readAt(s)).ifPresent(board::update);
    }

    /** When the engine read the sample; null for docker's zero time (a stopped container's empty sample). */
    private Instant readAt(Statistics s) {
        if (s.getRead() == null) {
            return clock.instant();
        }
        try {
            Instant at = Instant.parse(s.getRead());
            return at.getEpochSecond() <= 0 ? null : at;
        } catch (DateTimeParseException e) {
            return clock.instant();
        }
    }

    private void end() {
        if (ended.compareAndSet(false, true)) {
            board.stopped(sandboxId, containerId);
        }
    }

    /** Whether the stream ended (the container stopped) or was closed. */
    public boolean ended() {
        return ended.get();
    }

    /** Closes the stream; the container shows stopped. */
    @Override
    public void close() {
        end();
        ResultCallback.Adapter<Statistics> cb = callback;
        if (cb != null) {
            try {
                cb.close();
            } catch (IOException e) {
                LOG.debug("Closing the stats stream of {}: {}", DockerContainers.shortId(containerId), e.getMessage());
            }
        }
    }
}
