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
 * @param target where approved work goes: merged locally by the queue (the default) or pushed to a remote
 */
public record MergeSettings(
        MergeStrategy strategy,
        String testCommand,
        Duration testTimeout,
        int maxAttempts,
        AutoResolveMode autoResolve,
        MergeTarget target) {
    public MergeSettings {
        target = target == null ? MergeTarget.LOCAL : target;
    }

    /** Settings whose approved work is merged locally. */
    public MergeSettings(
            MergeStrategy strategy, String testCommand, Duration testTimeout, int maxAttempts, AutoResolveMode auto) {
        this(strategy, testCommand, testTimeout, maxAttempts, auto, MergeTarget.LOCAL);
    }

    /** These settings with another target. */
    public MergeSettings withTarget(MergeTarget t) {
        return new MergeSettings(strategy, testCommand, testTimeout, maxAttempts, autoResolve, t);
    }

    /** Whether a test command is set. */
    public boolean hasTest() {
        return testCommand != null && !testCommand.isBlank();
    }
}
