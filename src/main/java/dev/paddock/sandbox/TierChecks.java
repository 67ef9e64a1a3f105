package dev.paddock.sandbox;

import dev.paddock.container.ResourceLimits;
import dev.paddock.isolation.IsolationRuntimes;
import java.util.Optional;

/**
 * Which tiers this machine can run, as the runtime of each tier tells ({@link Tier#runtimeIn}): {@code worktree}
 * always; {@code namespace} when bubblewrap is installed and can create namespaces here (probed at most once a
 * minute); {@code container} when a Docker engine answers (asked at most every few seconds).
 */
public final class TierChecks implements TierCheck {
    private final IsolationRuntimes runtimes;

    public TierChecks(IsolationRuntimes runtimes) {
        this.runtimes = runtimes;
    }

    @Override
    public Optional<String> unavailable(Tier tier) {
        return tier.runtimeIn(runtimes).unavailable();
    }

    @Override
    public Optional<String> imageProblem(String image) {
        return runtimes.container().imageProblem(image);
    }

    @Override
    public Optional<String> imageProblem(String engine, String image) {
        return Tier.CONTAINER.runtimeIn(runtimes, engine).imageProblem(image);
    }

    @Override
    public String placeEngine(String pinned, java.util.Map<String, String> labels, ResourceLimits limits)
            throws SandboxException {
        try {
            return runtimes.engines().place(pinned, labels, limits);
        } catch (dev.paddock.isolation.IsolationException e) {
            throw new SandboxException("Cannot place the container sandbox: " + e.getMessage(), e);
        }
    }
}
