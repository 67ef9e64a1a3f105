package dev.paddock.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.paddock.settings.SettingEntry;

/**
 * A setting as the API shows it ({@code GET /v1/settings}, {@code PUT /v1/settings/{name}}) and the CLI reads
 * it back. Its field names are a public interface: add fields, never rename them. Values are text.
 *
 * @param value the value in effect
 * @param defaultValue the value when none is set
 * @param unit what the number counts, e.g. {@code ms} or {@code retries}
 * @param allowed what values the setting takes, e.g. "a whole number from 0 to 100 (retries)"
 * @param isDefault whether the value in effect is the default
 */
public record SettingView(
        String name,
        String type,
        String value,
        String defaultValue,
        String unit,
        String description,
        String allowed,
        @JsonProperty("isDefault") boolean isDefault) {

    /** The view of a setting with its value. */
    public static SettingView of(SettingEntry e) {
        return new SettingView(
                e.name(), e.type(), e.value(), e.defaultValue(), e.unit(), e.description(), e.allowed(), e.isDefault());
    }
}
