package dev.paddock.policy.shell;

/**
 * A token of a shell command line.
 *
 * @param kind what it is
 * @param text the operator ({@code &&}, {@code ;}, newline as {@code "\n"}, {@code (}...), the redirection
 *     operator ({@code >}, {@code >>}, {@code 2>} is {@code >} with fd 2, {@code <<}...), or the arithmetic
 *     text of {@code ((...))}; for a word, its raw text
 * @param word the word, for {@link Kind#WORD}; else null
 * @param fd the file descriptor written before a redirection ({@code 2>}), or -1
 */
public record Token(Kind kind, String text, Word word, int fd) {
    /** Token kinds. */
    public enum Kind {
        WORD,
        OPERATOR,
        REDIRECT,
        ARITHMETIC,
        END
    }

    static Token operator(String text) {
        return new Token(Kind.OPERATOR, text, null, -1);
    }

    boolean isOperator(String op) {
        return kind == Kind.OPERATOR && text.equals(op);
    }

    boolean isWord(String reserved) {
        return kind == Kind.WORD && word.is(reserved);
    }
}
