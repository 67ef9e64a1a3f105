package dev.paddock.policy.shell;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A simple command: leading {@code NAME=value} assignments, the words (program and arguments) and the
 * redirections. A compound command's own redirections ({@code ( ... ) > f}) come as a simple command with
 * no words.
 *
 * @param repeated whether it may run more than once (inside a loop, or in a function body, which runs each
 *     time the function is called): a relative {@code cd} there leaves the directory unknown
 */
public record SimpleCommand(List<Word> assignments, List<Word> words, List<Redirect> redirects, boolean repeated) {
    public SimpleCommand {
        assignments = List.copyOf(assignments);
        words = List.copyOf(words);
        redirects = List.copyOf(redirects);
    }

    /** A command that runs at most once. */
    public SimpleCommand(List<Word> assignments, List<Word> words, List<Redirect> redirects) {
        this(assignments, words, redirects, false);
    }

    /** The values of the words, program first. */
    public List<String> values() {
        return words.stream().map(Word::value).toList();
    }

    @Override
    public String toString() {
        return words.stream().map(Word::raw).collect(Collectors.joining(" "));
    }
}
