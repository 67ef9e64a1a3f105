package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The files a command line reads and writes, as {@link BashAnalyzer} finds them: resolved against the possible
 * directories ({@link Directories}), one access per directory; {@code {}} inside {@code find -exec} stands for
 * the trees find walks; a glob is a {@link Scope#PATTERN}, a word only known at run time an
 * {@link Scope#UNKNOWN} access.
 */
final class FileAccesses {
    private static final Set<String> EXEMPT_FILES = Set.of(
            "/dev/null",
            "/dev/stdout",
            "/dev/stderr",
            "/dev/tty",
            "/dev/stdin",
            "-",
            "/dev/fd/0",
            "/dev/fd/1",
            "/dev/fd/2",
            "/proc/self/fd/0",
            "/proc/self/fd/1",
            "/proc/self/fd/2");

    private final Path home;
    private final List<PathAccess> accesses;
    private final List<PathAccess> arguments;
    private final List<String> problems;
    private Directories dirs;
    /** Names looked up on the disk for a {@code ..} after a link, once per analysis. */
    private final LinkLookups disk = new LinkLookups();

    private final Reshapes reshapes;

    private List<Word> findRoots;

    FileAccesses(
            Path cwd,
            Path home,
            List<PathAccess> accesses,
            List<PathAccess> arguments,
            List<String> problems,
            Reshapes reshapes) {
        this.reshapes = reshapes;
        this.dirs = new Directories(cwd);
        this.home = home;
        this.accesses = accesses;
        this.arguments = arguments;
        this.problems = problems;
    }

    Directories dirs() {
        return dirs;
    }

    void dirs(Directories d) {
        dirs = d;
    }

    List<Word> findRoots() {
        return findRoots;
    }

    void findRoots(List<Word> roots) {
        findRoots = roots;
    }

    /**
     * {@code v} resolved against the possible directories (see {@link Directories#resolve}), the names of
     * {@link ProcPaths} rewritten; null when unknown.
     */
    List<Path> resolve(String v) {
        if (v.contains("..")) {
            reshapes.dotDot();
        }
        List<Path> raw = dirs.resolveRaw(v, home);
        if (raw == null) {
            return null;
        }
        List<Path> out = new java.util.ArrayList<>(raw.size());
        for (Path p : raw) {
            boolean plain = ProcPaths.of(p).kind() == ProcPaths.Kind.PLAIN;
            if (plain) {
                out.add(p.normalize());
                continue;
            }
            if (dirs.unknown()) {
                return null;
            }
            for (Path d : dirs.all()) {
                Path q = ProcPaths.plain(p, d);
                if (q == null) {
                    return null;
                }
                out.add(q);
            }
        }
        return out;
    }

    Path home() {
        return home;
    }

    /** A redirection's file (or tee's, time -o's...): judged by every rule list. */
    void redirect(Kind kind, Word target) {
        String verb = kind == Kind.WRITE ? "writes to" : "reads";
        if (!target.isStatic()) {
            problems.add("it " + verb + " `" + Snippet.of(target.raw()) + "`, a file named only at run time");
            return;
        }
        String v = target.value();
        if (EXEMPT_FILES.contains(v)) {
            return;
        }
        List<Path> paths = plain(dirs.resolveRaw(v, home), v, verb, Scope.FILE);
        if (paths == null) {
            return;
        }
        for (Path p : paths) {
            accesses.add(new PathAccess(kind, p, v, false));
        }
    }

    /** A program's path argument: judged by deny and ask rules only (see {@link PathAccess#argument()}). */
    void argument(Kind kind, Scope scope, Word w) {
        String v = w.value();
        if (findRoots != null && v.equals("{}") && w.isStatic()) {
            for (Word r : findRoots) {
                argument(kind, Scope.TREE, r);
            }
            return;
        }
        if (findRoots != null && v.contains("{}")) {
            // find puts each file's name in place of {} anywhere in a word (.{}, {}.bak): a name made at run time
            arguments.add(new PathAccess(kind, null, w.raw(), true, Scope.UNKNOWN));
            return;
        }
        if (w.isStatic() && EXEMPT_FILES.contains(v)) {
            return;
        }
        Scope s = scope;
        if (s != Scope.UNKNOWN && !w.isStatic()) {
            s = w.glob() && !w.expands() && !w.braces() ? Scope.PATTERN : Scope.UNKNOWN;
        }
        List<Path> paths = s == Scope.UNKNOWN
                ? null
                : plain(dirs.resolveRaw(v, home), v, kind == Kind.WRITE ? "writes to" : "reads", s);
        if (paths == null) {
            arguments.add(new PathAccess(kind, null, w.raw(), true, Scope.UNKNOWN));
            return;
        }
        for (Path p : paths) {
            arguments.add(new PathAccess(kind, p, v, true, s));
        }
    }

    /**
     * {@code raw} (the resolved paths of {@code v}) with the names of {@link ProcPaths} rewritten: a path in a
     * process's working directory against every possible directory, a process's root as {@code /}. Null, with a
     * problem, when the directory is unknown or the file is reached through a descriptor (or a glob under
     * {@code /proc}, which could name any process's files); another process's directory is a problem too.
     */
    private List<Path> plain(List<Path> raw, String v, String verb, Scope scope) {
        if (raw == null) {
            problems.add("it " + verb + " `" + Snippet.of(v) + "` in a directory known only at run time");
            return null;
        }
        List<Path> out = new java.util.ArrayList<>(raw.size());
        if (v.contains("..")) {
            reshapes.dotDot();
        }
        for (Path p : raw) {
            if (scope == Scope.PATTERN) {
                String text = p.normalize().toString();
                if (text.startsWith("/proc/") || text.startsWith("/dev/fd")) {
                    problems.add("it " + verb + " `" + Snippet.of(v) + "`, a glob over the files of processes");
                    return null;
                }
            }
            ProcPaths.Alias a = ProcPaths.of(p);
            if (a.otherProcess()) {
                problems.add("it " + verb + " `" + Snippet.of(v) + "`, in another process's directory or root");
            }
            switch (a.kind()) {
                case PLAIN -> {
                    out.add(a.path());
                    // A link before a `..` takes the kernel elsewhere than the names say: both are judged.
                    Path physical = GlobNames.physical(p, disk);
                    if (physical != null && !physical.equals(a.path())) {
                        out.add(physical);
                    }
                }
                case CWD -> {
                    if (dirs.unknown()) {
                        problems.add("it " + verb + " `" + Snippet.of(v) + "`, in the working directory, which is"
                                + " only known at run time");
                        return null;
                    }
                    for (Path d : dirs.all()) {
                        Path q = ProcPaths.plain(d.resolve(a.path()), d);
                        if (q == null) {
                            return descriptor(v, verb);
                        }
                        out.add(q);
                    }
                }
                default -> {
                    return descriptor(v, verb);
                }
            }
        }
        return out;
    }

    private List<Path> descriptor(String v, String verb) {
        problems.add("it " + verb + " `" + Snippet.of(v) + "`, a file reached through a file descriptor"
                + " (/proc/*/fd, /dev/fd), which the analysis cannot name");
        return null;
    }

    /** A write inside any .git directory (a nested repository's too) is never allowed automatically. */
    void gitDirectoryWrites() {
        Set<Path> seen = new HashSet<>();
        gitDirectoryWrites(accesses, seen);
        gitDirectoryWrites(arguments, seen);
    }

    private void gitDirectoryWrites(List<PathAccess> all, Set<Path> seen) {
        for (PathAccess a : all) {
            if (a.kind() == Kind.WRITE
                    && a.path() != null
                    && a.scope() != Scope.TREE
                    && inGitDirectory(a.path())
                    && seen.add(a.path())) {
                problems.add("it writes `" + Snippet.of(a.written()) + "`, inside a .git directory: git"
                        + " runs hooks and reads configuration (which can run programs) from there");
            }
        }
    }

    /** Whether one of the names of {@code path} is {@code .git} (read from its text, where names end at a /). */
    static boolean inGitDirectory(Path path) {
        String s = path.toString();
        for (int i = s.indexOf(".git"); i >= 0; i = s.indexOf(".git", i + 1)) {
            int end = i + ".git".length();
            if ((i == 0 || s.charAt(i - 1) == '/') && (end == s.length() || s.charAt(end) == '/')) {
                return true;
            }
        }
        return false;
    }
}
