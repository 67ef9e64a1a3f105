package dev.paddock.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;

/**
 * What the disk says about the names on a command's paths, for one decision: each name is looked up
 * ({@code lstat}) once and each link read once, however many of the command's files lie under it and however many
 * checks follow them ({@link PolicyGuard#resolveLinks}). Not thread-safe: one per decision.
 */
final class LinkLookups {
    /** What a name is on the disk. */
    enum Kind {
        /** No such file. */
        MISSING,
        /** A file or directory, not a symbolic link. */
        PLAIN,
        /** A symbolic link. */
        LINK,
        /** It could not be looked up (permissions, an I/O error). */
        FAILED
    }

    private final Map<Path, Kind> kinds = new HashMap<>();
    private final Map<Path, Path> targets = new HashMap<>();

    /** What {@code name} (absolute) is, without following a link at its end. */
    Kind kind(Path name) {
        Kind k = kinds.get(name);
        if (k == null) {
            k = lookUp(name);
            kinds.put(name, k);
        }
        return k;
    }

    private static Kind lookUp(Path name) {
        try {
            BasicFileAttributes attrs =
                    Files.readAttributes(name, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return attrs.isSymbolicLink() ? Kind.LINK : Kind.PLAIN;
        } catch (NoSuchFileException e) {
            return Kind.MISSING;
        } catch (IOException | SecurityException e) {
            return Kind.FAILED;
        }
    }

    /** The target of link {@code link} as written in it, or null when it cannot be read. */
    Path target(Path link) {
        if (targets.containsKey(link)) {
            return targets.get(link);
        }
        Path target;
        try {
            target = Files.readSymbolicLink(link);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            target = null;
        }
        targets.put(link, target);
        return target;
    }
}
