package dev.paddock.policy;

import dev.paddock.policy.shell.Word;
import java.util.List;
import java.util.Set;

/** Skips the options of a wrapper command ({@code timeout -k 5 -s KILL 10 cmd}) in getopt style. */
final class Options {
    private Options() {}

    /**
     * The index of the first argument that is not an option. A cluster like {@code -oL} ends at the
     * first letter that takes a value (the rest, or the next word, is its value); unknown letters and
     * unknown long options are taken as flags; {@code --} ends the options and is skipped.
     *
     * @param shortFlags letters without a value
     * @param shortWithValue letters taking a value
     * @param longFlags long options without a value (informative: unknown ones are flags too)
     * @param longWithValue long options taking a value, as {@code --opt=v} or {@code --opt v}
     */
    static int skip(
            List<Word> args,
            String shortFlags,
            String shortWithValue,
            Set<String> longFlags,
            Set<String> longWithValue) {
        int i = 0;
        while (i < args.size()) {
            String v = args.get(i).value();
            if (v.equals("--")) {
                return i + 1;
            }
            if (v.startsWith("--")) {
                i += longWithValue.contains(v) ? 2 : 1;
                continue;
            }
            if (!v.startsWith("-") || v.length() < 2) {
                return i;
            }
            int step = 1;
            for (int k = 1; k < v.length(); k++) {
                if (shortWithValue.indexOf(v.charAt(k)) >= 0) {
                    step = k == v.length() - 1 ? 2 : 1;
                    break;
                }
            }
            i += step;
        }
        return Math.min(i, args.size());
    }

    /**
     * The value given to option {@code letter} or {@code longName} among {@code options} (already known to
     * be options), as a word, or null. For {@code -oFILE} and {@code --output=FILE} the word is rebuilt
     * from the part after the option.
     */
    static Word value(List<Word> options, char letter, String longName) {
        for (int i = 0; i < options.size(); i++) {
            Word w = options.get(i);
            String v = w.value();
            if (v.equals(longName) || v.equals("-" + letter)) {
                return i + 1 < options.size() ? options.get(i + 1) : null;
            }
            if (v.startsWith(longName + "=")) {
                return part(w, v.substring(longName.length() + 1));
            }
            if (!v.startsWith("--") && v.startsWith("-") && v.indexOf(letter) > 0) {
                String rest = v.substring(v.indexOf(letter) + 1);
                if (rest.isEmpty()) {
                    return i + 1 < options.size() ? options.get(i + 1) : null;
                }
                return part(w, rest);
            }
        }
        return null;
    }

    private static Word part(Word w, String value) {
        return new Word(value, value, w.quoted(), w.expands(), w.glob(), w.braces(), List.of());
    }
}
