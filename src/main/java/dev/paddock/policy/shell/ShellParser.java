package dev.paddock.policy.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Parses a bash command line into the simple commands it would run (a recursive-descent parser over
 * {@link ShellLexer}'s tokens). Lists and pipelines ({@code && || ; | |& &} and newlines), subshells
 * {@code ( )}, brace groups <code>{ ...; }</code>, {@code if/while/until/for/select/case}, function
 * definitions and {@code [[ ]]} are understood; their structure is flattened, since every command in them
 * may run. Command substitutions ({@code $(...)}, backticks, {@code <(...)}) are parsed recursively and
 * their commands listed before the command that uses them.
 *
 * <p>Never throws on bad input: syntax it cannot follow becomes a problem in the result, and the commands
 * recognised up to there are still listed.
 */
public final class ShellParser {
    /** Deeper nesting of substitutions than this is a problem, not a stack overflow. */
    public static final int MAX_DEPTH = 12;
    /** Deeper nesting of subshells, groups and case commands than this is a problem; the rest is read flat. */
    public static final int MAX_NESTING = 100;

    private static final Pattern ASSIGNMENT =
            Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\[[^]]*])?\\+?=.*", Pattern.DOTALL);
    private static final Set<String> SKIPPED_KEYWORDS =
            Set.of("if", "then", "elif", "else", "fi", "do", "done", "while", "until", "!");
    private static final Set<String> COMPOUND_STARTS = Set.of("if", "while", "until", "for", "select", "case", "[[");
    /** {@code {NAME}} before a redirection: bash stores the descriptor it opens in variable NAME. */
    private static final Pattern DESCRIPTOR_VARIABLE = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private enum Stop {
        END,
        PAREN,
        BRACE,
        CASE_ITEM
    }

    private final ShellLexer lexer;
    private final int depth;
    private final List<Token> lookahead = new ArrayList<>();
    private final List<SimpleCommand> commands = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    /** Whether everything here may run more than once (a substitution inside a loop or function). */
    private final boolean inheritedRepeated;

    private int nesting;
    private boolean nestingReported;
    private int loops;
    private int functionBodies;
    /** A function's name was read; its body is the next compound command. */
    private boolean functionPending;
    /** A function body that is not a group: its end is not tracked, so all that follows counts as repeated. */
    private boolean functionUnbounded;

    private ShellParser(String source, int depth, boolean repeated) {
        this.lexer = new ShellLexer(source);
        this.depth = depth;
        this.inheritedRepeated = repeated;
    }

    private boolean repeated() {
        return inheritedRepeated || loops > 0 || functionBodies > 0 || functionUnbounded;
    }

    /** Whether a subshell or group may open here; past {@link #MAX_NESTING} it is a problem and read flat. */
    private boolean mayNest() {
        if (nesting < MAX_NESTING) {
            return true;
        }
        if (!nestingReported) {
            problems.add("commands nested more than " + MAX_NESTING + " levels deep");
            nestingReported = true;
        }
        return false;
    }

    /** Parses {@code source}, a bash command line (several lines allowed). */
    public static ShellScript parse(String source) {
        return parse(source, 0);
    }

    /** Parses {@code source} found {@code depth} substitutions or {@code sh -c} bodies deep. */
    public static ShellScript parse(String source, int depth) {
        return parse(source, depth, false);
    }

    private static ShellScript parse(String source, int depth, boolean repeated) {
        if (depth > MAX_DEPTH) {
            return new ShellScript(List.of(), List.of("commands nested more than " + MAX_DEPTH + " levels deep"));
        }
        ShellParser p = new ShellParser(source, depth, repeated);
        p.list(Stop.END);
        for (String sub : p.lexer.heredocSubstitutions()) {
            p.substitution(sub);
        }
        List<String> problems = new ArrayList<>(p.lexer.problems());
        problems.addAll(p.problems);
        return new ShellScript(p.commands, problems);
    }

    private Token peek(int i) {
        while (lookahead.size() <= i) {
            lookahead.add(lexer.next());
        }
        return lookahead.get(i);
    }

    private Token peek() {
        return peek(0);
    }

    private Token next() {
        Token t = peek();
        lookahead.remove(0);
        return t;
    }

    /** Parses commands until the end of input or the token that ends {@code stop} (left unread). */
    private void list(Stop stop) {
        while (true) {
            Token t = peek();
            switch (t.kind()) {
                case END -> {
                    return;
                }
                case ARITHMETIC -> {
                    next();
                    arithmetic(t.text());
                }
                case REDIRECT -> command();
                case OPERATOR -> {
                    if (t.isOperator(")")) {
                        if (stop == Stop.PAREN) {
                            return;
                        }
                        problems.add("unmatched `)`");
                        next();
                    } else if (t.isOperator("(")) {
                        next();
                        if (!mayNest()) {
                            continue;
                        }
                        boolean body = startBody();
                        nesting++;
                        list(Stop.PAREN);
                        nesting--;
                        endBody(body);
                        if (peek().isOperator(")")) {
                            next();
                        } else {
                            problems.add("subshell `(` without its `)`");
                        }
                        trailingRedirects();
                    } else if (t.text().startsWith(";;") || t.isOperator(";&")) {
                        if (stop == Stop.CASE_ITEM) {
                            return;
                        }
                        problems.add("`" + t.text() + "` outside a case");
                        next();
                    } else {
                        next(); // separators: ; & && || | |& newline
                    }
                }
                case WORD -> {
                    if (!keyword(t, stop)) {
                        return;
                    }
                }
                default -> throw new IllegalStateException(t.kind().name());
            }
        }
    }

    /**
     * Handles a word at command position: a reserved word, or the start of a simple command. Answers false
     * when the word ends the list being parsed ({@code }} of a group, {@code esac}).
     */
    private boolean keyword(Token t, Stop stop) {
        if (t.isWord("}")) {
            if (stop == Stop.BRACE) {
                return false;
            }
            problems.add("unmatched `}`");
            next();
        } else if (t.isWord("esac")) {
            if (stop == Stop.CASE_ITEM) {
                return false;
            }
            problems.add("unmatched `esac`");
            next();
        } else if (!t.word().quoted()
                && !t.word().expands()
                && SKIPPED_KEYWORDS.contains(t.word().value())) {
            next();
            String w = t.word().value();
            if (w.equals("while") || w.equals("until")) {
                loops++;
            } else if (w.equals("done")) {
                loops = Math.max(0, loops - 1);
            }
        } else if (t.isWord("{")) {
            next();
            if (!mayNest()) {
                return true;
            }
            boolean body = startBody();
            nesting++;
            list(Stop.BRACE);
            nesting--;
            endBody(body);
            if (peek().isWord("}")) {
                next();
            } else {
                problems.add("group `{` without its `}`");
            }
            trailingRedirects();
        } else if (t.isWord("for") || t.isWord("select")) {
            loops++; // until its `done`
            forHeader();
        } else if (t.isWord("case")) {
            if (!mayNest()) {
                next();
                return true;
            }
            nesting++;
            caseCommand();
            nesting--;
        } else if (t.isWord("function")) {
            next();
            if (peek().kind() == Token.Kind.WORD) {
                next();
            }
            skipEmptyParens();
            functionPending = true;
        } else if (t.isWord("time")) {
            next();
            if (peek().isWord("-p")) {
                next();
            }
        } else if (t.isWord("[[")) {
            conditional();
        } else if (t.isWord("coproc")) {
            problems.add("`coproc` runs a command in the background with pipes to it");
            next();
            Token name = peek();
            if (name.kind() == Token.Kind.WORD
                    && !SKIPPED_KEYWORDS.contains(name.word().value())
                    && (peek(1).isWord("{")
                            || peek(1).isOperator("(")
                            || peek(1).kind() == Token.Kind.ARITHMETIC
                            || peek(1).kind() == Token.Kind.WORD
                                    && COMPOUND_STARTS.contains(peek(1).word().value()))) {
                next(); // coproc NAME compound-command: NAME (and NAME_PID) are set to its descriptors and pid
                assigned(name.word(), "coproc " + name.word().raw());
                assigned(
                        new Word(
                                name.word().value() + "_PID",
                                name.word().raw() + "_PID",
                                false,
                                false,
                                false,
                                false,
                                List.of()),
                        "coproc " + name.word().raw());
            }
        } else {
            if (functionPending) {
                functionPending = false;
                functionUnbounded = true;
            }
            command();
        }
        return true;
    }

    /** Before a group or subshell: whether it is a function's body (then it may run more than once). */
    private boolean startBody() {
        boolean body = functionPending;
        functionPending = false;
        if (body) {
            functionBodies++;
        }
        return body;
    }

    private void endBody(boolean body) {
        if (body) {
            functionBodies--;
        }
    }

    /** A simple command: assignments, words and redirections up to an operator. */
    private void command() {
        List<Word> assignments = new ArrayList<>();
        List<Word> words = new ArrayList<>();
        List<Redirect> redirects = new ArrayList<>();
        while (true) {
            Token t = peek();
            if (t.kind() == Token.Kind.WORD) {
                next();
                substitutions(t.word());
                if (peek().kind() == Token.Kind.REDIRECT && t.word().raw().startsWith("{")) {
                    java.util.regex.Matcher fdVariable =
                            DESCRIPTOR_VARIABLE.matcher(t.word().raw());
                    if (fdVariable.matches()) {
                        assigned(Word.of(fdVariable.group(1)), t.word().raw() + peek().text());
                        continue; // {NAME}>file: not a word of the command
                    }
                }
                if (words.isEmpty()
                        && t.word().raw().indexOf('=') > 0
                        && ASSIGNMENT.matcher(t.word().raw()).matches()) {
                    // NAME=... as written (quotes may follow the =, as in PS4='$(x)'): an assignment
                    assignments.add(t.word());
                } else {
                    words.add(t.word());
                }
                if (words.size() == 1 && assignments.isEmpty() && peek().isOperator("(") && peek(1).isOperator(")")) {
                    skipEmptyParens(); // name() { body; }: the body follows as the next command
                    functionPending = true;
                    return;
                }
            } else if (t.kind() == Token.Kind.REDIRECT) {
                next();
                redirect(t, redirects);
            } else {
                break;
            }
        }
        if (!words.isEmpty() || !assignments.isEmpty() || !redirects.isEmpty()) {
            commands.add(new SimpleCommand(assignments, words, redirects, repeated()));
        }
    }

    /**
     * A variable that {@code shown} sets otherwise than by {@code NAME=value} (a loop variable, a coprocess, a
     * descriptor variable): listed as a command of that one assignment, its value only known at run time, so
     * that it is judged as any assignment is.
     */
    private void assigned(Word name, String shown) {
        Word assignment = new Word(name.value() + "=", shown, name.quoted(), true, false, false, List.of());
        commands.add(new SimpleCommand(List.of(assignment), List.of(), List.of(), repeated()));
    }

    private void redirect(Token op, List<Redirect> into) {
        if (peek().kind() != Token.Kind.WORD) {
            problems.add("redirection `" + op.text() + "` without a target");
            return;
        }
        Word target = next().word();
        substitutions(target);
        into.add(new Redirect(op.text(), op.fd(), target));
    }

    /** Redirections after a subshell or group apply to all of it: kept as a command with no words. */
    private void trailingRedirects() {
        List<Redirect> redirects = new ArrayList<>();
        while (peek().kind() == Token.Kind.REDIRECT) {
            redirect(next(), redirects);
        }
        if (!redirects.isEmpty()) {
            commands.add(new SimpleCommand(List.of(), List.of(), redirects, repeated()));
        }
    }

    private void skipEmptyParens() {
        if (peek().isOperator("(") && peek(1).isOperator(")")) {
            next();
            next();
        }
    }

    /**
     * {@code for NAME in WORDS;}, {@code select NAME in WORDS;} or {@code for ((...))}: the words may hold
     * substitutions, and NAME is assigned each of them.
     */
    private void forHeader() {
        String keyword = next().word().value();
        if (peek().kind() == Token.Kind.ARITHMETIC) {
            arithmetic(next().text());
            return;
        }
        if (peek().kind() == Token.Kind.WORD) {
            Word name = next().word();
            substitutions(name);
            assigned(name, keyword + " " + name.raw());
        }
        if (peek().isWord("in")) {
            next();
            while (peek().kind() == Token.Kind.WORD) {
                substitutions(next().word());
            }
        }
    }

    /** {@code case WORD in PATTERN) LIST ;; ... esac}. */
    private void caseCommand() {
        next();
        if (peek().kind() == Token.Kind.WORD) {
            substitutions(next().word());
        }
        if (!peek().isWord("in")) {
            problems.add("`case` without `in`");
            return;
        }
        next();
        while (true) {
            while (peek().isOperator("\n") || peek().isOperator(";")) {
                next();
            }
            Token t = peek();
            if (t.isWord("esac")) {
                next();
                return;
            }
            if (t.kind() == Token.Kind.END) {
                problems.add("`case` without its `esac`");
                return;
            }
            if (t.isOperator("(")) {
                next();
            }
            while (peek().kind() == Token.Kind.WORD || peek().isOperator("|")) {
                Token p = next();
                if (p.kind() == Token.Kind.WORD) {
                    substitutions(p.word());
                }
            }
            if (!peek().isOperator(")")) {
                problems.add("`case` pattern without its `)`");
                return;
            }
            next();
            list(Stop.CASE_ITEM);
            Token end = peek();
            if (end.kind() == Token.Kind.OPERATOR && (end.text().startsWith(";;") || end.isOperator(";&"))) {
                next();
            }
        }
    }

    /** {@code [[ ... ]]}: its words are checked by {@link Conditionals}. */
    private void conditional() {
        next();
        List<Token> tokens = new ArrayList<>();
        Token t = next();
        while (t.kind() != Token.Kind.END && !t.isWord("]]")) {
            tokens.add(t);
            t = next();
        }
        Conditionals.check(tokens, this::substitution, problems);
        if (t.kind() == Token.Kind.END) {
            problems.add("`[[` without its `]]`");
        }
    }

    private void arithmetic(String text) {
        List<String> subs = new ArrayList<>();
        Arithmetic.check(text, "((" + text + "))", subs, problems, 0);
        subs.forEach(this::substitution);
    }

    private void substitutions(Word w) {
        for (String sub : w.substitutions()) {
            substitution(sub);
        }
    }

    private void substitution(String source) {
        ShellScript inner = parse(source, depth + 1, repeated());
        commands.addAll(inner.commands());
        problems.addAll(inner.problems());
    }
}
