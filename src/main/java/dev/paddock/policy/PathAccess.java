package dev.paddock.policy;

import java.nio.file.Path;

/**
 * A file a Bash command reads or writes through a redirection, {@code tee}, {@code xargs -a} and the like,
 * or names as an argument of a known reader or writer ({@code cat}, {@code cp}, {@code rm}...); judged as a
 * {@code Read} or an {@code Edit} of that path.
 *
 * @param kind read or write
 * @param path absolute and normalised
 * @param written the path as written in the command
 * @param argument whether it was read from a program's arguments ({@code cat ~/.ssh/id_rsa},
 *     {@code cp x ~/.bashrc}) rather than a redirection: such accesses are checked against deny and ask
 *     rules only, so {@code cat README.md} needs no Read rule while {@code Read(~/.ssh/**)} in deny still
 *     holds
 */
public record PathAccess(Kind kind, Path path, String written, boolean argument) {
    /** Reading, or writing (creating, truncating, appending). */
    public enum Kind {
        READ("Read"), WRITE("Edit");

        private final String tool;

        Kind(String tool) {
            this.tool = tool;
        }

        /** The tool whose rules judge this access: {@code Read} or {@code Edit}. */
        public String tool() {
            return tool;
        }
    }
}
