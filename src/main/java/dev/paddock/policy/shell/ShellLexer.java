package dev.paddock.policy.shell;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits a bash command line into words, operators and redirections as bash's tokenizer does for what matters
 * to a policy: single, double and ANSI-C ({@code $'\x72m'}) quotes, escapes and line continuations, comments,
 * {@code $(...)}, backticks, <code>${...}</code> ({@link ParameterExpansion}), arithmetic ({@link Arithmetic}),
 * array assignments {@code a=(...)}, process substitution and here-documents (read at the next newline). A
 * carriage return is part of a word, as in bash. Never throws: what it cannot read is a problem, and the rest
 * is read as well as it can.
 */
public final class ShellLexer {
    private static final Pattern BRACE_EXPANSION = Pattern.compile("\\{[^{}\\s]*(,|\\.\\.)[^{}\\s]*}");

    private static final String[] MULTI_CHAR_OPERATORS = {"&&", "||", "|&", ";;&", ";;", ";&"};
    private static final String[] REDIRECTIONS = {
        "&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">&", ">|", ">"
    };

    private static final Pattern COMPOUND_TARGET = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\[[^]]*])?\\+?=");

    private final String s;
    private final ShellScan scan;
    /** How deep in other expansions this source is (bounds the checks' recursion). */
    private final int depth;

    private int pos;
    /** While reading a word: whether its value starts with an expansion or a glob (could be an option). */
    private boolean dynamicStart;

    private boolean inCompound;
    private final List<String> problems = new ArrayList<>();
    private final List<String> heredocSubstitutions = new ArrayList<>();
    private final Deque<Heredocs.Pending> pendingHeredocs = new ArrayDeque<>();
    private boolean expectDelimiter;
    private boolean stripTabs;

    /** A lexer over {@code source}; call {@link #next()} until it answers {@link Token.Kind#END}. */
    public ShellLexer(String source) {
        this(source, 0);
    }

    ShellLexer(String source, int depth) {
        this.s = source;
        this.scan = new ShellScan(source);
        this.depth = depth;
    }

    /** What could not be read, each a sentence for the user; empty when everything was understood. */
    public List<String> problems() {
        return problems;
    }

    /** Sources of the command substitutions found in unquoted here-document bodies (they run too). */
    public List<String> heredocSubstitutions() {
        return heredocSubstitutions;
    }

    /** The next token; {@link Token.Kind#END} at the end of the input (and on every call after). */
    public Token next() {
        skipBlanks();
        if (pos >= s.length()) {
            if (!pendingHeredocs.isEmpty()) {
                problems.add("here-document without its body or end marker `"
                        + pendingHeredocs.peek().delimiter() + "`");
                pendingHeredocs.clear();
            }
            return new Token(Token.Kind.END, "", null, -1);
        }
        char c = s.charAt(pos);
        if (c == '\n') {
            pos++;
            pos = Heredocs.read(
                    s,
                    pos,
                    pendingHeredocs,
                    problems,
                    body -> Expansions.scan(body, heredocSubstitutions, problems, depth));
            return Token.operator("\n");
        }
        Token op = operator();
        if (op != null) {
            return op;
        }
        Token redirect = redirect();
        if (redirect != null) {
            return redirect;
        }
        Word w = word();
        if (expectDelimiter) {
            expectDelimiter = false;
            pendingHeredocs.add(new Heredocs.Pending(w.value(), w.quoted(), stripTabs));
        }
        return new Token(Token.Kind.WORD, w.raw(), w, -1);
    }

    private void skipBlanks() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == ' ' || c == '\t') {
                pos++;
            } else if (c == '\\' && pos + 1 < s.length() && s.charAt(pos + 1) == '\n') {
                pos += 2;
            } else if (c == '#') {
                while (pos < s.length() && s.charAt(pos) != '\n') {
                    pos++;
                }
            } else {
                return;
            }
        }
    }

    private Token operator() {
        if ("&|;()".indexOf(s.charAt(pos)) < 0) {
            return null; // every operator starts with one of these (checked before the string comparisons)
        }
        if (s.startsWith("((", pos)) {
            int end = scan.arithmeticEnd(pos + 1);
            if (end >= 0) {
                String text = s.substring(pos + 2, end);
                pos = end + 2;
                return new Token(Token.Kind.ARITHMETIC, text, null, -1);
            }
        }
        for (String op : MULTI_CHAR_OPERATORS) {
            if (s.startsWith(op, pos)) {
                pos += op.length();
                return Token.operator(op);
            }
        }
        char c = s.charAt(pos);
        if (c == '&' && !s.startsWith("&>", pos) || c == '|' || c == ';' || c == '(' || c == ')') {
            pos++;
            return Token.operator(String.valueOf(c));
        }
        return null;
    }

    private Token redirect() {
        int p = pos;
        while (p < s.length() && Character.isDigit(s.charAt(p))) {
            p++;
        }
        if (p >= s.length()) {
            return null;
        }
        char c = s.charAt(p);
        boolean amp = c == '&' && p == pos;
        if (c != '<' && c != '>' && !amp) {
            return null;
        }
        if (p + 1 < s.length() && s.charAt(p + 1) == '(' && p == pos) {
            return null; // process substitution: a word
        }
        int fd = p > pos ? Integer.parseInt(s.substring(pos, Math.min(p, pos + 9))) : -1;
        for (String op : REDIRECTIONS) {
            if (s.startsWith(op, p)) {
                pos = p + op.length();
                if (op.equals("<<") || op.equals("<<-")) {
                    expectDelimiter = true;
                    stripTabs = op.equals("<<-");
                }
                return new Token(Token.Kind.REDIRECT, op, null, fd);
            }
        }
        return null;
    }

    /** Characters that end a word. A carriage return is not one (bash keeps it in the word). */
    static boolean isMeta(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')'
                || c == '<' || c == '>';
    }

    /** Reads one word starting at {@code pos}. */
    private Word word() {
        int plainEnd = scan.plainWordEnd(pos);
        if (plainEnd >= 0) { // most words: their value is their text
            String text = s.substring(pos, plainEnd);
            pos = plainEnd;
            dynamicStart = false;
            ShellScan.extendedGlob(s, pos, text, problems);
            return new Word(text, text, false, false, false, false, List.of(), false, false);
        }
        int start = pos;
        StringBuilder value = new StringBuilder();
        StringBuilder unquotedShape = new StringBuilder();
        List<String> subs = new ArrayList<>();
        boolean quoted = false;
        boolean expands = false;
        boolean glob = false;
        boolean splits = false;
        dynamicStart = false;
        if ((s.charAt(pos) == '<' || s.charAt(pos) == '>') && pos + 1 < s.length() && s.charAt(pos + 1) == '(') {
            int end = scan.closeParen(pos + 2);
            problems.add("process substitution `" + Snippet.of(s.substring(pos, end < 0 ? s.length() : end + 1))
                    + "` feeds a command's output in as a file");
            if (end >= 0) {
                subs.add(s.substring(pos + 2, end));
            }
            value.append(s, pos, end < 0 ? s.length() : end + 1);
            pos = end < 0 ? s.length() : end + 1;
            expands = true;
            dynamicStart = true;
        }
        while (pos < s.length() && !isMeta(s.charAt(pos))) {
            char c = s.charAt(pos);
            switch (c) {
                case '\\' -> {
                    quoted = true;
                    if (pos + 1 >= s.length()) {
                        value.append('\\');
                        pos++;
                    } else if (s.charAt(pos + 1) == '\n') {
                        pos += 2;
                    } else {
                        value.append(s.charAt(pos + 1));
                        pos += 2;
                    }
                }
                case '\'' -> {
                    quoted = true;
                    int end = s.indexOf('\'', pos + 1);
                    if (end < 0) {
                        problems.add("unterminated single quote");
                        value.append(s, pos + 1, s.length());
                        pos = s.length();
                    } else {
                        value.append(s, pos + 1, end);
                        pos = end + 1;
                    }
                }
                case '"' -> {
                    quoted = true;
                    pos++;
                    expands |= doubleQuoted(value, subs);
                }
                case '$' -> {
                    int before = value.length();
                    int kind = dollar(value, subs, false);
                    if (kind == DOLLAR_QUOTED) {
                        quoted = true;
                    } else if (kind == DOLLAR_QUOTED_EXPANSION) {
                        quoted = true;
                        expands = true;
                    } else if (kind == DOLLAR_EXPANSION) {
                        expands = true;
                        splits = true; // unquoted: word splitting can make several words of it
                    } else {
                        unquotedShape.append(value, before, value.length());
                    }
                }
                case '`' -> {
                    expands = true;
                    splits = true;
                    backtick(value, subs);
                }
                default -> {
                    if (c == '*' || c == '?' || c == '[' && scan.closesBracket(pos + 1)) {
                        glob = true; // a lone [ (the test command) is no pattern
                        dynamicStart |= value.length() == 0;
                    }
                    value.append(c);
                    unquotedShape.append(c);
                    pos++;
                }
            }
        }
        if (!inCompound
                && pos < s.length()
                && s.charAt(pos) == '('
                && COMPOUND_TARGET.matcher(s.substring(start, pos)).matches()) {
            expands |= compound(value, subs);
        }
        ShellScan.extendedGlob(s, pos, s.substring(start, pos), problems);
        boolean braces = unquotedShape.indexOf("{") >= 0
                && BRACE_EXPANSION.matcher(unquotedShape).find();
        return new Word(
                value.toString(),
                s.substring(start, pos),
                quoted,
                expands,
                glob,
                braces,
                subs,
                splits || braces,
                dynamicStart || braces && s.charAt(start) == '{');
    }

    /**
     * The elements of an array assignment {@code name=(...)} after its name, up to and including the
     * {@code )}. A subscript {@code [expr]=value} is arithmetic (for an indexed array) and checked as such;
     * the elements' substitutions are collected. Answers whether an element expands.
     */
    private boolean compound(StringBuilder value, List<String> subs) {
        boolean expands = false;
        value.append('(');
        pos++;
        inCompound = true;
        try {
            while (true) {
                while (pos < s.length() && (" \t\n".indexOf(s.charAt(pos)) >= 0 || s.startsWith("\\\n", pos))) {
                    pos += s.charAt(pos) == '\\' ? 2 : 1;
                }
                if (pos < s.length() && s.charAt(pos) == '#') {
                    while (pos < s.length() && s.charAt(pos) != '\n') {
                        pos++;
                    }
                    continue;
                }
                if (pos >= s.length()) {
                    problems.add("array assignment `(` without its `)`");
                    return expands;
                }
                char c = s.charAt(pos);
                if (c == ')') {
                    value.append(')');
                    pos++;
                    return expands;
                }
                if (isMeta(c)) {
                    problems.add("unexpected `" + c + "` in an array assignment");
                    pos++;
                    continue;
                }
                Word element = word();
                subs.addAll(element.substitutions());
                expands |= element.expands() || element.glob() || element.braces();
                value.append(element.raw()).append(' ');
                Arithmetic.checkSubscript(element.raw(), problems, depth + 1);
            }
        } finally {
            inCompound = false;
        }
    }

    /** Reads a double-quoted part after its opening quote; answers whether it holds an expansion. */
    private boolean doubleQuoted(StringBuilder value, List<String> subs) {
        boolean expands = false;
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == '"') {
                pos++;
                return expands;
            }
            if (c == '\\' && pos + 1 < s.length()) {
                char n = s.charAt(pos + 1);
                if (n == '\n') {
                    pos += 2;
                    continue;
                }
                if (n == '$' || n == '`' || n == '"' || n == '\\') {
                    value.append(n);
                    pos += 2;
                    continue;
                }
                value.append(c);
                pos++;
            } else if (c == '$') {
                expands |= dollar(value, subs, true) != DOLLAR_LITERAL;
            } else if (c == '`') {
                expands = true;
                backtick(value, subs);
            } else {
                value.append(c);
                pos++;
            }
        }
        problems.add("unterminated double quote");
        return expands;
    }

    private static final int DOLLAR_LITERAL = 0;
    private static final int DOLLAR_QUOTED = 1;
    private static final int DOLLAR_EXPANSION = 2;
    private static final int DOLLAR_QUOTED_EXPANSION = 3;

    /**
     * Reads what follows a {@code $} at {@code pos}: an ANSI-C or locale quote, or an expansion. Expansions
     * that run code or use a value set by the agent's earlier text are problems (see {@link Arithmetic} and
     * {@link ParameterExpansion}); command substitutions are collected in {@code subs}.
     */
    private int dollar(StringBuilder value, List<String> subs, boolean inDouble) {
        int start = pos;
        boolean atStart = value.length() == 0;
        char n = pos + 1 < s.length() ? s.charAt(pos + 1) : '\0';
        if (n == '\'' && !inDouble) {
            int end = AnsiC.decode(s, pos + 2, value);
            if (end < 0) {
                problems.add("unterminated $'...' quote");
            }
            pos = end < 0 ? s.length() : end;
            return DOLLAR_QUOTED;
        }
        if (n == '"' && !inDouble) {
            pos += 2;
            return doubleQuoted(value, subs) ? DOLLAR_QUOTED_EXPANSION : DOLLAR_QUOTED;
        }
        dynamicStart |= atStart;
        if (n == '(' && pos + 2 < s.length() && s.charAt(pos + 2) == '(' && scan.arithmeticEnd(pos + 2) >= 0) {
            int end = scan.arithmeticEnd(pos + 2);
            String inner = s.substring(pos + 3, end);
            Arithmetic.check(inner, "$((" + inner + "))", subs, problems, depth);
            pos = end + 2;
            value.append(s, start, pos);
            return DOLLAR_EXPANSION;
        }
        if (n == '(') {
            int end = scan.closeParen(pos + 2);
            if (end < 0) { // bash runs nothing of it (a syntax error), so its body is not judged: asked
                problems.add("unterminated command substitution `" + Snippet.of(s.substring(pos)) + "`");
                value.append(s, pos, s.length());
                pos = s.length();
            } else {
                subs.add(s.substring(pos + 2, end));
                pos = end + 1;
                value.append(s, start, pos);
            }
            return DOLLAR_EXPANSION;
        }
        if (n == '{' || n == '[') {
            int end = n == '{' ? scan.closeBrace(pos + 2) : scan.closeBracket(pos + 2);
            if (end < 0) {
                problems.add("unterminated " + (n == '{' ? "parameter expansion `" : "arithmetic `")
                        + Snippet.of(s.substring(pos)) + "`");
                value.append(s, pos, s.length());
                pos = s.length();
                return DOLLAR_EXPANSION;
            }
            String inner = s.substring(pos + 2, end);
            if (n == '{') {
                ParameterExpansion.check(inner, subs, problems, depth);
            } else {
                Arithmetic.check(inner, "$[" + inner + "]", subs, problems, depth);
            }
            pos = end + 1;
            value.append(s, start, pos);
            return DOLLAR_EXPANSION;
        }
        if (Character.isLetter(n) || n == '_') {
            pos++;
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                pos++;
            }
            value.append(s, start, pos);
            if (pos - start == 2 && n == '_') {
                problems.add(ParameterExpansion.special("_", "$_"));
            }
            return DOLLAR_EXPANSION;
        }
        if (Character.isDigit(n) || "@*#?$!-".indexOf(n) >= 0 && n != '\0') {
            pos += 2;
            value.append(s, start, pos);
            problems.add(ParameterExpansion.special(String.valueOf(n), "$" + n));
            return DOLLAR_EXPANSION;
        }
        dynamicStart &= !atStart;
        value.append('$');
        pos++;
        return DOLLAR_LITERAL;
    }

    /** Reads a backtick substitution at {@code pos}; its unescaped body is added to {@code subs}. */
    private void backtick(StringBuilder value, List<String> subs) {
        dynamicStart |= value.length() == 0;
        int start = pos;
        StringBuilder body = new StringBuilder();
        int end = scan.backtickEnd(pos, body);
        if (end < 0) {
            problems.add("unterminated backtick substitution");
            pos = s.length();
        } else {
            pos = end;
            subs.add(body.toString());
        }
        value.append(s, start, pos);
    }

    /** Reads one expansion or backtick at the cursor (for {@link Expansions}); answers the cursor after it. */
    int expansionAt(int at, List<String> subs) {
        pos = at;
        StringBuilder ignored = new StringBuilder();
        if (s.charAt(pos) == '$') {
            dollar(ignored, subs, true);
        } else {
            backtick(ignored, subs);
        }
        return pos;
    }
}
