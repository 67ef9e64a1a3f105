package dev.paddock.policy;

import java.nio.file.Path;

/**
 * A file a Bash command reads or writes through a redirection, {@code tee}, {@code xargs -a} and the like,
 * or names as an argument of a program whose arguments are modelled ({@code cat}, {@code cp}, {@code sed -i},
 * {@code git show :f}...); judged as a {@code Read} or an {@code Edit} of that path.
 *
 * @param kind read or write
 * @param path absolute and normalised; for {@link Scope#PATTERN} the glob made absolute; null for
 *     {@link Scope#UNKNOWN}
 * @param written the path as written in the command
 * @param argument whether it was read from a program's arguments ({@code cat ~/.ssh/id_rsa},
 *     {@code cp x ~/.bashrc}) rather than a redirection: such accesses are checked against deny and ask
 *     rules only, so {@code cat README.md} needs no Read rule while {@code Read(~/.ssh/**)} in deny still
 *     holds (a program reading or writing its own operands is what an allow rule for it allows)
 * @param scope what the path stands for: one file, a whole directory tree, a glob, or a file only known at
 *     run time
 */
public record PathAccess(Kind kind, Path path, String written, boolean argument, Scope scope) {
    /** An access to one file. */
    public PathAccess(Kind kind, Path path, String written, boolean argument) {
        this(kind, path, written, argument, Scope.FILE);
    }

    /** Reading, or writing (creating, truncating, appending, deleting). */
    public enum Kind {
        READ("Read"),
        WRITE("Edit");

        private final String tool;

        Kind(String tool) {
            this.tool = tool;
        }

        /** The tool whose rules judge this access: {@code Read} or {@code Edit}. */
        public String tool() {
            return tool;
        }
    }

    /**
     * What {@link #path()} covers. A rule matching a file inside a {@link #TREE} or one a {@link #PATTERN}
     * could name, or any deny or ask rule for an {@link #UNKNOWN} access, makes the command asked: the file may
     * or may not be among those the command reaches.
     */
    public enum Scope {
        /** The file (or directory) itself. */
        FILE,
        /** The directory and everything below it ({@code rm -r d}, {@code grep -r x d}, {@code tar -xf a -C d}). */
        TREE,
        /** The files a glob matches ({@code cat .e*}). */
        PATTERN,
        /** A file named only at run time ({@code cat $f}, {@code xargs cat}, a path in an unknown directory). */
        UNKNOWN,
        /**
         * A file named in the arguments of a program whose arguments are not modelled ({@code bat .env}): it may
         * read or write it, so a deny or ask rule matching it asks.
         */
        MENTION
    }
}
