package dev.paddock.common;

import java.io.File;
import java.lang.ProcessBuilder.Redirect;

/** Small helpers for child processes. */
public final class Processes {
    /** Standard input that reads nothing, so a child never waits for input Paddock will not give. */
    public static final Redirect NO_INPUT = Redirect.from(new File(
            System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("win")
                    ? "NUL"
                    : "/dev/null"));

    private Processes() {}
}
