package dev.paddock.policy;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Other names Linux gives the files of a process: {@code /proc/self/cwd/X} (also {@code thread-self}, a process
 * id, and {@code task/TID/} below them) is {@code X} in the process's working directory, {@code /proc/self/root/X}
 * is {@code /X}, and {@code /proc/self/fd/N} and {@code /dev/fd/N} are whatever file descriptor {@code N} has open
 * (a directory included: {@code /dev/fd/3/hooks/pre-commit}). Paths are judged under the names the rules use, so
 * these are rewritten before matching; a descriptor's file cannot be named, so reaching a file through one is a
 * problem (only the standard streams {@code /dev/fd/0}, {@code 1}, {@code 2} are plain).
 */
final class ProcPaths {
    /** {@code /proc/<process>[/task/<thread>]/(cwd|root|fd)}, or {@code /dev/fd}. */
    private static final Pattern ALIAS =
            Pattern.compile("/proc/(self|thread-self|[0-9]+)(?:/task/(?:[0-9]+|self))?/(cwd|root|fd)|/dev/(fd)");

    private static final Pattern STANDARD = Pattern.compile("[012]");
    /** Most rewritings of one path ({@code /proc/self/root/proc/self/root/...}); past that it is a descriptor. */
    private static final int MAX_REWRITES = 16;

    /** What a path under {@code /proc} or {@code /dev/fd} stands for. */
    enum Kind {
        /** An ordinary path. */
        PLAIN,
        /** {@code rest} in the working directory of the process (its own, or {@code otherProcess}'s). */
        CWD,
        /** A file reached through a file descriptor. */
        DESCRIPTOR
    }

    /**
     * A path after rewriting.
     *
     * @param path the plain absolute path (for {@link Kind#PLAIN}), or the path relative to the working
     *     directory (for {@link Kind#CWD}, empty for the directory itself); null for {@link Kind#DESCRIPTOR}
     * @param otherProcess whether the working directory is another process's (named by its id)
     */
    record Alias(Kind kind, Path path, boolean otherProcess) {}

    private ProcPaths() {}

    /**
     * {@code abs} (absolute; it may hold {@code .} and {@code ..}, which are only applied up to the alias, since
     * {@code /proc/self/cwd/..} is the parent of the working directory) with the names above rewritten.
     */
    static Alias of(Path abs) {
        Path p = abs;
        boolean other = false;
        for (int rewrite = 0; rewrite < MAX_REWRITES; rewrite++) {
            String text = p.toString();
            if (!text.contains("proc") && !text.contains("dev")) {
                return new Alias(Kind.PLAIN, normal(p, text), other);
            }
            Path prefix = p.getRoot();
            int n = p.getNameCount();
            Matcher m = null;
            int end = -1;
            for (int i = 0; i < n && end < 0; i++) {
                prefix = prefix.resolve(p.getName(i)).normalize();
                Matcher candidate = ALIAS.matcher(prefix.toString());
                if (candidate.matches()) {
                    m = candidate;
                    end = i + 1;
                }
            }
            if (m == null) {
                return new Alias(Kind.PLAIN, p.normalize(), other);
            }
            Path rest = end < n ? p.subpath(end, n) : Path.of("");
            String first = end < n ? p.getName(end).toString() : "";
            if (m.group(3) != null || m.group(2).equals("fd")) {
                boolean self = m.group(3) != null || m.group(1).equals("self");
                return self && end == n - 1 && STANDARD.matcher(first).matches()
                        ? new Alias(Kind.PLAIN, p.normalize(), other)
                        : new Alias(Kind.DESCRIPTOR, null, other);
            }
            other |= Character.isDigit(m.group(1).charAt(0));
            if (m.group(2).equals("cwd")) {
                return new Alias(Kind.CWD, rest, other);
            }
            p = p.getRoot().resolve(rest); // root: the rest from /
        }
        return new Alias(Kind.DESCRIPTOR, null, other);
    }

    /**
     * {@code p} normalised; {@code text} is its text. An absolute path none of whose names starts with a dot has no
     * {@code .} or {@code ..} to apply, and is its own normal form (found without the work of {@link Path#normalize}).
     */
    private static Path normal(Path p, String text) {
        return p.isAbsolute() && !text.contains("/.") ? p : p.normalize();
    }

    /**
     * {@code abs} as a plain path for a process working in {@code cwd}, or null when it is reached through a
     * descriptor (see the class description).
     */
    static Path plain(Path abs, Path cwd) {
        Path p = abs;
        for (int i = 0; i < MAX_REWRITES; i++) {
            Alias a = of(p);
            switch (a.kind()) {
                case PLAIN -> {
                    return a.path();
                }
                case CWD -> p = cwd.resolve(a.path());
                default -> {
                    return null;
                }
            }
        }
        return null; // a working directory that is itself such a name, over and over
    }
}
