package dev.paddock.settings;

import dev.paddock.common.PaddockException;

/** A value a setting does not allow (not a whole number, out of bounds, not a usable path); nothing was changed. */
public class InvalidSettingValueException extends PaddockException {
    private static final long serialVersionUID = 1L;

    /** "Setting {name} cannot be "{text}": it takes {allowed}." */
    public InvalidSettingValueException(Setting<?> setting, String text) {
        super("Setting " + setting.name() + " cannot be \"" + text + "\": it takes " + setting.allowed() + ".");
    }

    /** "Setting {name} cannot be "{text}": {why}; it takes {allowed}." */
    public InvalidSettingValueException(Setting<?> setting, String text, String why) {
        super("Setting " + setting.name() + " cannot be \"" + text + "\": " + why + "; it takes " + setting.allowed()
                + ".");
    }
}
