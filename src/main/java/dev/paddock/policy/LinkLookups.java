package dev.paddock.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the disk says about the names on a command's paths, for one decision: each name is looked up
 * ({@code lstat}) once and each link read once, however many of the command's files lie under it and however many
 * checks follow them ({@link #resolve}). Not thread-safe: one per decision.
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

    /** Most links followed while resolving one path (the kernel's own limit is 40). */
    private static final int MAX_LINKS = 40;

    private final Map<Path, Kind> kinds = new HashMap<>();
    private final Map<Path, Path> targets = new HashMap<>();

    /**
     * {@code abs} resolved one name at a time as the kernel does, following every symbolic link (also one whose
     * target does not exist yet: a write creates it there), from the root down to the
     * first name that does not exist (nothing below it can be a link); null when there are too many links or one
     * cannot be read. One {@code lstat} per name: chosen over {@code realpath}, which starts again from the root for
     * every missing name at the end of a path to a new file. For a process working in {@code cwd}, a link into
     * {@code /proc/self/cwd} or {@code /proc/self/root} (see {@link ProcPaths}) is followed as that process would;
     * without {@code cwd} (null), or through a descriptor, such a path cannot be resolved (null): {@code /proc/self}
     * here is Paddock's.
     */
    Path resolve(Path abs, Path cwd) {
        Path cur = abs.getRoot();
        if (cur == null) {
            return null;
        }
        Deque<Path> rest = new ArrayDeque<>();
        abs.forEach(rest::addLast);
        int links = 0;
        boolean missing = false;
        while (!rest.isEmpty()) {
            Path name = rest.pollFirst();
            String n = name.toString();
            if (n.equals(".") || n.isEmpty()) {
                continue;
            }
            if (n.equals("..")) {
                cur = cur.getParent() == null ? cur : cur.getParent();
                missing = false; // back in a folder that exists (mkdir -p may make the missing one first)
                continue;
            }
            Path next = cur.resolve(name);
            if (missing) {
                cur = next;
                continue;
            }
            Kind kind = kind(next);
            if (kind == Kind.MISSING) {
                missing = true;
                cur = next;
                continue;
            }
            if (kind == Kind.FAILED) {
                return null;
            }
            if (kind == Kind.PLAIN) {
                cur = next;
                continue;
            }
            if (++links > MAX_LINKS) {
                return null;
            }
            if (next.startsWith("/proc") || next.startsWith("/dev/fd")) {
                // /proc/self here is this process's, not the agent's: rewrite the rest of the path instead
                Path lexical = next;
                for (Path r : rest) {
                    lexical = lexical.resolve(r);
                }
                Path plain = cwd == null ? null : ProcPaths.plain(lexical, cwd);
                if (plain == null || plain.startsWith("/proc") || plain.startsWith("/dev/fd")) {
                    return null;
                }
                rest.clear();
                plain.forEach(rest::addLast);
                cur = plain.getRoot();
                missing = false;
                continue;
            }
            Path target = target(next);
            if (target == null) {
                return null;
            }
            List<Path> parts = new ArrayList<>();
            target.forEach(parts::add);
            for (int i = parts.size() - 1; i >= 0; i--) {
                rest.addFirst(parts.get(i));
            }
            if (target.isAbsolute()) {
                cur = target.getRoot();
            }
        }
        return cur;
    }

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
