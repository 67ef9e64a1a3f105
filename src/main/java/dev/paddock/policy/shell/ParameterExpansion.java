package dev.paddock.policy.shell;

import java.util.List;

/**
 * Judges the body of a parameter expansion <code>${...}</code>. Its value may be unknown (that makes the word
 * dynamic, judged elsewhere), but these make bash run code or use a value set by an earlier command's text,
 * so each is a problem:
 * <ul>
 *   <li>special parameters: {@code $_} (the previous command's last argument, which a quoted string of the
 *       agent's sets), {@code $0}-{@code $9} and beyond, {@code $@}, {@code $*}, {@code $#}, {@code $?},
 *       {@code $$}, {@code $!}, {@code $-};</li>
 *   <li>indirect expansion {@code ${!x}}: the value of {@code x} names the variable expanded, subscript and
 *       all ({@code ${!_}} after {@code ls 'a[$(touch x)]'} runs {@code touch x}); {@code ${!prefix*}} and
 *       {@code ${!a[@]}} only list names and keys and are fine;</li>
 *   <li>transformations {@code ${x@P}} (prompt expansion: runs {@code $(...)} in the value), {@code @E},
 *       {@code @Q}, {@code @A}, {@code @a}, {@code @K}, {@code @k}, {@code @U}, {@code @u}, {@code @L};</li>
 *   <li>array subscripts and {@code ${x:offset:length}} that are not integer literals (arithmetic, see
 *       {@link Arithmetic}).</li>
 * </ul>
 * The word of {@code ${x:-word}}, {@code ${x/pattern/string}} and the like is expanded by bash, so the command
 * substitutions in it are collected (and judged) and its own expansions checked the same way; single quotes in
 * it are not taken as quoting, since inside double quotes they are plain characters. {@code ${x=word}} and
 * {@code ${x:=word}} also assign: the assignment {@code x='word'} is collected with the substitutions, as a command
 * that runs, so that the variable is judged as any assignment is.
 */
final class ParameterExpansion {
    private ParameterExpansion() {}

    /** Checks {@code body} (between <code>${</code> and <code>}</code>); see the class description. */
    static void check(String body, List<String> subs, List<String> problems, int depth) {
        String shown = "${" + body + "}";
        if (depth > Arithmetic.MAX_DEPTH) {
            problems.add("expansions nested more than " + Arithmetic.MAX_DEPTH + " levels deep in `" + Snippet.of(shown)
                    + "`");
            return;
        }
        int n = body.length();
        int i = 0;
        boolean indirect = false;
        if (n > 1 && (body.charAt(0) == '#' || body.charAt(0) == '!') && startsName(body.charAt(1))) {
            indirect = body.charAt(0) == '!';
            i = 1;
        }
        if (i >= n) {
            problems.add("bad substitution `" + Snippet.of(shown) + "`");
            return;
        }
        int nameStart = i;
        boolean identifier = Character.isLetter(body.charAt(i)) || body.charAt(i) == '_';
        if (identifier) {
            while (i < n && (Character.isLetterOrDigit(body.charAt(i)) || body.charAt(i) == '_')) {
                i++;
            }
        } else if (Character.isDigit(body.charAt(i))) {
            while (i < n && Character.isDigit(body.charAt(i))) {
                i++;
            }
        } else if ("@*#?$!-".indexOf(body.charAt(i)) >= 0) {
            i++;
        } else {
            problems.add("bad substitution `" + Snippet.of(shown) + "`");
            return;
        }
        String name = body.substring(nameStart, i);
        if (!identifier || name.equals("_")) {
            problems.add(special(name, shown));
        }
        String subscript = null;
        if (identifier && i < n && body.charAt(i) == '[') {
            int end = new ShellScan(body).closeBracket(i + 1);
            if (end < 0) {
                problems.add("array subscript without its `]` in `" + Snippet.of(shown) + "`");
                return;
            }
            subscript = body.substring(i + 1, end);
            i = end + 1;
            if (!subscript.equals("@") && !subscript.equals("*") && !Arithmetic.isLiteralInteger(subscript)) {
                Arithmetic.check(subscript, shown, subs, problems, depth + 1); // subscripts are arithmetic
            }
        }
        String rest = body.substring(i);
        if (indirect) {
            boolean names = subscript == null && (rest.equals("*") || rest.equals("@"));
            boolean keys = ("@".equals(subscript) || "*".equals(subscript)) && rest.isEmpty();
            if (!names && !keys) {
                problems.add("the indirect expansion `" + Snippet.of(shown) + "` expands the variable named by `" + name
                        + "`'s value, which can run code (an array subscript in it runs `$(...)`)");
            }
            return;
        }
        if (identifier && (rest.startsWith("=") || rest.startsWith(":="))) {
            // ${x=word} and ${x:=word} assign word to x: listed as the assignment command bash performs, to be
            // judged as any assignment (its value as text; the expansions in it are judged below)
            String word = rest.substring(rest.indexOf('=') + 1);
            subs.add(name + (subscript == null ? "" : "[" + subscript + "]") + "='" + word.replace("'", "'\\''") + "'");
        }
        operator(rest, shown, subs, problems, depth);
    }

    private static void operator(String rest, String shown, List<String> subs, List<String> problems, int depth) {
        if (rest.isEmpty()) {
            return;
        }
        char c = rest.charAt(0);
        if (c == '@') {
            problems.add("the transformation `" + Snippet.of(shown) + "` turns the value into text bash makes at"
                    + " run time (`@P` even runs the `$(...)` in it)");
            return;
        }
        String word;
        if (c == ':' && rest.length() > 1 && "-=?+".indexOf(rest.charAt(1)) >= 0) {
            word = rest.substring(2);
        } else if (c == ':') {
            substring(rest.substring(1), shown, subs, problems, depth);
            return;
        } else if ("-=?+".indexOf(c) >= 0) {
            word = rest.substring(1);
        } else if (rest.startsWith("##")
                || rest.startsWith("%%")
                || rest.startsWith("//")
                || rest.startsWith("/#")
                || rest.startsWith("/%")
                || rest.startsWith("^^")
                || rest.startsWith(",,")) {
            word = rest.substring(2);
        } else if ("#%/^,".indexOf(c) >= 0) {
            word = rest.substring(1);
        } else {
            problems.add("bad substitution `" + Snippet.of(shown) + "`");
            return;
        }
        Expansions.scan(word, subs, problems, depth + 1);
    }

    /** {@code ${x:offset}} and {@code ${x:offset:length}}: both are arithmetic. */
    private static void substring(String spec, String shown, List<String> subs, List<String> problems, int depth) {
        int colon = topLevelColon(spec);
        String[] parts =
                colon < 0 ? new String[] {spec} : new String[] {spec.substring(0, colon), spec.substring(colon + 1)};
        for (String part : parts) {
            if (!part.isBlank() && !Arithmetic.isLiteralInteger(part)) {
                Arithmetic.check(part, shown, subs, problems, depth + 1);
            }
        }
    }

    private static int topLevelColon(String spec) {
        int depth = 0;
        for (int i = 0; i < spec.length(); i++) {
            char c = spec.charAt(i);
            if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
            } else if (c == ':' && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static boolean startsName(char c) {
        return Character.isLetterOrDigit(c) || "_@*#?$!-".indexOf(c) >= 0;
    }

    /** The problem for a special parameter {@code name} used in {@code shown}. */
    static String special(String name, String shown) {
        String what = switch (name) {
            case "_" -> "the previous command's last argument";
            case "@", "*" -> "the script's arguments";
            case "#" -> "the number of the script's arguments";
            case "?" -> "the last command's exit status";
            case "$" -> "the shell's process id";
            case "!" -> "the last background process id";
            case "-" -> "the shell's option letters";
            default -> "an argument of the script or function";
        };
        return "`" + Snippet.of(shown) + "` is the special parameter `$" + name + "` (" + what
                + "), set only at run time";
    }
}
