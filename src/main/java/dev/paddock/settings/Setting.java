package dev.paddock.settings;

import java.util.function.LongFunction;

/**
 * A known setting: its name, default, unit, meaning and the whole numbers it allows. Every setting Paddock
 * has today is a whole number (a count or a duration in ms); {@link #parse} turns text into a checked value.
 *
 * @param name dotted name, e.g. {@code sandbox.maxRetries}
 * @param defaultValue the value when none is stored
 * @param min smallest allowed value (inclusive)
 * @param max largest allowed value (inclusive)
 * @param unit what the number counts, e.g. {@code ms} or {@code retries}
 * @param description one line for people
 * @param fromLong turns a checked whole number into the value's type
 * @param <T> {@link Integer} or {@link Long}
 */
public record Setting<T>(String name, T defaultValue, long min, long max, String unit, String description,
                         LongFunction<T> fromLong) {

    /** A setting whose value is an {@code int} from {@code min} to {@code max}. */
    public static Setting<Integer> ofInt(String name, int defaultValue, int min, int max, String unit,
                                         String description) {
        return new Setting<>(name, defaultValue, min, max, unit, description, v -> (int) v);
    }

    /** A setting whose value is a {@code long} from {@code min} to {@code max}. */
    public static Setting<Long> ofLong(String name, long defaultValue, long min, long max, String unit,
                                       String description) {
        return new Setting<>(name, defaultValue, min, max, unit, description, v -> v);
    }

    /** The type shown to people and scripts: always {@code integer} today. */
    public String type() {
        return "integer";
    }

    /** What the setting allows, e.g. "a whole number from 0 to 100 (retries)". */
    public String allowed() {
        return "a whole number from " + min + " to " + max + " (" + unit + ")";
    }

    /**
     * The value written as {@code text} (surrounding blanks ignored), checked against the bounds.
     *
     * @throws InvalidSettingValueException when it is not a whole number or out of bounds; the message names
     *     the setting, the bad text and what is allowed
     */
    public T parse(String text) throws InvalidSettingValueException {
        String t = text == null ? "" : text.strip();
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
