package dev.paddock.isolation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How a run ended, read from the exit-code file its wrapper writes (so it is known across a
 * restart of Paddock) or from the process handle.
 *
 * @param code exit code (128 + n for a signal n), or null when nobody knows it
 * @param explanation for people: "exited with 3", "ended while Paddock was not running (exit code unknown)"
 */
public record RunExit(Integer code, String explanation) {

    /** Whether the run succeeded (exit code 0). */
    public boolean succeeded() {
        return code != null && code == 0;
    }

    /** Reads the exit-code file, if the wrapper wrote it. */
    public static Optional<RunExit> fromFile(Path exitCodeFile) {
        try {
            String text = Files.readString(exitCodeFile, StandardCharsets.UTF_8).strip();
            int code = Integer.parseInt(text);
            return Optional.of(of(code));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.of(new RunExit(null, "left an unreadable exit-code file (" + e.getMessage() + ")"));
        }
    }

    /** An exit with a known code. */
    public static RunExit of(int code) {
        if (code > 128 && code < 160) {
            return new RunExit(code, "was killed by signal " + (code - 128) + " (exit code " + code + ")");
        }
        return new RunExit(code, code == 0 ? "exited with 0" : "exited with " + code);
    }
}
