package dev.paddock.ui.mergesettings;

import dev.paddock.common.PaddockException;
import dev.paddock.merge.AutoResolveMode;
import dev.paddock.merge.MergeSettings;
import dev.paddock.merge.MergeStrategy;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What the Merge settings dialog needs from Paddock's merge queue: read and change one repository's merge
 * settings. Both methods read or write the store: the panel calls them off the FX thread.
 */
public interface MergeSettingsBackend {
    /**
     * The merge settings of the repository containing {@code repository}.
     *
     * @throws PaddockException when the repository cannot be opened or the store read
     */
    MergeSettings settings(Path repository) throws PaddockException;

    /**
     * Changes a repository's merge settings; a null argument keeps that value, a blank test command clears it.
     * Each value that changes writes a {@code setting.changed} event.
     *
     * @param testTimeout how long the test command may run, at least 1 s
     * @param maxAttempts failed attempts before a person is asked, at least 1
     * @return the settings as stored afterwards
     * @throws PaddockException with a message for people when a value is refused (then nothing changed) or the
     *     repository or the store cannot be reached
     */
    MergeSettings configure(
            Path repository,
            MergeStrategy strategy,
            String testCommand,
            Duration testTimeout,
            Integer maxAttempts,
            AutoResolveMode autoResolve)
            throws PaddockException;

    /**
     * {@link #configure(Path, MergeStrategy, String, Duration, Integer, AutoResolveMode)} with the review setting
     * too ({@code required} or {@code auto}; null keeps it). A backend that does not store it ignores it.
     */
    default MergeSettings configure(
            Path repository,
            MergeStrategy strategy,
            String testCommand,
            Duration testTimeout,
            Integer maxAttempts,
            AutoResolveMode autoResolve,
            dev.paddock.merge.ReviewMode review)
            throws PaddockException {
        return configure(repository, strategy, testCommand, testTimeout, maxAttempts, autoResolve);
    }
}
