package dev.paddock.policy;

import java.util.List;
import java.util.Set;

/**
 * One program run found in a Bash command line, after wrappers ({@code env}, {@code timeout},
 * {@code xargs}...), assignments, program paths and git's global options were stripped: what Bash rules
 * are matched against.
 *
 * <p>{@code words}: program name (no directory for an absolute path) and arguments, quotes removed.
 * {@code openEnded}: more arguments are added at run time ({@code xargs cmd}), so an exact rule cannot
 * allow it. {@code dynamic}: indexes of the words only known at run time that could be anything, an option
 * included ({@code $F}, {@code "$(cmd)"}, a glob starting with {@code *}); a deny or ask rule they could
 * complete keeps the command from being allowed. Immutable (texts are computed on first use).
 */
public final class Invocation {
    private final List<String> words;
    private final boolean openEnded;
    private final Set<Integer> dynamic;
    private final FlagNormaliser.Canonical canonical;
    private final List<String> canonicalWords;
    private String text;
    private String canonicalText;

    /** See the class description for the parameters. */
    public Invocation(List<String> words, boolean openEnded, Set<Integer> dynamic) {
        this.words = List.copyOf(words);
        this.openEnded = openEnded;
        this.dynamic = Set.copyOf(dynamic);
        this.canonical = FlagNormaliser.canonical(this.words);
        this.canonicalWords = canonical.words();
    }

    /** An invocation whose words are all known. */
    public Invocation(List<String> words, boolean openEnded) {
        this(words, openEnded, Set.of());
    }

    /** Program name and arguments, quotes removed. */
    public List<String> words() {
        return words;
    }

    /** Whether more arguments are added at run time. */
    public boolean openEnded() {
        return openEnded;
    }

    /** Indexes of the words only known at run time. */
    public Set<Integer> dynamic() {
        return dynamic;
    }

    /** The canonical form of the words (see {@link FlagNormaliser}). */
    public FlagNormaliser.Canonical canonical() {
        return canonical;
    }

    /** The canonical words (computed once). */
    List<String> canonicalWords() {
        return canonicalWords;
    }

    /** The words as a command line, quoted where needed: {@code git commit -m 'fix bug'}. */
    public String text() {
        if (text == null) {
            text = render(words);
        }
        return text;
    }

    /** The canonical words as a command line (what wildcard rules match). */
    public String canonicalText() {
        if (canonicalText == null) {
            canonicalText = canonicalWords.equals(words) ? text() : render(canonicalWords);
        }
        return canonicalText;
    }

    @Override
    public String toString() {
        return text();
    }

    /** Joins words with single spaces, single-quoting words that are empty or hold special characters. */
    static String render(List<String> words) {
        StringBuilder sb = new StringBuilder(64);
        for (String w : words) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(plain(w) ? w : "'" + w.replace("'", "'\\''") + "'");
        }
        return sb.toString();
    }

    /** Whether {@code w} needs no quotes: only {@code A-Za-z0-9_@%+=:,./{}*?[]^~$-}, not empty. */
    private static boolean plain(String w) {
        if (w.isEmpty()) {
            return false;
        }
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            boolean ok = c >= 'A' && c <= 'Z'
                    || c >= 'a' && c <= 'z'
                    || c >= '0' && c <= '9'
                    || "_@%+=:,./{}*?[]^~$-".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
