package dev.paddock.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What an agent may never change, whatever its policy says: Paddock's own policy and hook configuration. The one
 * list of those files, used by the built-in rule of {@link PolicyEngine} (an agent's write there is denied, a
 * command naming them is asked) and by the merge queue (a branch that changes them waits for a person's review).
 *
 * <ul>
 *   <li>{@link #CONFIG_DIRECTORIES} in any repository and any of its worktrees, at any depth:
 *       {@code .paddock/} holds the repository's policy ({@code .paddock/policy.json}) and, under
 *       {@code .worktrees/<id>/.paddock/}, Paddock's own files about a sandbox (its state, exit code, heartbeat);
 *       {@code .claude/} holds Claude Code's settings, which install the hook that asks Paddock
 *       ({@code settings.json}, {@code settings.local.json}) and the hook scripts they may run. The user's
 *       {@code ~/.claude/} is covered by the same name. {@code .codex/} and {@code .gemini/} are Codex's and Gemini
 *       CLI's: a project's settings there (read once the folder is trusted, as Paddock's Gemini runs are) could turn
 *       on their hooks, approval modes or tools for the next run. Paddock itself writes these files for a person (the policy
 *       editor, Approve &amp; always allow, hook install), never through an agent's request.</li>
 *   <li>The Paddock home, whole: the global {@code policy.json}, {@code bin/} (the hook script), {@code api-token}
 *       (the install token, which may approve anything), {@code instance.json}, the store and the logs. Agents may
 *       neither write nor read there.</li>
 * </ul>
 * Names are compared after folding what a file system may treat as the same name: case (macOS and Windows
 * volumes are case-insensitive), Unicode compatibility forms, invisible format characters (which HFS+ ignores) and
 * trailing dots and spaces (which Windows drops). For a write, symbolic links on the way are followed (one
 * {@code lstat} per name), so a link to a protected file is protected too; reads and a command's words are judged
 * by name alone, since they are most requests and a link's creation that names a protected file is itself asked. A
 * write to a directory that holds the Paddock home or the repository's configuration ({@code rm -r}, {@code mv} of a
 * parent) and a read of a directory that holds the Paddock home ({@code grep -r}, {@code tar} of {@code ~}) are
 * asked. Immutable and thread-safe.
 */
public final class PolicyGuard {
    /** Directory names that hold policy or hook configuration, wherever they appear in a path. */
    public static final List<String> CONFIG_DIRECTORIES = List.of(".paddock", ".claude", ".codex", ".gemini");

    /** Whether every {@link #CONFIG_DIRECTORIES} name starts with a dot (most names can then be told at once). */
    private static final boolean ALL_DOTTED = CONFIG_DIRECTORIES.stream().allMatch(d -> d.startsWith("."));

    private static final String BUILT_IN = "a built-in rule that no policy can override";

    private final Path paddockHome;
    private final Path paddockHomeReal;
    /** The home's folder name, which a command's word must hold to name a file in it (from outside it). */
    private final String homeName;

    private final String realHomeName;
    /** The home and the repository's configuration directories, as written and resolved: what a parent holds. */
    private final List<Path> roots;

    /**
     * @param paddockHome Paddock's home (protected whole), or null when unknown: then only
     *     {@link #CONFIG_DIRECTORIES} are protected, which covers the default home {@code ~/.paddock}
     */
    public PolicyGuard(Path paddockHome) {
        this(paddockHome, null);
    }

    /**
     * @param paddockHome Paddock's home (protected whole), or null when unknown
     * @param repository the main worktree whose {@code .paddock/} and {@code .claude/} a write to one of their
     *     parents would reach, or null
     */
    public PolicyGuard(Path paddockHome, Path repository) {
        this.paddockHome =
                paddockHome == null ? null : paddockHome.toAbsolutePath().normalize();
        this.paddockHomeReal = this.paddockHome == null ? null : real(this.paddockHome);
        this.homeName = this.paddockHome == null || this.paddockHome.getFileName() == null
                ? ""
                : this.paddockHome.getFileName().toString();
        this.realHomeName = paddockHomeReal == null || paddockHomeReal.getFileName() == null
                ? ""
                : paddockHomeReal.getFileName().toString();
        List<Path> r = new java.util.ArrayList<>();
        if (this.paddockHome != null) {
            r.add(this.paddockHome);
            if (paddockHomeReal != null) {
                r.add(paddockHomeReal);
            }
        }
        if (repository != null) {
            Path repo = repository.toAbsolutePath().normalize();
            Path repoReal = real(repo);
            for (String dir : CONFIG_DIRECTORIES) {
                r.add(repo.resolve(dir));
                if (repoReal != null) {
                    r.add(repoReal.resolve(dir));
                }
            }
        }
        this.roots = List.copyOf(r);
    }

    /** The Paddock home this guard protects, or null. */
    public Path paddockHome() {
        return paddockHome;
    }

    /**
     * Whether a path inside a repository (as git names it: relative, {@code /}-separated) is policy or hook
     * configuration: one of its parts is a {@link #CONFIG_DIRECTORIES} name (the directory itself, a file in it,
     * or a link or submodule in its place).
     */
    public static boolean isConfigPath(String repositoryPath) {
        if (repositoryPath == null) {
            return false;
        }
        int start = 0;
        for (int i = 0; i <= repositoryPath.length(); i++) {
            if (i == repositoryPath.length() || repositoryPath.charAt(i) == '/' || repositoryPath.charAt(i) == '\\') {
                if (i > start && isConfigName(repositoryPath, start, i)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    /** Whether one file name is a {@link #CONFIG_DIRECTORIES} name, once folded (see the class comment). */
    static boolean isConfigName(String name) {
        return isConfigName(name, 0, name.length());
    }

    /** {@link #isConfigName(String)} for the name {@code text} holds from {@code start} to {@code end}. */
    private static boolean isConfigName(String text, int start, int end) {
        if (ALL_DOTTED && start < end && text.charAt(start) < 0x80 && text.charAt(start) != '.') {
            return false; // folding keeps an ASCII first character, and every configuration name starts with a dot
        }
        boolean ascii = true;
        for (int i = start; i < end && ascii; i++) {
            ascii = text.charAt(i) < 0x80;
        }
        if (!ascii) {
            return CONFIG_DIRECTORIES.contains(fold(text.substring(start, end)));
        }
        // Most names: plain ASCII, where folding is dropping trailing dots and spaces and the case.
        while (end > start && (text.charAt(end - 1) == '.' || text.charAt(end - 1) == ' ')) {
            end--;
        }
        for (String dir : CONFIG_DIRECTORIES) {
            if (end - start == dir.length() && text.regionMatches(true, start, dir, 0, dir.length())) {
                return true;
            }
        }
        return false;
    }

    /** A file name as a case-insensitive, normalising file system may see it. */
    static String fold(String name) {
        String n = Normalizer.normalize(name, Normalizer.Form.NFKC);
        StringBuilder b = new StringBuilder(n.length());
        n.codePoints().filter(c -> Character.getType(c) != Character.FORMAT).forEach(b::appendCodePoint);
        int end = b.length();
        while (end > 0 && (b.charAt(end - 1) == '.' || b.charAt(end - 1) == ' ')) {
            end--;
        }
        // A name of dots alone (".", "..") keeps them: it is no config directory either way.
        String s = end == 0 ? b.toString() : b.substring(0, end);
        return s.toLowerCase(Locale.ROOT);
    }

    /**
     * The built-in answer to an agent writing {@code path}: deny when it is protected, else null (the policy
     * decides).
     *
     * @param path the path as the request names it, made absolute (may hold {@code ..} and links)
     * @param what the request in words, for the reason ("writing to `x`", "Edit `x`")
     */
    public Decision write(Path path, String what) {
        return write(path, () -> what, new LinkLookups());
    }

    /**
     * {@link #write(Path, String)} with the names already looked up in this decision in {@code disk}, and the
     * request in words written only for a decision.
     */
    Decision write(Path path, Supplier<String> what, LinkLookups disk) {
        if (path == null) {
            return null;
        }
        Set<Path> all = candidates(path, disk);
        String why = protectedWrite(all);
        if (why != null) {
            return new Decision(
                    Verdict.DENY,
                    what.get() + " is denied: " + why + "; agents may never change it (" + BUILT_IN + ")",
                    null);
        }
        Path held = holds(all, roots);
        return held == null
                ? null
                : new Decision(
                        Verdict.ASK,
                        what.get() + " reaches " + held + ", Paddock's policy or hook"
                                + " configuration inside it, so a person decides (" + BUILT_IN + ")",
                        null);
    }

    /**
     * The built-in answer to an agent reading {@code path}: deny inside the Paddock home, ask for a directory that
     * holds it, else null.
     */
    public Decision read(Path path, String what) {
        return read(path, () -> what);
    }

    /** {@link #read(Path, String)} with the request in words written only for a decision. */
    Decision read(Path path, Supplier<String> what) {
        return read(path, what, null);
    }

    /**
     * {@link #read(Path, Supplier)}; with {@code disk}, a path that holds {@code ..} is also taken where the kernel
     * takes it (a link before the {@code ..} followed first: {@code d/../../home} with {@code d -> a/b}).
     */
    Decision read(Path path, Supplier<String> what, LinkLookups disk) {
        // By name only: reads are most requests, and a link that leads into the home has to exist before (its
        // creation, naming the home, is asked), so the disk is not asked here, but for a `..` after a link.
        Path abs = path.toAbsolutePath();
        Set<Path> all = new LinkedHashSet<>();
        all.add(abs.normalize());
        if (disk != null && abs.toString().contains("/..")) {
            Path resolved = disk.resolve(abs, null);
            if (resolved != null) {
                all.add(resolved);
            }
        }
        String why = inPaddockHome(all);
        if (why != null) {
            return new Decision(
                    Verdict.DENY,
                    what.get() + " is denied: " + why + "; agents may never read it (" + BUILT_IN + ")",
                    null);
        }
        Path held = paddockHome == null
                ? null
                : holds(all, paddockHomeReal == null ? List.of(paddockHome) : List.of(paddockHome, paddockHomeReal));
        return held == null
                ? null
                : new Decision(
                        Verdict.ASK,
                        what.get() + " may read into " + held + ", Paddock's home"
                                + " with its install token, so a person decides (" + BUILT_IN + ")",
                        null);
    }

    /** The home and the repository's configuration folders, as written and resolved: what a parent holds. */
    List<Path> roots() {
        return roots;
    }

    /** The Paddock home as written and resolved (empty when unknown). */
    List<Path> homes() {
        return paddockHome == null
                ? List.of()
                : paddockHomeReal == null ? List.of(paddockHome) : List.of(paddockHome, paddockHomeReal);
    }

    /** The built-in answer to an agent reading or writing a file named only at run time: ask. */
    Decision runTime(Supplier<String> what) {
        return ask(
                what,
                "names its file only at run time: it could be Paddock's policy or hook"
                        + " configuration or in its home");
    }

    static Decision ask(Supplier<String> what, String why) {
        return new Decision(Verdict.ASK, what.get() + " " + why + ", so a person decides (" + BUILT_IN + ")", null);
    }

    /** The first of {@code protectedRoots} inside one of the directories {@code all} names, or null. */
    private static Path holds(Set<Path> all, List<Path> protectedRoots) {
        for (Path p : all) {
            for (Path root : protectedRoots) {
                if (root.startsWith(p) && !root.equals(p) && Files.isDirectory(p)) {
                    return root;
                }
            }
        }
        return null;
    }

    /**
     * The built-in answer to a program run whose arguments name protected configuration (a program Paddock does
     * not model might write it: {@code git checkout -- .claude}, {@code python fix.py .paddock/policy.json}):
     * ask, else null.
     *
     * @param inv the run
     * @param cwd where it runs, for relative paths
     * @param home the user's home, for {@code ~}
     */
    public Decision names(Invocation inv, Path cwd, Path home) {
        Path dir = cwd.toAbsolutePath().normalize();
        return names(inv, cwd, dir, inHome(dir), home);
    }

    /** Whether {@code dir} (absolute, normalised) is inside the Paddock home. */
    boolean inHome(Path dir) {
        return paddockHome != null && inPaddockHome(Set.of(dir)) != null;
    }

    /**
     * {@link #names(Invocation, Path, Path)} with {@code dir}, {@code cwd} made absolute and normalised, and
     * {@code inHome}, whether it is inside the Paddock home.
     */
    Decision names(Invocation inv, Path cwd, Path dir, boolean inHome, Path home) {
        List<String> words = inv.words();
        for (int i = 1; i < words.size(); i++) {
            String w = words.get(i);
            for (String candidate : wordPaths(w)) {
                // By name only, no look at the disk: this runs for every word of every command. A word can reach
                // the home only by naming its folder (or from a working directory inside it).
                String why = isConfigPath(candidate) ? "it is policy or hook configuration" : null;
                if (why == null && GlobNames.hasPattern(candidate)) {
                    why = globNames(candidate, cwd, dir, home);
                }
                if (why == null
                        && paddockHome != null
                        && (inHome
                                || candidate.contains(homeName)
                                || !realHomeName.isEmpty() && candidate.contains(realHomeName))) {
                    Path p = resolve(candidate, cwd, dir, home);
                    why = p == null ? null : inPaddockHome(Set.of(p.normalize()));
                }
                if (why != null) {
                    return new Decision(
                            Verdict.ASK,
                            "`" + inv.text() + "` names `" + candidate + "`: " + why
                                    + ", which a program might change, so a person decides (" + BUILT_IN + ")",
                            null);
                }
            }
        }
        return null;
    }

    /** Why glob {@code candidate} could name protected configuration or the Paddock home, or null. */
    private String globNames(String candidate, Path cwd, Path dir, Path home) {
        for (String part : GlobNames.parts(candidate)) {
            if (GlobNames.hasPattern(part) && GlobNames.mayNameConfig(part, false)) {
                return "as a glob it could name policy or hook configuration";
            }
        }
        Path p = paddockHome == null ? null : resolve(candidate, cwd, dir, home);
        if (p != null && GlobNames.reach(p.normalize().toString(), paddockHome, true) != GlobNames.Reach.NONE) {
            return "as a glob it could name Paddock's home " + paddockHome;
        }
        return null;
    }

    /** The texts of a word that could be paths: the word, and what follows an {@code =} ({@code --file=x}). */
    private static List<String> wordPaths(String w) {
        int eq = w.indexOf('=');
        return eq >= 0 && eq + 1 < w.length() ? List.of(w, w.substring(eq + 1)) : List.of(w);
    }

    /**
     * {@code text} as a path: {@code ~} and {@code ~/x} from the home, else against {@code cwd}, with the names of
     * {@link ProcPaths} rewritten ({@code /proc/self/cwd/x} is {@code x} in {@code cwd}; such a path comes back
     * normalised, any other as written, {@code ..} included); null if none.
     */
    static Path resolve(String text, Path cwd, Path home) {
        return resolve(text, cwd, cwd.toAbsolutePath().normalize(), home);
    }

    /** {@link #resolve(String, Path, Path)} with {@code dir}, {@code cwd} made absolute and normalised. */
    static Path resolve(String text, Path cwd, Path dir, Path home) {
        try {
            Path p;
            if (home != null && (text.equals("~") || text.startsWith("~/"))) {
                p = text.length() < 2 ? home : home.resolve(text.substring(2));
            } else {
                p = cwd.resolve(text);
            }
            Path plain = p.isAbsolute() ? ProcPaths.plain(p, dir) : null;
            // Not a /proc or /dev/fd name: kept as written, so a link before a `..` can be followed first.
            return plain != null && !plain.equals(p.normalize()) ? plain : p;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** Why writing to one of the places {@code all} touches protected configuration, or null. */
    private String protectedWrite(Set<Path> all) {
        for (Path p : all) {
            String why = lexical(p);
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    /** Why the normalised absolute {@code p} is protected by its name alone, or null. */
    private String lexical(Path p) {
        String home = inPaddockHome(Set.of(p));
        if (home != null) {
            return home;
        }
        String text = p.toString(); // its names are the parts between slashes
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '/') {
                if (i > start && isConfigName(text, start, i)) {
                    return "it is policy or hook configuration (`" + p + "` is in a " + fold(text.substring(start, i))
                            + " directory)";
                }
                start = i + 1;
            }
        }
        return null;
    }

    private String inPaddockHome(Set<Path> all) {
        if (paddockHome == null) {
            return null;
        }
        for (Path p : all) {
            if (p.startsWith(paddockHome) || paddockHomeReal != null && p.startsWith(paddockHomeReal)) {
                return "it is in Paddock's home " + paddockHome + " (its policy, hook script, install token and"
                        + " store)";
            }
        }
        return null;
    }

    /**
     * The places a write to {@code path} may land: as written but normalised, and as the kernel would resolve it
     * (links on the way followed, a link before a {@code ..} followed first, a dangling link followed to where the
     * write would create its file).
     */
    private static Set<Path> candidates(Path path, LinkLookups disk) {
        Set<Path> out = new LinkedHashSet<>();
        Path abs = path.toAbsolutePath();
        out.add(abs.normalize());
        Path resolved = disk.resolve(abs, null);
        if (resolved != null) {
            out.add(resolved);
        }
        return out;
    }

    private static Path real(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | SecurityException e) {
            return null;
        }
    }
}
