package dev.paddock.ui.mergesettings;

import dev.paddock.common.PaddockException;
import dev.paddock.merge.AutoResolveMode;
import dev.paddock.merge.MergeService;
import dev.paddock.merge.MergeSettings;
import dev.paddock.merge.MergeStrategy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * The Merge settings dialog's backend over {@link MergeService}, the same calls as {@code paddock merge config}
 * and {@code /v1/merges/settings}.
 */
public final class ServiceMergeSettingsBackend implements MergeSettingsBackend {
    private final MergeService merges;

    /** A backend over Paddock's merge service. */
    public ServiceMergeSettingsBackend(MergeService merges) {
        this.merges = Objects.requireNonNull(merges, "merges");
    }

    @Override
    public MergeSettings settings(Path repository) throws PaddockException {
        return merges.settings(repository);
    }

    @Override
    public MergeSettings configure(
            Path repository,
            MergeStrategy strategy,
            String testCommand,
            Duration testTimeout,
            Integer maxAttempts,
            AutoResolveMode autoResolve)
            throws PaddockException {
        return configure(repository, strategy, testCommand, testTimeout, maxAttempts, autoResolve, null);
    }

    @Override
    public MergeSettings configure(
            Path repository,
            MergeStrategy strategy,
            String testCommand,
            Duration testTimeout,
            Integer maxAttempts,
            AutoResolveMode autoResolve,
            dev.paddock.merge.ReviewMode review)
            throws PaddockException {
        return merges.configure(
                repository,
                strategy == null ? null : strategy.id(),
                testCommand,
                testTimeout == null ? null : testTimeout.toMillis(),
                maxAttempts,
                autoResolve == null ? null : autoResolve.id(),
                review == null ? null : review.id());
    }
}
