package dev.paddock.sandbox;

import java.time.Duration;
import java.util.Optional;

/**
 * Which tiers this machine can run: {@code worktree} always; {@code namespace} when bubblewrap is
 * installed and can create namespaces here (probed at most once a minute); {@code container} when a Docker
 * engine answers (asked at most every {@value #ENGINE_EVERY_S} seconds).
 */
public final class TierChecks implements TierCheck {
    private static final Duration PROBE_EVERY = Duration.ofMinutes(1);
    /** Seconds an engine's answer is trusted for. */
    static final long ENGINE_EVERY_S = 5;

    private final BubblewrapProbe bubblewrap;
    private final ContainerAgents containers;
    private BubblewrapProbe.Status last;
    private long lastAt;
    private Optional<String> engine;
    private long engineAt;

    /** Without the container tier (it is then reported unavailable). */
    public TierChecks(BubblewrapProbe bubblewrap) {
        this(bubblewrap, ContainerAgents.none());
    }

    public TierChecks(BubblewrapProbe bubblewrap, ContainerAgents containers) {
        this.bubblewrap = bubblewrap;
        this.containers = containers;
    }

    @Override
    public synchronized Optional<String> unavailable(Tier tier) {
        return switch (tier) {
            case WORKTREE -> Optional.empty();
            case NAMESPACE -> {
                if (last == null || System.nanoTime() - lastAt > PROBE_EVERY.toNanos()) {
                    last = bubblewrap.probe();
                    lastAt = System.nanoTime();
                }
                yield last.usable() ? Optional.empty() : Optional.of(last.problem());
            }
            case CONTAINER -> {
                if (engine == null || System.nanoTime() - engineAt > Duration.ofSeconds(ENGINE_EVERY_S).toNanos()) {
                    engine = containers.unavailable();
                    engineAt = System.nanoTime();
                }
                yield engine;
            }
        };
    }

    @Override
    public Optional<String> imageProblem(String image) {
        return containers.imageProblem(image);
    }
}
