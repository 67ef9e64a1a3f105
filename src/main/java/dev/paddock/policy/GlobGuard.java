package dev.paddock.policy;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * The built-in rule of {@link PolicyGuard} for a shell glob a command reads or writes: judged by every file it could
 * name ({@link GlobNames}), not by its letters. Stateless.
 */
final class GlobGuard {
    private GlobGuard() {}

    /**
     * The built-in answer to an agent writing the files that shell glob {@code glob} (absolute) may match: deny
     * when one it matches on the disk now is protected ({@link PolicyGuard#write}), ask when one it matches only with
     * {@code dotglob} on is, or when it could name protected configuration or the Paddock home once created (see
     * {@link GlobNames}); else null.
     *
     * @param written the glob as the command writes it
     */
    static Decision write(PolicyGuard guard, Path glob, String written, Supplier<String> what, LinkLookups disk) {
        String g = glob.toAbsolutePath().normalize().toString();
        if (GlobNames.dotDotAfterPattern(written)) {
            return PolicyGuard.ask(what, "has `..` after a glob, so where it lands depends on what the glob matches");
        }
        for (boolean dotglob : new boolean[] {false, true}) {
            List<Path> matches = GlobNames.expand(g, dotglob);
            if (matches == null) {
                return PolicyGuard.ask(what, "matches more files than Paddock reads to check the glob");
            }
            for (Path m : matches) {
                Decision d = guard.write(m, what, disk);
                if (d != null) {
                    return d.verdict() == Verdict.DENY && dotglob
                            ? PolicyGuard.ask(
                                    what, "would match " + m + " with `dotglob` on, which agents may never change")
                            : d;
                }
            }
        }
        for (String part : GlobNames.parts(g)) {
            if (GlobNames.hasPattern(part) && GlobNames.mayNameConfig(part, false)) {
                return PolicyGuard.ask(
                        what,
                        "could name policy or hook configuration (`" + part + "` may match "
                                + String.join(", ", PolicyGuard.CONFIG_DIRECTORIES) + ")");
            }
        }
        for (Path root : guard.roots()) {
            if (GlobNames.reach(g, root, true) != GlobNames.Reach.NONE) {
                return PolicyGuard.ask(
                        what, "could reach " + root + ", Paddock's home or its policy or hook configuration");
            }
        }
        return null;
    }

    /**
     * The built-in answer to an agent reading the files that shell glob {@code glob} (absolute) may match: ask
     * when it could name the Paddock home, a file in it or a directory that holds it, else null. By name, as
     * {@link PolicyGuard#read} is.
     */
    static Decision read(PolicyGuard guard, Path glob, String written, Supplier<String> what) {
        String g = glob.toAbsolutePath().normalize().toString();
        if (GlobNames.dotDotAfterPattern(written)) {
            return PolicyGuard.ask(what, "has `..` after a glob, so what it reads depends on what the glob matches");
        }
        for (Path h : guard.homes()) {
            if (GlobNames.reach(g, h, true) != GlobNames.Reach.NONE) {
                return PolicyGuard.ask(
                        what,
                        "could read Paddock's home " + guard.paddockHome() + " (its install token may approve"
                                + " anything)");
            }
        }
        return null;
    }
}
