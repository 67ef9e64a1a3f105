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
 * @param target where approved work goes: merged locally by the queue (the default) or pushed to a remote
 */
public record MergeSettings(
        MergeStrategy strategy,
        String testCommand,
        Duration testTimeout,
        int maxAttempts,
        AutoResolveMode autoResolve,
        ReviewMode review,
        MergeTarget target) {
    public MergeSettings {
        review = review == null ? ReviewMode.REQUIRED : review;
        target = target == null ? MergeTarget.LOCAL : target;
    }

    /** Settings with the review {@code required} (the default) whose approved work is merged locally. */
    public MergeSettings(
            MergeStrategy strategy,
            String testCommand,
            Duration testTimeout,
            int maxAttempts,
            AutoResolveMode autoResolve) {
        this(strategy, testCommand, testTimeout, maxAttempts, autoResolve, ReviewMode.REQUIRED, MergeTarget.LOCAL);
    }

    /** Settings with this review whose approved work is merged locally. */
    public MergeSettings(
            MergeStrategy strategy,
            String testCommand,
            Duration testTimeout,
            int maxAttempts,
            AutoResolveMode autoResolve,
            ReviewMode review) {
        this(strategy, testCommand, testTimeout, maxAttempts, autoResolve, review, MergeTarget.LOCAL);
    }

    /** Settings with the review {@code required} and this target. */
    public MergeSettings(
            MergeStrategy strategy,
            String testCommand,
            Duration testTimeout,
            int maxAttempts,
            AutoResolveMode autoResolve,
            MergeTarget target) {
        this(strategy, testCommand, testTimeout, maxAttempts, autoResolve, ReviewMode.REQUIRED, target);
    }

    /** These settings with another review. */
    public MergeSettings withReview(ReviewMode r) {
        return new MergeSettings(strategy, testCommand, testTimeout, maxAttempts, autoResolve, r, target);
    }

    /** These settings with another target. */
    public MergeSettings withTarget(MergeTarget t) {
        return new MergeSettings(strategy, testCommand, testTimeout, maxAttempts, autoResolve, review, t);
    }

    /** Whether a test command is set. */
    public boolean hasTest() {
        return testCommand != null && !testCommand.isBlank();
    }
}
