package dev.paddock.policy;

import dev.paddock.policy.shell.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A program's arguments split GNU-style into options (anywhere, as getopt permutes them) and operands:
 * short clusters ({@code -rf}), a short option's value attached or in the next word ({@code -ofile},
 * {@code -o file}), {@code --long=value} or {@code --long value} for the long options known to take one, and
 * {@code --} ending the options. A word only known at run time is an operand.
 */
record Argv(List<Opt> options, List<Word> operands) {
    /** One option, as {@code -o} or {@code --output}, with its value (null for a flag). */
    record Opt(String name, Word value) {}

    static Argv parse(List<Word> args, String shortWithValue, Set<String> longWithValue) {
        List<Opt> options = new ArrayList<>();
        List<Word> operands = new ArrayList<>();
        boolean end = false;
        for (int i = 0; i < args.size(); i++) {
            Word w = args.get(i);
            String v = w.value();
            if (end || !w.isStatic() || v.length() < 2 || v.charAt(0) != '-') {
                operands.add(w);
            } else if (v.equals("--")) {
                end = true;
            } else if (v.startsWith("--")) {
                int eq = v.indexOf('=');
                String name = eq < 0 ? v : v.substring(0, eq);
                Word value = eq >= 0
                        ? LoadingCheck.part(w, v.substring(eq + 1))
                        : longWithValue.contains(name) && i + 1 < args.size() ? args.get(++i) : null;
                options.add(new Opt(name, value));
            } else {
                for (int k = 1; k < v.length(); k++) {
                    char c = v.charAt(k);
                    if (shortWithValue.indexOf(c) >= 0) {
                        Word value = k + 1 < v.length()
                                ? LoadingCheck.part(w, v.substring(k + 1))
                                : i + 1 < args.size() ? args.get(++i) : null;
                        options.add(new Opt("-" + c, value));
                        break;
                    }
                    options.add(new Opt("-" + c, null));
                }
            }
        }
        return new Argv(options, operands);
    }

    /** Whether one of {@code names} was given. */
    boolean has(String... names) {
        for (Opt o : options) {
            for (String n : names) {
                if (o.name().equals(n)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The values of the options named {@code names}, in order. */
    List<Word> values(String... names) {
        List<Word> out = new ArrayList<>();
        for (Opt o : options) {
            for (String n : names) {
                if (o.name().equals(n) && o.value() != null) {
                    out.add(o.value());
                }
            }
        }
        return out;
    }

    /** The last value of the options named {@code names}, or null. */
    Word value(String... names) {
        List<Word> all = values(names);
        return all.isEmpty() ? null : all.get(all.size() - 1);
    }
}
