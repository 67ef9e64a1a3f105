package dev.paddock.policy;

import dev.paddock.policy.shell.ShellLexer;
import dev.paddock.policy.shell.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The specifier of a {@code Bash(...)} rule, in Claude Code's notation
 * (https://code.claude.com/docs/en/permissions, "Bash"):
 * <ul>
 *   <li>{@code Bash(npm test)}: exactly that command;</li>
 *   <li>{@code Bash(git push:*)}: that command and any continuation, on word boundaries ({@code :*} only at
 *       the end);</li>
 *   <li>{@code Bash(npm run test*)}, {@code Bash(git * main)}: {@code *} matches any text, spaces included;
 *       a trailing {@code " *"} also matches nothing ({@code Bash(ls *)} matches {@code ls} and
 *       {@code ls -la}, not {@code lsof}).</li>
 * </ul>
 * Quotes in a rule are removed as the shell would ({@code Bash(git commit -m "wip")}); in a wildcard rule
 * every {@code *} is a wildcard. Rules and commands are compared in the canonical form of
 * {@link FlagNormaliser}. Deny and ask rules are matched broadly: a normalised command with at least the
 * rule's flags matches ({@code rm -rf:*} catches {@code rm -r -f -v x}), and an open-ended command
 * ({@code xargs rm}) matches when the rule could complete it. Allow rules are matched strictly.
 */
final class BashPattern {
    private enum Kind {
        EXACT,
        PREFIX,
        WILDCARD
    }

    private final Kind kind;
    private final FlagNormaliser.Canonical canonical;
    private final List<String> ruleWords;
    private final Pattern wildcard;
    private final boolean endsWithWildcard;
    /** For a wildcard: the text every command line it matches starts with (up to the first {@code *}). */
    private final String literal;
    /** The program (first word) every command this pattern matches runs, or null when it could be any. */
    private final String program;

    private BashPattern(
            Kind kind, FlagNormaliser.Canonical canonical, Pattern wildcard, boolean endsWithWildcard, String core) {
        this.kind = kind;
        this.canonical = canonical;
        this.ruleWords = canonical == null ? null : canonical.words();
        this.wildcard = wildcard;
        this.endsWithWildcard = endsWithWildcard;
        if (kind != Kind.WILDCARD) {
            this.literal = null;
            this.program = ruleWords.get(0);
        } else {
            int star = core.indexOf('*');
            this.literal = star < 0 ? core : core.substring(0, star);
            int space = literal.indexOf(' ');
            // the rendered first word, when the rule fixes it: a plain word (rendered as is) ends at a space
            String first = space >= 0 ? literal.substring(0, space) : star < 0 ? core : null;
            this.program = first != null
                            && !first.isEmpty()
                            && Invocation.render(List.of(first)).equals(first)
                    ? first
                    : null;
        }
    }

    private BashPattern(Kind kind, FlagNormaliser.Canonical canonical, Pattern wildcard, boolean endsWithWildcard) {
        this(kind, canonical, wildcard, endsWithWildcard, null);
    }

    /**
     * The program every command this pattern matches must run (its first word), or null when it may match
     * any program (a wildcard before the first space, e.g. {@code Bash(*test*)}).
     */
    String program() {
        return program;
    }

    /** Parses a specifier (the text between the parentheses). */
    static BashPattern parse(String spec) throws RuleSyntaxException {
        String s = spec.strip();
        if (s.endsWith(":*")) {
            String body = s.substring(0, s.length() - 2).strip();
            if (body.isEmpty()) {
                throw new RuleSyntaxException("`:*` needs a command before it, e.g. Bash(git push:*)");
            }
            if (body.contains(":*")) {
                throw new RuleSyntaxException("`:*` may appear only once, at the end");
            }
            List<String> words = words(body);
            if (words.stream().anyMatch(w -> w.contains("*"))) {
                throw new RuleSyntaxException("use either `:*` at the end or `*` wildcards, not both");
            }
            return new BashPattern(Kind.PREFIX, FlagNormaliser.canonical(words), null, true);
        }
        if (s.contains(":*")) {
            throw new RuleSyntaxException(
                    "`:*` only works at the end of a Bash rule (prefix match); use `*` for a" + " wildcard elsewhere");
        }
        List<String> words = words(s);
        if (!s.contains("*")) {
            return new BashPattern(Kind.EXACT, FlagNormaliser.canonical(words), null, false);
        }
        String text = Invocation.render(FlagNormaliser.canonical(words).words());
        boolean optionalTail = text.endsWith(" *");
        String core = optionalTail ? text.substring(0, text.length() - 2) : text;
        StringBuilder re = new StringBuilder();
        String[] parts = core.split("\\*", -1);
        for (int i = 0; i < parts.length; i++) {
            re.append(i > 0 ? ".*" : "").append(Pattern.quote(parts[i]));
        }
        if (optionalTail) {
            re.append("(?: .*)?");
        }
        return new BashPattern(
                Kind.WILDCARD, null, Pattern.compile(re.toString(), Pattern.DOTALL), s.endsWith("*"), core);
    }

    /** The words of a rule's command, quotes removed; an operator or an unreadable quote is an error. */
    private static List<String> words(String body) throws RuleSyntaxException {
        ShellLexer lexer = new ShellLexer(body);
        List<String> words = new ArrayList<>();
        for (Token t = lexer.next(); t.kind() != Token.Kind.END; t = lexer.next()) {
            if (t.kind() != Token.Kind.WORD) {
                throw new RuleSyntaxException(
                        "a rule matches one simple command; `" + t.text().replace("\n", "\\n")
                                + "` in it would never match (each part of a compound command is judged on its own)");
            }
            words.add(t.word().value());
        }
        if (!lexer.problems().isEmpty()) {
            throw new RuleSyntaxException(String.join("; ", lexer.problems()));
        }
        if (words.isEmpty()) {
            throw new RuleSyntaxException("empty command");
        }
        return words;
    }

    /**
     * Whether {@code inv} matches.
     *
     * @param broad true for deny and ask rules (at least these flags; open-ended commands the rule could
     *     complete), false for allow rules
     */
    boolean matches(Invocation inv, boolean broad) {
        if (kind == Kind.WILDCARD) {
            if (inv.openEnded() && !broad && !endsWithWildcard) {
                return false;
            }
            // a match starts with the literal text before the first `*` (checked before the regex)
            String ct = inv.canonicalText();
            if (ct.startsWith(literal) && wildcard.matcher(ct).matches()) {
                return true;
            }
            if (!broad) {
                return false;
            }
            String t = inv.text();
            return t.startsWith(literal) && wildcard.matcher(t).matches();
        }
        List<String> cmd = inv.canonicalWords();
        List<String> rule = ruleWords;
        if (cmd.isEmpty() || !cmd.get(0).equals(rule.get(0))) {
            return false; // every way to match needs the same program (most rules stop here)
        }
        FlagNormaliser.Canonical c = inv.canonical();
        if (broad && inv.openEnded() && startsWith(rule, cmd)) {
            return true;
        }
        if (kind == Kind.PREFIX) {
            return startsWith(cmd, rule) || broad && c.hasAtLeast(canonical, true);
        }
        if (inv.openEnded() && !broad) {
            return false;
        }
        return cmd.equals(rule) || broad && c.hasAtLeast(canonical, false);
    }

    /**
     * Whether this rule could match {@code inv} once its run-time words are known: the rule's command
     * (program and subcommand for a normalised command, else all its words) agrees with the command's
     * words up to the first run-time word. {@code rm -f $F} could be {@code rm -rf}. Wildcard rules are not
     * considered.
     */
    boolean couldMatch(Invocation inv) {
        if (inv.dynamic().isEmpty() || kind == Kind.WILDCARD) {
            return false;
        }
        List<String> rule = canonical.normalised() ? canonical.head() : ruleWords;
        List<String> words = inv.words();
        for (int i = 0; i < words.size(); i++) {
            if (inv.dynamic().contains(i)) {
                return true;
            }
            if (i < rule.size() && !words.get(i).equals(rule.get(i))) {
                return false;
            }
        }
        return false;
    }

    private static boolean startsWith(List<String> list, List<String> prefix) {
        if (list.size() < prefix.size()) {
            return false;
        }
        for (int i = 0; i < prefix.size(); i++) {
            if (!list.get(i).equals(prefix.get(i))) {
                return false;
            }
        }
        return true;
    }
}
