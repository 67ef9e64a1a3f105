package dev.paddock.settings;

/**
 * A setting with its current value, as {@link SettingsStore#all()} lists it. Values are written as text.
 *
 * @param name dotted name, e.g. {@code sandbox.maxRetries}
 * @param type the value's type ({@code integer})
 * @param value the value in effect
 * @param defaultValue the value when none is stored
 * @param unit what the number counts, e.g. {@code ms}
 * @param description one line for people
 * @param allowed what values are allowed, e.g. "a whole number from 0 to 100 (retries)"
 * @param isDefault whether the value in effect is the default (nothing, or nothing valid, is stored)
 */
public record SettingEntry(
        String name,
        String type,
        String value,
        String defaultValue,
        String unit,
        String description,
        String allowed,
        boolean isDefault) {

    static <T> SettingEntry of(Setting<T> s, T value) {
        return new SettingEntry(
                s.name(),
                s.type(),
                String.valueOf(value),
                String.valueOf(s.defaultValue()),
                s.unit(),
                s.description(),
                s.allowed(),
                value.equals(s.defaultValue()));
    }
}
