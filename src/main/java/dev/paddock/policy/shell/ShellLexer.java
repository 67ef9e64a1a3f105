package dev.paddock.policy.shell;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits a bash command line into words, operators and redirections, the way bash's own tokenizer does
 * for the parts that matter to a policy: single, double and ANSI-C ({@code $'\x72m'}) quotes, backslash
 * escapes and line continuations, comments, {@code $(...)}, backticks, {@code ${...}},
 * {@code $((...))}, process substitution {@code <(...)}, and here-documents (their bodies are read at
 * the next newline; command substitutions in an unquoted body are collected too).
 *
 * <p>It never throws on bad input: what it cannot read (an unterminated quote, a here-document without
 * its end marker) is added to {@link #problems()} and the rest is read as well as it can, so the commands
 * that were recognised can still be judged.
 */
public final class ShellLexer {
    private static final Pattern BRACE_EXPANSION = Pattern.compile("\\{[^{}\\s]*(,|\\.\\.)[^{}\\s]*}");

    private static final String[] MULTI_CHAR_OPERATORS = {"&&", "||", "|&", ";;&", ";;", ";&"};
    private static final String[] REDIRECTIONS = {"&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">&",
        ">|", ">"};

    private final String s;
    private int pos;
    private final List<String> problems = new ArrayList<>();
    private final List<String> heredocSubstitutions = new ArrayList<>();
    private final Deque<Heredoc> pendingHeredocs = new ArrayDeque<>();
    private boolean expectDelimiter;
    private boolean stripTabs;

    private record Heredoc(String delimiter, boolean quoted, boolean stripTabs) {
    }

    /** A lexer over {@code source}; call {@link #next()} until it answers {@link Token.Kind#END}. */
    public ShellLexer(String source) {
        this.s = source;
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
                problems.add("here-document without its body or end marker `" + pendingHeredocs.peek().delimiter()
                        + "`");
                pendingHeredocs.clear();
            }
            return new Token(Token.Kind.END, "", null, -1);
        }
        char c = s.charAt(pos);
        if (c == '\n') {
            pos++;
            readHeredocBodies();
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
            pendingHeredocs.add(new Heredoc(w.value(), w.quoted(), stripTabs));
        }
        return new Token(Token.Kind.WORD, w.raw(), w, -1);
    }

    private void skipBlanks() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\r') {
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
            int end = findArithmeticEnd(pos + 2);
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

    private static boolean isMeta(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';' || c == '&' || c == '|' || c == '('
                || c == ')' || c == '<' || c == '>';
    }

    /** Reads one word starting at {@code pos}. */
    private Word word() {
        int start = pos;
        StringBuilder value = new StringBuilder();
        StringBuilder unquotedShape = new StringBuilder();
        List<String> subs = new ArrayList<>();
        boolean quoted = false;
        boolean expands = false;
        boolean glob = false;
        if ((s.charAt(pos) == '<' || s.charAt(pos) == '>') && pos + 1 < s.length() && s.charAt(pos + 1) == '(') {
            int end = findClosingParen(pos + 2);
            problems.add("process substitution `" + s.substring(pos, end < 0 ? s.length() : end + 1)
                    + "` feeds a command's output in as a file");
            subs.add(s.substring(pos + 2, end < 0 ? s.length() : end));
            value.append(s, pos, end < 0 ? s.length() : end + 1);
            pos = end < 0 ? s.length() : end + 1;
            expands = true;
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
                    } else if (kind == DOLLAR_EXPANSION) {
                        expands = true;
                    } else {
                        unquotedShape.append(value, before, value.length());
                    }
                }
                case '`' -> {
                    expands = true;
                    backtick(value, subs);
                }
                default -> {
                    if (c == '*' || c == '?' || c == '[') {
                        glob = true;
                    }
                    value.append(c);
                    unquotedShape.append(c);
                    pos++;
                }
            }
        }
        boolean braces = unquotedShape.indexOf("{") >= 0 && BRACE_EXPANSION.matcher(unquotedShape).find();
        return new Word(value.toString(), s.substring(start, pos), quoted, expands, glob, braces, subs);
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
                expands |= dollar(value, subs, true) == DOLLAR_EXPANSION;
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

    /** Reads what follows a {@code $} at {@code pos}. */
    private int dollar(StringBuilder value, List<String> subs, boolean inDouble) {
        int start = pos;
        char n = pos + 1 < s.length() ? s.charAt(pos + 1) : '\0';
        if (n == '\'' && !inDouble) {
            pos += 2;
            ansiC(value);
            return DOLLAR_QUOTED;
        }
        if (n == '"' && !inDouble) {
            pos += 2;
            return doubleQuoted(value, subs) ? DOLLAR_EXPANSION : DOLLAR_QUOTED;
        }
        if (n == '(' && pos + 2 < s.length() && s.charAt(pos + 2) == '(') {
            int end = findArithmeticEnd(pos + 3);
            if (end >= 0) {
                String inner = s.substring(pos + 3, end);
                if (inner.contains("$(") || inner.contains("`")) {
                    problems.add("command substitution inside arithmetic `$((" + inner + "))`");
                }
                pos = end + 2;
                value.append(s, start, pos);
                return DOLLAR_EXPANSION;
            }
        }
        if (n == '(') {
            int end = findClosingParen(pos + 2);
            if (end < 0) {
                problems.add("unterminated command substitution `" + s.substring(pos) + "`");
                subs.add(s.substring(pos + 2));
                value.append(s, pos, s.length());
                pos = s.length();
            } else {
                subs.add(s.substring(pos + 2, end));
                pos = end + 1;
                value.append(s, start, pos);
            }
            return DOLLAR_EXPANSION;
        }
        if (n == '{') {
            int end = findClosingBrace(pos + 2);
            if (end < 0) {
                problems.add("unterminated parameter expansion `" + s.substring(pos) + "`");
                value.append(s, pos, s.length());
                pos = s.length();
            } else {
                String inner = s.substring(pos + 2, end);
                if (inner.contains("$(") || inner.contains("`")) {
                    problems.add("command substitution inside the parameter expansion `${" + inner + "}`");
                }
                pos = end + 1;
                value.append(s, start, pos);
            }
            return DOLLAR_EXPANSION;
        }
        if (Character.isLetter(n) || n == '_') {
            pos++;
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                pos++;
            }
            value.append(s, start, pos);
            return DOLLAR_EXPANSION;
        }
        if (Character.isDigit(n) || "@*#?$!-".indexOf(n) >= 0 && n != '\0') {
            pos += 2;
            value.append(s, start, pos);
            return DOLLAR_EXPANSION;
        }
        value.append('$');
        pos++;
        return DOLLAR_LITERAL;
    }

    /** Decodes an ANSI-C quoted part ({@code $'...'}) after its opening quote. */
    private void ansiC(StringBuilder value) {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == '\'') {
                pos++;
                return;
            }
            if (c != '\\' || pos + 1 >= s.length()) {
                value.append(c);
                pos++;
                continue;
            }
            char e = s.charAt(pos + 1);
            pos += 2;
            switch (e) {
                case 'n' -> value.append('\n');
                case 't' -> value.append('\t');
                case 'r' -> value.append('\r');
                case 'a' -> value.append('\u0007');
                case 'b' -> value.append('\b');
                case 'e', 'E' -> value.append('\u001b');
                case 'f' -> value.append('\f');
                case 'v' -> value.append('\u000b');
                case 'x' -> value.append((char) number(16, 2));
                case 'u' -> value.appendCodePoint(number(16, 4));
                case 'U' -> value.appendCodePoint(Math.min(number(16, 8), Character.MAX_CODE_POINT));
                case 'c' -> {
                    if (pos < s.length()) {
                        value.append((char) (s.charAt(pos++) & 0x1f));
                    }
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        pos--;
                        value.append((char) number(8, 3));
                    } else {
                        value.append(e); // \\ \' \" \? and unknown escapes keep the character
                    }
                }
            }
        }
        problems.add("unterminated $'...' quote");
    }

    private int number(int radix, int maxDigits) {
        int v = 0;
        int digits = 0;
        while (digits < maxDigits && pos < s.length() && Character.digit(s.charAt(pos), radix) >= 0) {
            v = v * radix + Character.digit(s.charAt(pos), radix);
            pos++;
            digits++;
        }
        return v;
    }

    /** Reads a backtick substitution at {@code pos}; its unescaped body is added to {@code subs}. */
    private void backtick(StringBuilder value, List<String> subs) {
        int start = pos;
        pos++;
        StringBuilder body = new StringBuilder();
        while (pos < s.length() && s.charAt(pos) != '`') {
            char c = s.charAt(pos);
            if (c == '\\' && pos + 1 < s.length() && "`$\\".indexOf(s.charAt(pos + 1)) >= 0) {
                body.append(s.charAt(pos + 1));
                pos += 2;
            } else {
                body.append(c);
                pos++;
            }
        }
        if (pos >= s.length()) {
            problems.add("unterminated backtick substitution");
        } else {
            pos++;
        }
        subs.add(body.toString());
        value.append(s, start, pos);
    }

    /**
     * The index of the {@code )} closing a {@code $(} or {@code (} whose body starts at {@code from}, or -1.
     * Quotes, escapes, nested substitutions and comments are skipped; a {@code case} pattern's lone
     * {@code )} inside a substitution is not understood (it ends the substitution early).
     */
    private int findClosingParen(int from) {
        int depth = 1;
        int p = from;
        while (p < s.length()) {
            char c = s.charAt(p);
            switch (c) {
                case '\\' -> p += 2;
                case '\'' -> {
                    int end = s.indexOf('\'', p + 1);
                    if (end < 0) {
                        return -1;
                    }
                    p = end + 1;
                }
                case '"' -> {
                    p = skipDouble(p + 1);
                    if (p < 0) {
                        return -1;
                    }
                }
                case '`' -> {
                    int end = p + 1;
                    while (end < s.length() && s.charAt(end) != '`') {
                        end += s.charAt(end) == '\\' ? 2 : 1;
                    }
                    if (end >= s.length()) {
                        return -1;
                    }
                    p = end + 1;
                }
                case '(' -> {
                    depth++;
                    p++;
                }
                case ')' -> {
                    depth--;
                    if (depth == 0) {
                        return p;
                    }
                    p++;
                }
                default -> p++;
            }
        }
        return -1;
    }

    /** The index after the closing quote of a double-quoted part whose body starts at {@code from}, or -1. */
    private int skipDouble(int from) {
        int p = from;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == '\\') {
                p += 2;
            } else if (c == '"') {
                return p + 1;
            } else if (c == '$' && p + 1 < s.length() && s.charAt(p + 1) == '(') {
                int end = findClosingParen(p + 2);
                if (end < 0) {
                    return -1;
                }
                p = end + 1;
            } else {
                p++;
            }
        }
        return -1;
    }

    private int findClosingBrace(int from) {
        int depth = 1;
        int p = from;
        while (p < s.length()) {
            char c = s.charAt(p);
            if (c == '\\') {
                p += 2;
                continue;
            }
            if (c == '\'') {
                int end = s.indexOf('\'', p + 1);
                if (end < 0) {
                    return -1;
                }
                p = end + 1;
                continue;
            }
            if (c == '"') {
                p = skipDouble(p + 1);
                if (p < 0) {
                    return -1;
                }
                continue;
            }
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return p;
            }
            p++;
        }
        return -1;
    }

    /** The index of the first {@code )} of the {@code ))} ending an arithmetic body starting at {@code from}. */
    private int findArithmeticEnd(int from) {
        int depth = 0;
        for (int p = from; p + 1 < s.length(); p++) {
            char c = s.charAt(p);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (depth == 0) {
                    return s.charAt(p + 1) == ')' ? p : -1;
                }
                depth--;
            } else if (c == '\n') {
                return -1;
            }
        }
        return -1;
    }

    /** After a newline: reads the bodies of the here-documents opened on the line just ended. */
    private void readHeredocBodies() {
        while (!pendingHeredocs.isEmpty()) {
            Heredoc h = pendingHeredocs.poll();
            boolean found = false;
            int bodyStart = pos;
            int bodyEnd = pos;
            while (pos < s.length()) {
                int eol = s.indexOf('\n', pos);
                int lineEnd = eol < 0 ? s.length() : eol;
                String line = s.substring(pos, lineEnd);
                if (h.stripTabs()) {
                    line = line.replaceFirst("^\t+", "");
                }
                int next = eol < 0 ? s.length() : eol + 1;
                if (line.equals(h.delimiter())) {
                    bodyEnd = pos;
                    pos = next;
                    found = true;
                    break;
                }
                pos = next;
            }
            if (!found) {
                problems.add("here-document without its end marker `" + h.delimiter() + "`");
                bodyEnd = s.length();
            }
            if (!h.quoted()) {
                collectSubstitutions(s.substring(bodyStart, bodyEnd));
            }
        }
    }

    /** Finds {@code $(...)} and backtick substitutions in an unquoted here-document body. */
    private void collectSubstitutions(String body) {
        ShellLexer inner = new ShellLexer(body);
        StringBuilder ignored = new StringBuilder();
        while (inner.pos < body.length()) {
            char c = body.charAt(inner.pos);
            if (c == '\\') {
                inner.pos += 2;
            } else if (c == '$') {
                inner.dollar(ignored, heredocSubstitutions, true);
            } else if (c == '`') {
                inner.backtick(ignored, heredocSubstitutions);
            } else {
                inner.pos++;
            }
        }
        problems.addAll(inner.problems);
    }
}
