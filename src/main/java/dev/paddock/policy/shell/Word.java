package dev.paddock.policy.shell;

import java.util.List;

/**
 * One shell word after quote removal.
 *
 * <p>{@code value} is the word as the shell would pass it when nothing needs expanding; expansions
 * ({@code $X}, {@code ${...}}, {@code $(...)}, backticks, arithmetic) stay in it as written, and then
 * {@code expands} is true. {@code raw} is the source text. {@code substitutions} holds the source of each
 * command substitution (and process substitution) inside the word, to be parsed and judged too.
 *
 * @param value the word after quote removal (expansions kept as written)
 * @param raw the word as written in the source
 * @param quoted whether any part was quoted or escaped
 * @param expands whether a parameter, arithmetic or command expansion happens at run time
 * @param glob whether an unquoted {@code * ? [} makes it a file-name pattern
 * @param braces whether an unquoted {@code {a,b}} or {@code {1..3}} brace expansion applies
 * @param substitutions the sources of command and process substitutions in the word
 * @param splits whether it may become several words at run time (an unquoted expansion, which word splitting
 *     breaks up, or a brace expansion)
 * @param dynamicStart whether its value begins with an expansion or a glob, so that its first character (a
 *     {@code -} making it an option, say) is only known at run time
 */
public record Word(
        String value,
        String raw,
        boolean quoted,
        boolean expands,
        boolean glob,
        boolean braces,
        List<String> substitutions,
        boolean splits,
        boolean dynamicStart) {

    public Word {
        substitutions = substitutions.isEmpty() ? List.of() : List.copyOf(substitutions);
    }

    /** A word whose splitting and first character are taken as unknown whenever it expands (the safe side). */
    public Word(
            String value,
            String raw,
            boolean quoted,
            boolean expands,
            boolean glob,
            boolean braces,
            List<String> substitutions) {
        this(value, raw, quoted, expands, glob, braces, substitutions, expands || braces, expands || glob || braces);
    }

    /** A word whose value is known before running: no expansion, no glob, no brace expansion. */
    public boolean isStatic() {
        return !expands && !glob && !braces;
    }

    /** Whether this word could turn into an option (or into several words) at run time. */
    public boolean couldBeOption() {
        return splits || dynamicStart;
    }

    /** Whether this is an unquoted, plain word equal to {@code s} (how reserved words are recognised). */
    public boolean is(String s) {
        return !quoted && !expands && value.equals(s);
    }

    /** A plain static word, for tests and for words made by Paddock itself. */
    public static Word of(String value) {
        return new Word(value, value, false, false, false, false, List.of(), false, false);
    }
}
