package dev.paddock.sandbox;

import java.time.Duration;
import java.util.Optional;

/**
 * Which tiers this machine can run: {@code worktree} always; {@code namespace} when bubblewrap is
 * installed and can create namespaces here (probed at most once a minute); {@code container} not yet
 * (it comes with the container sandboxes).
 */
public final class TierChecks implements TierCheck {
    private static final Duration PROBE_EVERY = Duration.ofMinutes(1);

    private final BubblewrapProbe bubblewrap;
    private BubblewrapProbe.Status last;
    private long lastAt;

    public TierChecks(BubblewrapProbe bubblewrap) {
        this.bubblewrap = bubblewrap;
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
            case CONTAINER -> Optional.of("container sandboxes are not built yet.");
        };
    }
}
