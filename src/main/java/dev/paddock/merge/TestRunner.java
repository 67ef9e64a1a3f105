package dev.paddock.merge;

import java.time.Duration;

/**
 * What a merge test run is and how it ended: the marker of its processes, the grace it gets when stopped, and its
 * {@link Outcome}. {@link TierTestRunner} runs it in the runtime of the entry's tier.
 */
public final class TestRunner {
    /** Time between SIGTERM and SIGKILL when a test run is stopped. */
    static final Duration GRACE = Duration.ofSeconds(2);
    /**
     * The variable that marks every process of a test run ({@code <home id>:<entry id>:<nonce>}), set before the
     * command starts: a Paddock killed before it recorded the run's pid, or a process that left the run's group, is
     * still found by it.
     */
    public static final String RUN_MARKER = "PADDOCK_MERGE_RUN";

    private TestRunner() {}

    /**
     * How a test run ended.
     *
     * @param exitCode the command's exit code, null when killed
     * @param timedOut whether it ran past its timeout and was killed
     * @param cancelled whether it was stopped because the entry was cancelled
     * @param elapsed how long it ran
     */
    public record Outcome(Integer exitCode, boolean timedOut, boolean cancelled, Duration elapsed) {
        /** Whether the test passed (exit code 0). */
        public boolean passed() {
            return exitCode != null && exitCode == 0;
        }

        /** For people: "passed in 3 s", "failed with exit code 1", "killed after its timeout of 60 s". */
        public String describe(Duration timeout) {
            if (timedOut) {
                return "the test command ran past its timeout of " + timeout.toSeconds() + " s and was killed";
            }
            if (cancelled) {
                return "the test command was stopped: the entry was cancelled";
            }
            return passed()
                    ? "the test command passed in " + elapsed.toMillis() + " ms"
                    : "the test command failed with exit code " + exitCode;
        }
    }
}
