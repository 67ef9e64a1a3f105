package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.util.Set;

/**
 * Reads a sed script (GNU syntax) for the commands that reach outside the text: {@code e} and the {@code s///e}
 * flag run commands (problems); {@code w}, {@code W} and the {@code s///w} flag write the file named to the end
 * of the line; {@code r} and {@code R} read one. Addresses ({@code 3}, {@code $}, {@code /re/}, {@code \%re%},
 * {@code 1~2}, ranges, {@code !}), blocks, labels and the text of {@code a}, {@code i}, {@code c} are skipped.
 * A command sed would reject makes the script a problem too, so nothing unread slips through.
 */
final class SedScript {
    private static final Set<String> STANDARD_FILES = Set.of("/dev/stdout", "/dev/stderr", "/dev/stdin");

    private final String s;
    private final ArgumentEffects fx;
    private int i;

    private SedScript(String s, ArgumentEffects fx) {
        this.s = s;
        this.fx = fx;
    }

    static void check(String script, ArgumentEffects fx) {
        new SedScript(script, fx).run();
    }

    private void run() {
        while (true) {
            while (i < s.length()
                    && (Character.isWhitespace(s.charAt(i)) || s.charAt(i) == ';' || s.charAt(i) == '}')) {
                i++;
            }
            if (i >= s.length()) {
                return;
            }
            if (s.charAt(i) == '#') {
                toLineEnd();
                continue;
            }
            if (!address()) {
                return;
            }
            if (i < s.length() && s.charAt(i) == ',') {
                i++;
                if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '~')) {
                    i++;
                }
                if (!address()) {
                    return;
                }
            }
            while (i < s.length() && (s.charAt(i) == '!' || s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                i++;
            }
            if (i >= s.length()) {
                return;
            }
            if (!command(s.charAt(i++))) {
                return;
            }
        }
    }

    /** Skips one optional address; false when it is malformed (reported). */
    private boolean address() {
        if (i >= s.length()) {
            return true;
        }
        char c = s.charAt(i);
        if (Character.isDigit(c)) {
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '~')) {
                i++;
            }
        } else if (c == '$') {
            i++;
        } else if (c == '/' || c == '\\') {
            char delim = c == '\\' && i + 1 < s.length() ? s.charAt(++i) : '/';
            i++;
            if (!skipTo(delim)) {
                return bad("an address without its closing `" + delim + "`");
            }
            while (i < s.length() && (s.charAt(i) == 'I' || s.charAt(i) == 'M')) {
                i++;
            }
        }
        return true;
    }

    private boolean command(char c) {
        switch (c) {
            case '{', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F' -> {
                return true;
            }
            case 'a', 'i', 'c' -> {
                while (i < s.length()) { // text to the end of the line, continued by a backslash
                    int eol = s.indexOf('\n', i);
                    int end = eol < 0 ? s.length() : eol;
                    boolean continued = end > i && s.charAt(end - 1) == '\\';
                    i = eol < 0 ? s.length() : eol + 1;
                    if (!continued) {
                        break;
                    }
                }
                return true;
            }
            case ':', 'b', 't', 'T', 'v' -> {
                while (i < s.length() && s.charAt(i) != ';' && s.charAt(i) != '\n' && s.charAt(i) != '}') {
                    i++;
                }
                return true;
            }
            case 'q', 'Q', 'l', 'L' -> {
                while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == ' ')) {
                    i++;
                }
                return true;
            }
            case 'r', 'R', 'w', 'W' -> {
                file(c == 'r' || c == 'R' ? Kind.READ : Kind.WRITE);
                return true;
            }
            case 'e' -> {
                fx.problem("the sed command `e` runs a command (`" + Snippet.of(s) + "`)");
                toLineEnd();
                return true;
            }
            case 's', 'y' -> {
                if (i >= s.length() || s.charAt(i) == '\n' || s.charAt(i) == '\\') {
                    return bad("`" + c + "` without its delimiter");
                }
                char delim = s.charAt(i++);
                if (!skipTo(delim) || !skipTo(delim)) {
                    return bad("`" + c + "` without its closing `" + delim + "`");
                }
                return c == 'y' || flags();
            }
            default -> {
                return bad("the command `" + c + "`, which sed does not have");
            }
        }
    }

    /** The flags of {@code s}: {@code e} runs the result, {@code w file} writes. */
    private boolean flags() {
        while (i < s.length()) {
            char f = s.charAt(i);
            if (f == 'e') {
                fx.problem("the sed flag `s///e` runs the result as a command (`" + Snippet.of(s) + "`)");
                i++;
            } else if (f == 'w') {
                i++;
                file(Kind.WRITE);
                return true;
            } else if ("gpiImM0123456789".indexOf(f) >= 0) {
                i++;
            } else {
                return true;
            }
        }
        return true;
    }

    /** A file name after r, R, w, W: the rest of the line, leading blanks skipped. */
    private void file(Kind kind) {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        int eol = s.indexOf('\n', i);
        String name = s.substring(i, eol < 0 ? s.length() : eol);
        i = eol < 0 ? s.length() : eol;
        if (name.isEmpty()) {
            bad("a file command without its file");
        } else if (!STANDARD_FILES.contains(name)) {
            fx.path(kind, Scope.FILE, Word.of(name));
        }
    }

    /** Skips to just after the next unescaped {@code delim} (brackets of a regex class taken as one); false at the end. */
    private boolean skipTo(char delim) {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == delim) {
                i++;
                return true;
            } else {
                i++;
            }
        }
        return false;
    }

    private void toLineEnd() {
        int eol = s.indexOf('\n', i);
        i = eol < 0 ? s.length() : eol;
    }

    private boolean bad(String what) {
        fx.problem("the sed script `" + Snippet.of(s) + "` has " + what + ": it is not judged further");
        i = s.length();
        return false;
    }
}
