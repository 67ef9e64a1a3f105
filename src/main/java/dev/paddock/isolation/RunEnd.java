package dev.paddock.isolation;

import java.time.Duration;

/**
 * How a run that was waited for to its end ({@link IsolationRuntime#runToEnd}) ended. The runtime has noted in its
 * log what it did (killed after the timeout, out of memory, the exit code).
 *
 * @param exitCode the command's exit code, null when it was killed or vanished
 * @param timedOut whether it ran past its timeout and was stopped
 * @param cancelled whether it was stopped because it was cancelled
 * @param elapsed how long it ran
 * @param vanished whether it was removed by someone else before it ended (its exit code is unknown)
 * @param where the run, for people ("container 0123456789ab"), or null
 */
public record RunEnd(
        Integer exitCode, boolean timedOut, boolean cancelled, Duration elapsed, boolean vanished, String where) {
    /** Ended by itself with {@code code}. */
    public static RunEnd exited(int code, Duration elapsed) {
        return new RunEnd(code, false, false, elapsed, false, null);
    }

    /** Stopped after its timeout. */
    public static RunEnd timedOut(Duration elapsed) {
        return new RunEnd(null, true, false, elapsed, false, null);
    }

    /** Stopped because it was cancelled. */
    public static RunEnd cancelled(Duration elapsed) {
        return new RunEnd(null, false, true, elapsed, false, null);
    }
}
