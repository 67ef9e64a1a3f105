package dev.paddock.common;

import java.io.File;
import java.lang.ProcessBuilder.Redirect;
import java.util.List;
import java.util.Map;

/** Small helpers for child processes. */
public final class Processes {
    /** Standard input that reads nothing, so a child never waits for input Paddock will not give. */
    public static final Redirect NO_INPUT = Redirect.from(new File(
            System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("win")
                    ? "NUL"
                    : "/dev/null"));

    /**
     * Variables of Paddock's own that its helper processes (git, gh, a terminal, a merge queue's test) must not be
     * given: {@code PADDOCK_STORE} may hold the store's password.
     */
    public static final List<String> PADDOCK_ONLY = List.of("PADDOCK_STORE");

    private Processes() {}

    /** Removes {@link #PADDOCK_ONLY} from {@code pb}'s environment; returns {@code pb}. */
    public static ProcessBuilder withoutPaddockSecrets(ProcessBuilder pb) {
        withoutPaddockSecrets(pb.environment());
        return pb;
    }

    /** Removes {@link #PADDOCK_ONLY} from {@code env}; returns it. */
    public static Map<String, String> withoutPaddockSecrets(Map<String, String> env) {
        PADDOCK_ONLY.forEach(env::remove);
        return env;
    }
}
