package dev.paddock.policy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The directories a command line may be in at some point, for resolving relative paths. A {@code cd} may
 * fail (the directory need not exist, {@code cd x || ...}), may sit in a subshell, a branch or a pipeline
 * that does not change the outer shell, and the analysis reads commands flattened: so a {@code cd} adds its
 * target to the set instead of replacing it, and a relative path is resolved against every member. The set
 * only grows, so whatever order the commands are judged in, every directory the shell can really be in is
 * covered. It becomes unknown after {@code cd} to a directory known only at run time, {@code cd -}, a
 * relative {@code cd} that may repeat (in a loop or function), or more than {@link #MAX} members.
 */
final class Directories {
    /** More possible directories than this count as unknown. */
    static final int MAX = 8;

    private final Set<Path> dirs = new LinkedHashSet<>();
    private boolean unknown;

    /** Starts in {@code start} (absolute, normalised). */
    Directories(Path start) {
        dirs.add(start);
    }

    private Directories(Set<Path> dirs, boolean unknown) {
        this.dirs.addAll(dirs);
        this.unknown = unknown;
    }

    /** A copy in which the directory is {@code dir} only (null: unknown), for {@code env -C dir cmd}. */
    static Directories only(Path dir) {
        return dir == null ? new Directories(Set.of(), true) : new Directories(Set.of(dir), false);
    }

    /** Whether the directory may be one the analysis cannot name. */
    boolean unknown() {
        return unknown;
    }

    /** Whether the directory is known to be {@code dir}, and only it. */
    boolean isOnly(Path dir) {
        return !unknown && dirs.size() == 1 && dirs.contains(dir);
    }

    /** The possible directories (empty when unknown). */
    Set<Path> all() {
        return unknown ? Set.of() : Set.copyOf(dirs);
    }

    /**
     * {@code v} (a path as written, {@code ~} expanded against {@code home}) as absolute paths, one per
     * possible directory; null when it is relative and the directory unknown, or names another user's home.
     */
    List<Path> resolve(String v, Path home) {
        List<Path> raw = resolveRaw(v, home);
        if (raw == null) {
            return null;
        }
        List<Path> out = new ArrayList<>(raw.size());
        for (Path p : raw) {
            out.add(p.normalize());
        }
        return out;
    }

    /** {@link #resolve} without applying {@code .} and {@code ..} (which {@link ProcPaths} has to see). */
    List<Path> resolveRaw(String v, Path home) {
        if (v.equals("~")) {
            return List.of(home);
        }
        if (v.startsWith("~/")) {
            return List.of(home.resolve(v.substring(2)));
        }
        if (v.startsWith("/")) {
            return List.of(Path.of(v));
        }
        if (v.startsWith("~") || unknown) {
            return null;
        }
        List<Path> out = new ArrayList<>(dirs.size());
        for (Path d : dirs) {
            out.add(d.resolve(v));
        }
        return out;
    }

    /**
     * After {@code cd target}: {@code target} is the static value (null when only known at run time or
     * {@code -}); {@code repeated} when the {@code cd} may run several times.
     */
    void cd(String target, boolean repeated, Path home) {
        if (target == null || target.equals("-")) {
            unknown = true;
            return;
        }
        boolean relative = !target.startsWith("/") && !target.startsWith("~");
        if (repeated && relative) {
            unknown = true;
            return;
        }
        List<Path> raw = target.isEmpty() ? List.of(home) : resolveRaw(target, home);
        if (raw == null) {
            unknown = true;
            return;
        }
        List<Path> to = new ArrayList<>();
        for (Path p : raw) {
            if (ProcPaths.of(p).kind() == ProcPaths.Kind.PLAIN) {
                Path lexical = p.normalize();
                to.add(lexical);
                Path physical = p.toString().contains("/..") ? physical(p) : null;
                if (physical != null && !physical.equals(lexical)) {
                    to.add(physical); // cd -P (or set -P): a link before the `..` is followed first
                }
                continue;
            }
            for (Path d : dirs) {
                Path q = ProcPaths.plain(p, d); // cd /proc/self/cwd/x is cd x
                if (q == null) {
                    unknown = true;
                    return;
                }
                to.add(q);
            }
        }
        dirs.addAll(to);
        if (dirs.size() > MAX) {
            unknown = true;
        }
    }

    /** Where the kernel takes {@code p}, links followed before each {@code ..}; null when it does not exist. */
    private static Path physical(Path p) {
        try {
            return p.toRealPath();
        } catch (java.io.IOException | SecurityException e) {
            return null;
        }
    }
}
