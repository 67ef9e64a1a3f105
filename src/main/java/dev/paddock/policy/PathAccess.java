package dev.paddock.policy;

import java.nio.file.Path;

/**
 * A file a Bash command reads or writes through a redirection, {@code tee}, {@code xargs -a} and the like;
 * judged as a {@code Read} or an {@code Edit} of that path.
 *
 * @param kind read or write
 * @param path absolute and normalised
 * @param written the path as written in the command
 */
public record PathAccess(Kind kind, Path path, String written) {
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
