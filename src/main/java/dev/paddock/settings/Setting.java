package dev.paddock.settings;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * A known setting: its name, default, unit, meaning and the values it allows. Most are whole numbers (a count or a
 * duration in ms) between bounds; the agents' programs are paths ({@link #ofExecutable}). {@link #parse} turns text
 * into a checked value.
 *
 * @param name dotted name, e.g. {@code sandbox.maxRetries}
 * @param defaultValue the value when none is stored
 * @param min smallest allowed value (inclusive; 0 for a path)
 * @param max largest allowed value (inclusive; 0 for a path)
 * @param unit what the number counts, e.g. {@code ms} or {@code retries} (empty for a path)
 * @param description one line for people
 * @param fromLong turns a checked whole number into the value's type (null for a path)
 * @param type {@code integer}, or {@code executable}: an absolute path to a program, or empty for none
 * @param <T> {@link Integer}, {@link Long} or {@link String}
 */
public record Setting<T>(
        String name,
        T defaultValue,
        long min,
        long max,
        String unit,
        String description,
        LongFunction<T> fromLong,
        String type) {
    /** The type of a whole number. */
    public static final String INTEGER = "integer";
    /** The type of an agent's program: an absolute path, or empty for none (the program is looked for on PATH). */
    public static final String EXECUTABLE = "executable";

    /** A setting whose value is an {@code int} from {@code min} to {@code max}. */
    public static Setting<Integer> ofInt(
            String name, int defaultValue, int min, int max, String unit, String description) {
        return new Setting<>(name, defaultValue, min, max, unit, description, v -> (int) v, INTEGER);
    }

    /** A setting whose value is a {@code long} from {@code min} to {@code max}. */
    public static Setting<Long> ofLong(
            String name, long defaultValue, long min, long max, String unit, String description) {
        return new Setting<>(name, defaultValue, min, max, unit, description, v -> v, INTEGER);
    }

    /**
     * A setting whose value is the absolute path of a program, or empty (the default) for none. The form is checked
     * by {@link #parse}; that the file is there and executable when a person sets it ({@link #parseNew}), and again
     * by whoever runs it, since it may be gone by then.
     */
    public static Setting<String> ofExecutable(String name, String description) {
        return new Setting<>(name, "", 0, 0, "", description, null, EXECUTABLE);
    }

    /** What the setting allows, e.g. "a whole number from 0 to 100 (retries)". */
    public String allowed() {
        if (type.equals(EXECUTABLE)) {
            return "the absolute path of an executable file, or \"\" for none";
        }
        return "a whole number from " + min + " to " + max + " (" + unit + ")";
    }

    /**
     * The value written as {@code text} (surrounding blanks ignored), checked against the bounds, or for a path,
     * its form (absolute, one line).
     *
     * @throws InvalidSettingValueException when it is not a whole number or out of bounds, or not an absolute path;
     *     the message names the setting, the bad text and what is allowed
     */
    @SuppressWarnings("unchecked")
    public T parse(String text) throws InvalidSettingValueException {
        String t = text == null ? "" : text.strip();
        if (type.equals(EXECUTABLE)) {
            return (T) path(t, text);
        }
        // ASCII digits only: Long.parseLong also takes the digits of other scripts ("\u0665" is 5) and a plus sign.
        if (!t.matches("-?[0-9]{1,18}")) {
            throw new InvalidSettingValueException(this, text);
        }
        long v = Long.parseLong(t);
        if (v < min || v > max) {
            throw new InvalidSettingValueException(this, text);
        }
        return fromLong.apply(v);
    }

    /**
     * A value a person sets: as {@link #parse}, and for an executable, the file must be there and executable now.
     *
     * @throws InvalidSettingValueException when it is not, saying why
     */
    public T parseNew(String text) throws InvalidSettingValueException {
        T value = parse(text);
        if (type.equals(EXECUTABLE) && !((String) value).isEmpty()) {
            Optional<String> problem = executableProblem(Path.of((String) value));
            if (problem.isPresent()) {
                throw new InvalidSettingValueException(this, text, problem.get());
            }
        }
        return value;
    }

    /**
     * Why {@code program} cannot be run as an agent's program, e.g. "there is no such file", or empty when it is an
     * executable file (a link to one counts).
     */
    public static Optional<String> executableProblem(Path program) {
        if (!Files.exists(program)) {
            return Optional.of("there is no such file");
        }
        if (!Files.isRegularFile(program)) {
            return Optional.of("it is not a file");
        }
        if (!Files.isExecutable(program)) {
            return Optional.of("it is not executable (chmod +x)");
        }
        return Optional.empty();
    }

    private String path(String t, String text) throws InvalidSettingValueException {
        if (t.isEmpty()) {
            return "";
        }
        try {
            if (t.indexOf('\n') < 0 && t.indexOf('\r') < 0 && Path.of(t).isAbsolute()) {
                return t;
            }
        } catch (InvalidPathException e) {
            // falls through: not a path
        }
        throw new InvalidSettingValueException(this, text);
    }

    /**
     * {@code value} checked against the bounds.
     *
     * @throws IllegalArgumentException when it is out of bounds (a caller's bug: code, not people, passes it)
     */
    T check(T value) {
        try {
            return parse(String.valueOf(value));
        } catch (InvalidSettingValueException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
