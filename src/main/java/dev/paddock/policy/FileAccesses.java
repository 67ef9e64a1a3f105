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
    private static final Set<String> EXEMPT_FILES = Set.of("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty",
            "/dev/stdin", "-");

    private final Path home;
    private final List<PathAccess> accesses;
    private final List<PathAccess> arguments;
    private final List<String> problems;
    private Directories dirs;
    private List<Word> findRoots;

    FileAccesses(Path cwd, Path home, List<PathAccess> accesses, List<PathAccess> arguments, List<String> problems) {
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

    /** {@code v} resolved against the possible directories (see {@link Directories#resolve}). */
    List<Path> resolve(String v) {
        return dirs.resolve(v, home);
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
        if (EXEMPT_FILES.contains(v) || v.startsWith("/dev/fd/")) {
            return;
        }
        List<Path> paths = dirs.resolve(v, home);
        if (paths == null) {
            problems.add("it " + verb + " `" + Snippet.of(v) + "` in a directory known only at run time");
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
        if (w.isStatic() && (EXEMPT_FILES.contains(v) || v.startsWith("/dev/fd/"))) {
            return;
        }
        Scope s = scope;
        if (s != Scope.UNKNOWN && !w.isStatic()) {
            s = w.glob() && !w.expands() && !w.braces() ? Scope.PATTERN : Scope.UNKNOWN;
        }
        List<Path> paths = s == Scope.UNKNOWN ? null : dirs.resolve(v, home);
        if (paths == null) {
            arguments.add(new PathAccess(kind, null, w.raw(), true, Scope.UNKNOWN));
            return;
        }
        for (Path p : paths) {
            arguments.add(new PathAccess(kind, p, v, true, s));
        }
    }

    /** A write inside any .git directory (a nested repository's too) is never allowed automatically. */
    void gitDirectoryWrites() {
        Set<Path> seen = new HashSet<>();
        List<PathAccess> all = new java.util.ArrayList<>(accesses);
        all.addAll(arguments);
        for (PathAccess a : all) {
            if (a.kind() == Kind.WRITE && a.path() != null && a.scope() != Scope.TREE && seen.add(a.path())) {
                for (Path part : a.path()) {
                    if (part.toString().equals(".git")) {
                        problems.add("it writes `" + Snippet.of(a.written()) + "`, inside a .git directory: git"
                                + " runs hooks and reads configuration (which can run programs) from there");
                        break;
                    }
                }
            }
        }
    }
}
