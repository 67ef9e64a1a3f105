package dev.paddock.cli;

import dev.paddock.api.SettingView;
import java.util.List;

/** Renders settings as text for a terminal. */
final class SettingsText {
    private SettingsText() {}

    /** One line per setting under the header NAME VALUE DEFAULT DESCRIPTION; values with their unit. */
    static String table(List<SettingView> list) {
        int nameWidth = 4;
        int valueWidth = 5;
        int defaultWidth = 7;
        for (SettingView s : list) {
            nameWidth = Math.max(nameWidth, s.name().length());
            valueWidth = Math.max(valueWidth, withUnit(s.value(), s).length());
            defaultWidth = Math.max(defaultWidth, withUnit(s.defaultValue(), s).length());
        }
        String fmt = "%-" + nameWidth + "s  %-" + valueWidth + "s  %-" + defaultWidth + "s  %s%n";
        StringBuilder b = new StringBuilder(String.format(fmt, "NAME", "VALUE", "DEFAULT", "DESCRIPTION"));
        for (SettingView s : list) {
            b.append(String.format(
                    fmt, s.name(), withUnit(s.value(), s), withUnit(s.defaultValue(), s), s.description()));
        }
        return b.toString();
    }

    /** "900000 ms", "2 retries"; {@code ""} for an empty value (an agent's program found on PATH). */
    static String withUnit(String value, SettingView s) {
        if (value == null || value.isEmpty()) {
            return "\"\"";
        }
        return s.unit() == null || s.unit().isEmpty() ? value : value + " " + s.unit();
    }
}
