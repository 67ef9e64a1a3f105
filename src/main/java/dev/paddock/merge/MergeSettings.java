package dev.paddock.merge;

import java.time.Duration;

/**
 * A repository's merge settings (columns of {@code repositories}).
 *
 * @param strategy how a branch is brought up to date ({@code merge} by default)
 * @param testCommand shell command ({@code /bin/sh -c}) run in the candidate result; null or blank: no test
 * @param testTimeout how long the test may run before its whole process tree is killed (a failure)
 * @param maxAttempts failed attempts after which the entry leaves the queue for a person (default 3)
 * @param autoResolve whether a conflict whose every hunk is safe is resolved without a person ({@code propose}
 *                    by default: the proposals wait for a person's confirmation)
 * @param review whether a person approves a finished sandbox's change before it enters the queue
 *               ({@code required} by default)
 */
public record MergeSettings(
        MergeStrategy strategy,
        String testCommand,
        Duration testTimeout,
        int maxAttempts,
        AutoResolveMode autoResolve,
        ReviewMode review) {
    /** Settings with the review {@code required} (the default). */
    public MergeSettings(
            MergeStrategy strategy,
            String testCommand,
            Duration testTimeout,
            int maxAttempts,
            AutoResolveMode autoResolve) {
        this(strategy, testCommand, testTimeout, maxAttempts, autoResolve, ReviewMode.REQUIRED);
    }

    public MergeSettings {
        review = review == null ? ReviewMode.REQUIRED : review;
    }

    /** Whether a test command is set. */
    public boolean hasTest() {
        return testCommand != null && !testCommand.isBlank();
    }
}
