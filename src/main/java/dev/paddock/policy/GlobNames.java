package dev.paddock.policy;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a shell glob could name, for the built-in rule of {@link PolicyGuard}: a glob is judged by every file it
 * could match, not by its text ({@code .cla?de}, {@code .c*}, {@code .cl[a]ude}, {@code ../hom?} name what their
 * letters do not spell). Matching is lenient on the side of safety: every option an agent may turn on in its own
 * command is taken as on ({@code nocaseglob}, {@code extglob}, {@code globstar}, brace expansion), and
 * {@code dotglob} is a parameter, since it decides whether {@code *} matches {@code .claude}. An extended glob
 * ({@code @(…)}, {@code !(…)}) is taken to match anything. Names are folded as {@link PolicyGuard#fold} does.
 * Stateless.
 */
final class GlobNames {
    /** At most this many directory entries are read to expand one glob on the disk; past that it is asked. */
    static final int MAX_ENTRIES = 20_000;

    /** A glob part longer than this is taken to match anything. */
    private static final int MAX_PART = 1024;

    /** How a glob path stands to a protected directory. */
    enum Reach {
        /** It cannot name the directory or anything in it, nor a directory holding it. */
        NONE,
        /** It could name the directory or a file inside it. */
        INSIDE,
        /** It could name a directory that holds it ({@code rm -r} of that would reach it). */
        HOLDER
    }

    private GlobNames() {}

    /** Whether {@code text} holds a glob or brace character that the shell may expand. */
    static boolean hasPattern(String text) {
        int brace = text.indexOf('{');
        if (brace >= 0) {
            int close = text.lastIndexOf('}');
            if (close > brace) {
                String inside = text.substring(brace + 1, close);
                if (inside.indexOf(',') >= 0 || inside.contains("..")) {
                    return true; // {a,b} or {1..3}: brace expansion; a lone {, {} or {x} is none
                }
            }
        }
        int close = text.lastIndexOf(']');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '*' || c == '?' || c == '[' && close > i) { // a [ that nothing closes is a plain [
                return true;
            }
            if ((c == '@' || c == '!' || c == '+') && i + 1 < text.length() && text.charAt(i + 1) == '(') {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether one name-part of a glob could match file name {@code name}. Without {@code dotglob}, a name that
     * starts with a dot is matched only by a part that spells the dot itself (or could, through braces or an
     * extended glob), as in bash.
     */
    static boolean mayMatch(String glob, String name, boolean dotglob) {
        if (glob.length() > MAX_PART) {
            return true; // longer than any file name: not read further (its brackets would take long to pair)
        }
        String g = PolicyGuard.fold(glob); // lower case: its pattern ignores case anyway
        String n = PolicyGuard.fold(name);
        if (!dotglob && n.startsWith(".") && !mayStartWithDot(g)) {
            return false;
        }
        if (!g.isEmpty()
                && !n.isEmpty()
                && Character.isLetterOrDigit(g.charAt(0))
                && Character.isLetterOrDigit(n.charAt(0))
                && Character.toLowerCase(g.charAt(0)) != Character.toLowerCase(n.charAt(0))
                && !(g.length() > 1 && g.charAt(1) == '(')) {
            return false; // a literal first letter that is not the name's
        }
        Pattern p = regex(g);
        if (p == null) {
            return true;
        }
        // Trailing dots and spaces a volume may drop: `.claude?` names `.claude.`, which is `.claude` there.
        for (String candidate : List.of(n, n + ".", n + " ", n + "..")) {
            if (p.matcher(candidate).matches()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a glob part (folded) could match a name that starts with a dot without {@code dotglob}: only a dot
     * spelled out matches one, maybe behind a backslash, inside braces or an extended glob.
     */
    private static boolean mayStartWithDot(String g) {
        if (g.isEmpty()) {
            return false;
        }
        char c = g.charAt(0);
        return c == '.' || c == '\\' || c == '{' || "@!+*?".indexOf(c) >= 0 && g.length() > 1 && g.charAt(1) == '(';
    }

    /** Whether one name-part of a glob could match one of {@link PolicyGuard#CONFIG_DIRECTORIES}. */
    static boolean mayNameConfig(String glob, boolean dotglob) {
        for (String dir : PolicyGuard.CONFIG_DIRECTORIES) {
            if (mayMatch(glob, dir, dotglob)) {
                return true;
            }
        }
        return false;
    }

    /** The parts of an absolute path between its slashes (empty ones and {@code .} left out). */
    static List<String> parts(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty() && !s.equals(".")) {
                out.add(s);
            }
        }
        return out;
    }

    /** How absolute glob {@code glob} stands to absolute directory {@code dir} (see {@link Reach}). */
    static Reach reach(String glob, Path dir, boolean dotglob) {
        List<String> g = parts(glob);
        List<String> d = parts(dir.toString());
        for (int i = 0; i < d.size(); i++) {
            if (i == g.size()) {
                return Reach.HOLDER;
            }
            String part = g.get(i);
            if (part.equals("**")) {
                return Reach.HOLDER; // any depth: it may hold the directory, or name it
            }
            if (hasPattern(part) ? !mayMatch(part, d.get(i), dotglob) : !part.equals(d.get(i))) {
                return Reach.NONE;
            }
        }
        return Reach.INSIDE;
    }

    /**
     * Where the kernel takes absolute path {@code raw} (as written: {@code ..} not applied) when it holds a
     * {@code ..}: links before each {@code ..} followed first ({@code d/../../home} with {@code d -> a/b} is
     * {@code a/../home}); for a glob, the directories before its first pattern. Null when it holds no {@code ..}
     * before a pattern, or the disk cannot say.
     */
    static Path physical(Path raw, LinkLookups disk) {
        String text = raw.toString();
        if (!text.contains("/..")) {
            return null;
        }
        List<String> names = List.of(text.substring(1).split("/"));
        int first = 0;
        while (first < names.size() && !hasPattern(names.get(first))) {
            first++;
        }
        if (!names.subList(0, first).contains("..")) {
            return null;
        }
        Path prefix = Path.of("/" + String.join("/", names.subList(0, first)));
        Path real = disk.resolve(prefix, null);
        if (real == null || first == names.size()) {
            return real;
        }
        return real.resolve(String.join("/", names.subList(first, names.size())));
    }

    /**
     * Whether a glob part is followed by {@code ..} in {@code written}: the kernel resolves {@code ..} after the
     * directory the glob matched (maybe a link), which the text cannot tell.
     */
    static boolean dotDotAfterPattern(String written) {
        boolean pattern = false;
        for (String s : written.split("/")) {
            if (s.equals("..") && pattern) {
                return true;
            }
            pattern |= hasPattern(s);
        }
        return false;
    }

    /**
     * The files on the disk that absolute glob {@code glob} matches now (a link in the way is followed, as the
     * shell does; the last part kept when it is no pattern, since a write creates it); null when more than {@link #MAX_ENTRIES} entries would have to be
     * read or a directory cannot be read.
     */
    static List<Path> expand(String glob, boolean dotglob) {
        List<String> g = parts(glob);
        List<Path> current = new ArrayList<>(List.of(Path.of("/")));
        int[] budget = {MAX_ENTRIES};
        for (int i = 0; i < g.size(); i++) {
            String part = g.get(i);
            List<Path> next = new ArrayList<>();
            for (Path dir : current) {
                if (part.equals("**")) {
                    if (!below(dir, next, budget)) {
                        return null;
                    }
                } else if (!hasPattern(part)) {
                    Path p = dir.resolve(part);
                    if (i == g.size() - 1 || Files.exists(p)) {
                        next.add(p);
                    }
                } else if (!matching(dir, part, dotglob, next, budget)) {
                    return null;
                }
            }
            current = next;
            if (current.isEmpty()) {
                break;
            }
        }
        return current;
    }

    /** Adds {@code dir} and every directory below it to {@code out} (the {@code **} of globstar). */
    private static boolean below(Path dir, List<Path> out, int[] budget) {
        out.add(dir);
        if (!Files.isDirectory(dir)) {
            return true;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                if (--budget[0] < 0) {
                    return false;
                }
                if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS) && !below(p, out, budget)) {
                    return false;
                }
            }
        } catch (IOException | SecurityException e) {
            return false;
        }
        return true;
    }

    /** Adds the entries of {@code dir} that {@code part} could match to {@code out}. */
    private static boolean matching(Path dir, String part, boolean dotglob, List<Path> out, int[] budget) {
        if (!Files.isDirectory(dir)) {
            return true;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                if (--budget[0] < 0) {
                    return false;
                }
                if (mayMatch(part, p.getFileName().toString(), dotglob)) {
                    out.add(p);
                }
            }
        } catch (IOException | SecurityException e) {
            return false;
        }
        return true;
    }

    /** The glob part as a case-insensitive regular expression, or null when it could match anything. */
    private static Pattern regex(String g) {
        StringBuilder r = new StringBuilder();
        if (!append(g, 0, g.length(), r)) {
            return null;
        }
        try {
            return Pattern.compile(r.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        } catch (PatternSyntaxException e) {
            return null;
        }
    }

    /**
     * Appends the regex of {@code g[from, to)}; false when it could match anything (an extended glob). The text is a
     * word's value with its quotes removed, so which characters were quoted is not known: every reading the quotes
     * could give is matched. A bracket expression or a brace expansion matches any text from its opening to the last
     * closing character of the part (a quoted {@code ]}, {@code !} or {@code ,} could change where it ends and what
     * it means; named classes such as {@code [[:alpha:]]} hold brackets of their own); a backslash may be there or
     * not, and the character after it keeps its meaning as a pattern.
     */
    private static boolean append(String g, int from, int to, StringBuilder r) {
        for (int i = from; i < to; i++) {
            char c = g.charAt(i);
            if ("@!+*?".indexOf(c) >= 0 && i + 1 < to && g.charAt(i + 1) == '(') {
                return false;
            }
            switch (c) {
                case '*' -> r.append(".*");
                case '?' -> r.append('.');
                case '\\' -> r.append("\\\\?");
                case '[' -> {
                    int close = g.lastIndexOf(']', to - 1);
                    if (close <= i) {
                        r.append("\\[");
                    } else {
                        r.append(".*");
                        i = close;
                    }
                }
                case '{' -> {
                    int close = g.lastIndexOf('}', to - 1);
                    String inside = close > i ? g.substring(i + 1, close) : "";
                    if (close > i && (inside.contains(",") || inside.contains(".."))) {
                        r.append(".*"); // {a,b} or {1..3}
                        i = close;
                    } else {
                        r.append("\\{"); // {} and {x} are no expansion
                    }
                }
                default -> r.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return true;
    }
}
