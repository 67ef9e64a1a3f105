package dev.paddock.policy;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One program run found in a Bash command line, after wrappers ({@code env}, {@code timeout},
 * {@code xargs}...), assignments, program paths and git's global options were stripped: what Bash rules
 * are matched against.
 *
 * @param words program name (no directory for an absolute path) and arguments, quotes removed
 * @param openEnded whether more arguments are added at run time ({@code xargs cmd}), so an exact rule
 *     cannot allow it
 */
public record Invocation(List<String> words, boolean openEnded) {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./{}*?\\[\\]^~$-]+");

    public Invocation {
        words = List.copyOf(words);
    }

    /** The canonical form of the words (see {@link FlagNormaliser}). */
    public FlagNormaliser.Canonical canonical() {
        return FlagNormaliser.canonical(words);
    }

    /** The words as a command line, quoted where needed: {@code git commit -m 'fix bug'}. */
    public String text() {
        return render(words);
    }

    /** The canonical words as a command line (what wildcard rules match). */
    public String canonicalText() {
        return render(canonical().words());
    }

    /** Joins words with single spaces, single-quoting words that are empty or hold special characters. */
    static String render(List<String> words) {
        return words.stream().map(w -> PLAIN.matcher(w).matches() ? w : "'" + w.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
    }
}
