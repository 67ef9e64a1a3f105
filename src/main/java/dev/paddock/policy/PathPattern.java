package dev.paddock.policy;

import java.io.File;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The specifier of a {@code Read(...)} or {@code Edit(...)} rule: a gitignore-style path pattern, as in
 * Claude Code (https://code.claude.com/docs/en/permissions, "Read and Edit"; the gitignore rules are
 * https://git-scm.com/docs/gitignore):
 * <ul>
 *   <li>{@code //path}: absolute ({@code Read(//etc/**)} is {@code /etc/**});</li>
 *   <li>{@code ~/path}: under the home directory;</li>
 *   <li>{@code /path}: relative to the project root (the repository the policy belongs to);</li>
 *   <li>{@code ./path} or {@code path}: relative to the request's working directory.</li>
 * </ul>
 * {@code *} matches within one path segment, {@code **} across segments, {@code ?} one character,
 * {@code [a-z]} a class. A pattern with no {@code /} but a trailing one ({@code *.env}, {@code secrets/})
 * matches at any depth below its base; any other is anchored. As in gitignore, a pattern that matches a
 * directory covers everything inside it ({@code Edit(./.git)} covers {@code .git/config}). A trailing
 * {@code /} is accepted and means the same (no file system access is made to tell directories apart).
 * Paths are compared as strings after normalisation ({@code ..} removed), case-sensitively; symbolic links
 * are not followed.
 */
final class PathPattern {
    private enum Anchor {
        ABSOLUTE,
        HOME,
        PROJECT,
        CWD
    }

    private final Anchor anchor;
    private final int up;
    private final Pattern regex;
    /** Whether the pattern is its base alone ({@code ~}, {@code ./}, {@code //}): it matches all under it. */
    private final boolean matchesAll;
    /** For an anchored pattern, the text every match starts with (up to its first glob character); else null. */
    private final String literalPrefix;
    /** Whether an anchored pattern has no glob character at all (then it matches just its literal). */
    private final boolean literal;

    /** The pattern after its anchor and leading {@code ../} parts ({@code .git/**}), for glob comparisons. */
    private final String body;

    private PathPattern(Anchor anchor, int up, Pattern regex, String literalPrefix, boolean literal, String body) {
        this.anchor = anchor;
        this.up = up;
        this.regex = regex;
        this.matchesAll = regex.pattern().isEmpty();
        this.literalPrefix = literalPrefix;
        this.literal = literal;
        this.body = body;
    }

    /** Parses a specifier. */
    static PathPattern parse(String spec) throws RuleSyntaxException {
        String s = spec.strip();
        if (s.contains(":*")) {
            throw new RuleSyntaxException("`:*` is for Bash rules; a path rule takes a gitignore-style pattern such as"
                    + " ./.env, ./.env.* or ./secrets/**");
        }
        Anchor anchor;
        String body;
        boolean anchored = true;
        if (s.startsWith("//")) {
            anchor = Anchor.ABSOLUTE;
            body = s.substring(2);
        } else if (s.equals("~") || s.startsWith("~/")) {
            anchor = Anchor.HOME;
            body = s.length() > 1 ? s.substring(2) : "";
        } else if (s.startsWith("~")) {
            throw new RuleSyntaxException("`" + s + "`: only ~/ (your own home) is supported, not ~user");
        } else if (s.startsWith("/")) {
            anchor = Anchor.PROJECT;
            body = s.substring(1);
        } else if (s.startsWith("./") || s.equals(".")) {
            anchor = Anchor.CWD;
            body = s.length() > 1 ? s.substring(2) : "";
        } else {
            anchor = Anchor.CWD;
            body = s;
            String trimmed = s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
            anchored = trimmed.contains("/");
        }
        int up = 0;
        while (body.startsWith("../")) {
            up++;
            body = body.substring(3);
        }
        if (body.equals("..")) {
            up++;
            body = "";
        }
        while (body.endsWith("/")) {
            body = body.substring(0, body.length() - 1);
        }
        if (body.contains("/../") || body.endsWith("/..") || body.startsWith("../")) {
            throw new RuleSyntaxException("`" + s + "`: `..` is only allowed at the start of a pattern");
        }
        String re = glob(body, s);
        int glob = 0;
        while (glob < body.length() && "*?[\\".indexOf(body.charAt(glob)) < 0) {
            glob++;
        }
        boolean lit = anchored && glob == body.length();
        return new PathPattern(
                anchor,
                up,
                Pattern.compile(anchored || body.isEmpty() ? re : "(?:.*/)?" + re),
                anchored ? body.substring(0, glob) : null,
                lit,
                body);
    }

    private static String glob(String body, String spec) throws RuleSyntaxException {
        StringBuilder re = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            char c = body.charAt(i);
            if (body.startsWith("**/", i)) {
                re.append("(?:.*/)?");
                i += 3;
            } else if (body.startsWith("**", i)) {
                re.append(".*");
                i += 2;
            } else if (c == '*') {
                re.append("[^/]*");
                i++;
            } else if (c == '?') {
                re.append("[^/]");
                i++;
            } else if (c == '[') {
                int end = body.indexOf(']', i + 2);
                if (end < 0) {
                    throw new RuleSyntaxException("`" + spec + "`: `[` without its `]`");
                }
                String cls = body.substring(i + 1, end);
                if (cls.startsWith("!")) {
                    cls = "^" + cls.substring(1);
                }
                re.append('[')
                        .append(cls.replace("\\", "\\\\").replace("[", "\\["))
                        .append(']');
                i = end + 1;
            } else if (c == '\\' && i + 1 < body.length()) {
                re.append(Pattern.quote(String.valueOf(body.charAt(i + 1))));
                i += 2;
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
                i++;
            }
        }
        return re.toString();
    }

    /** {@code file} relative to {@code base} (which it starts with), with {@code /} separators. */
    private static String relative(Path base, Path file) {
        String b = base.toString();
        String f = file.toString();
        if (File.separatorChar == '/' && !b.contains("/.") && f.startsWith(b)) {
            // the cheap equivalent of relativize for a plain base
            if (f.length() == b.length()) {
                return "";
            }
            return b.endsWith("/") ? f.substring(b.length()) : f.substring(b.length() + 1);
        }
        return base.relativize(file).toString().replace('\\', '/');
    }

    /**
     * A file to be judged by many patterns, with its path relative to each pattern's base worked out once (the
     * bases are few: the root, the home, the project and the working directory). Not thread-safe: one per
     * question.
     */
    static final class Target {
        private final Path file;
        private final Path cwd;
        private final Path project;
        private final Path home;
        /** Per anchor (patterns without a leading {@code ../}): the file relative to its base, or null outside. */
        private final String[] relative = new String[Anchor.values().length];
        /** Per anchor: whether {@link #relative} holds the answer. */
        private final boolean[] known = new boolean[Anchor.values().length];

        private Target probe;

        /**
         * @param file absolute, normalised
         * @param cwd the request's working directory
         * @param project the project root for {@code /path} patterns (the working directory when null)
         * @param home the home directory for {@code ~/path}
         */
        Target(Path file, Path cwd, Path project, Path home) {
            this.file = file;
            this.cwd = cwd;
            this.project = project;
            this.home = home;
        }

        /** {@code file} relative to {@code p}'s base, or null when it is not under it. */
        private String relativeFor(PathPattern p) {
            if (p.up > 0) {
                return p.relativeOf(file, cwd, project, home);
            }
            int i = p.anchor.ordinal();
            if (!known[i]) {
                relative[i] = p.relativeOf(file, cwd, project, home);
                known[i] = true;
            }
            return relative[i];
        }

        /** A name inside {@code file} that no specific pattern names (see {@link #coversAllUnder}). */
        private Target probe() {
            if (probe == null) {
                probe = new Target(file.resolve("\u0001probe"), cwd, project, home);
            }
            return probe;
        }
    }

    /**
     * Whether {@code file} (absolute, normalised) matches.
     *
     * @param cwd the request's working directory
     * @param project the project root for {@code /path} patterns (the working directory when null)
     * @param home the home directory for {@code ~/path}
     */
    boolean matches(Path file, Path cwd, Path project, Path home) {
        return matches(new Target(file, cwd, project, home));
    }

    /** Whether the target's file matches. */
    boolean matches(Target t) {
        String rel = t.relativeFor(this);
        if (rel == null) {
            return false;
        }
        if (matchesAll) {
            return true;
        }
        if (rel.isEmpty()) {
            return false;
        }
        if (literalPrefix != null) {
            // every prefix of rel that could match starts with the literal part (checked without a regex)
            if (!rel.startsWith(literalPrefix)) {
                return false;
            }
            if (literal) {
                return rel.length() == literalPrefix.length() || rel.charAt(literalPrefix.length()) == '/';
            }
        }
        // gitignore: a pattern matching a directory excludes everything inside it
        Matcher m = null;
        int slash = -1;
        do {
            slash = rel.indexOf('/', slash + 1);
            String prefix = slash < 0 ? rel : rel.substring(0, slash);
            m = m == null ? regex.matcher(prefix) : m.reset(prefix);
            if (m.matches()) {
                return true;
            }
        } while (slash >= 0);
        return false;
    }

    /** {@code file} relative to the pattern's base, or null when the base is above the root or not a parent. */
    private String relativeOf(Path file, Path cwd, Path project, Path home) {
        Path base = base(file, cwd, project, home);
        if (base == null || !under(file, base)) {
            return null;
        }
        return relative(base, file);
    }

    /**
     * {@code file.startsWith(base)}, told from their texts when both are absolute paths of the default file system
     * (whose texts have no repeated or trailing {@code /}: a name boundary is a {@code /}).
     */
    private static boolean under(Path file, Path base) {
        FileSystem fs = FileSystems.getDefault();
        if (File.separatorChar != '/'
                || file.getFileSystem() != fs
                || base.getFileSystem() != fs
                || !file.isAbsolute()
                || !base.isAbsolute()) {
            return file.startsWith(base);
        }
        String f = file.toString();
        String b = base.toString();
        return f.startsWith(b) && (f.length() == b.length() || b.length() == 1 || f.charAt(b.length()) == '/');
    }

    /** The directory the pattern is relative to, or null (above the root). */
    private Path base(Path file, Path cwd, Path project, Path home) {
        Path base = switch (anchor) {
            case ABSOLUTE -> file.getRoot() == null ? Path.of("/") : file.getRoot();
            case HOME -> home;
            case PROJECT -> project != null ? project : cwd;
            case CWD -> cwd;
        };
        for (int i = 0; i < up && base != null; i++) {
            base = base.getParent();
        }
        return base;
    }

    /**
     * Whether the pattern matches every entry of directory {@code dir} (absolute, normalised), as
     * {@code secrets/**} does for {@code secrets}: probed with a name no specific pattern names.
     */
    boolean coversAllUnder(Target dir) {
        return matches(dir.probe());
    }

    /**
     * Whether the pattern could match {@code dir} or something inside it: true when the area it speaks about
     * and the directory overlap at all (a pattern without a {@code /} matches at any depth below its base).
     */
    boolean couldMatchUnder(Path dir, Path cwd, Path project, Path home) {
        if (matches(dir, cwd, project, home)) {
            return true;
        }
        Path base = base(dir, cwd, project, home);
        if (base == null) {
            return false;
        }
        if (base.startsWith(dir)) {
            return true; // all the pattern can match lies inside dir
        }
        if (!dir.startsWith(base)) {
            return false;
        }
        if (matchesAll || literalPrefix == null) {
            return true;
        }
        String rel = relative(base, dir) + "/";
        return literalPrefix.startsWith(rel) || !literal && rel.startsWith(literalPrefix);
    }

    /**
     * Whether the pattern could match a file that shell glob {@code glob} (absolute) names: its fixed directory
     * must overlap the pattern's area, and then each glob segment must be able to meet the pattern's segment
     * ({@code .e*} meets {@code .env}, {@code *.md} does not meet {@code *.pem}). A glob's {@code *} is taken to
     * match a leading dot too ({@code shopt -s dotglob} may be on).
     */
    boolean couldMatchGlob(Path glob, Path cwd, Path project, Path home) {
        String g = glob.toString();
        int first = firstGlobChar(g);
        int slash = g.lastIndexOf('/', Math.max(first, 0));
        Path dir = slash <= 0 ? glob.getRoot() : Path.of(g.substring(0, slash));
        if (dir == null || !couldMatchUnder(dir, cwd, project, home)) {
            return false;
        }
        String[] gs = g.substring(1).split("/");
        if (literalPrefix == null) {
            return mayMeet(gs[gs.length - 1], body.endsWith("/") ? body.substring(0, body.length() - 1) : body);
        }
        Path base = base(glob, cwd, project, home);
        String ruleAbsolute = (base == null ? "" : base.toString()) + (body.isEmpty() ? "" : "/" + body);
        String[] rs = ruleAbsolute.substring(1).split("/");
        for (int i = 0; i < gs.length; i++) {
            if (i >= rs.length || rs[i].equals("**")) {
                return true; // the pattern covers everything below its last segment
            }
            if (!mayMeet(gs[i], rs[i])) {
                return false;
            }
        }
        return gs.length == rs.length;
    }

    private static int firstGlobChar(String s) {
        for (int i = 0; i < s.length(); i++) {
            if ("*?[".indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** Whether two single-segment globs could name the same file name. */
    static boolean mayMeet(String a, String b) {
        boolean ga = firstGlobChar(a) >= 0;
        boolean gb = firstGlobChar(b) >= 0;
        try {
            if (!ga) {
                return !gb
                        ? a.equals(b)
                        : Pattern.compile(glob(b, b)).matcher(a).matches();
            }
            if (!gb) {
                return Pattern.compile(glob(a, a)).matcher(b).matches();
            }
        } catch (RuleSyntaxException e) {
            return true;
        }
        String pa = a.substring(0, firstGlobChar(a));
        String pb = b.substring(0, firstGlobChar(b));
        String sa = a.substring(lastGlobChar(a) + 1);
        String sb = b.substring(lastGlobChar(b) + 1);
        return (pa.startsWith(pb) || pb.startsWith(pa)) && (sa.endsWith(sb) || sb.endsWith(sa));
    }

    private static int lastGlobChar(String s) {
        for (int i = s.length() - 1; i >= 0; i--) {
            if ("*?]".indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }
}
