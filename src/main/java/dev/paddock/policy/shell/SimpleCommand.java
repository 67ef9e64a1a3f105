package dev.paddock.policy.shell;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A simple command: leading {@code NAME=value} assignments, the words (program and arguments) and the
 * redirections. A compound command's own redirections ({@code ( ... ) > f}) come as a simple command with
 * no words.
 */
public record SimpleCommand(List<Word> assignments, List<Word> words, List<Redirect> redirects) {
    public SimpleCommand {
        assignments = List.copyOf(assignments);
        words = List.copyOf(words);
        redirects = List.copyOf(redirects);
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
