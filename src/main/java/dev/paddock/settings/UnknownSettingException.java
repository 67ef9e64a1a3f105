package dev.paddock.settings;

import dev.paddock.common.PaddockException;
import java.util.Collection;

/** A setting name Paddock does not know; the message lists the known ones. */
public class UnknownSettingException extends PaddockException {
    private static final long serialVersionUID = 1L;

    /** "There is no setting "{name}". Known settings: a, b, c." */
    public UnknownSettingException(String name, Collection<String> known) {
        super("There is no setting \"" + name + "\". Known settings: " + String.join(", ", known) + ".");
    }
}
