package dev.paddock.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Brings equivalent spellings of the options of a few dangerous commands to one form, so a rule written
 * one way matches all of them. Normalised commands and what is done:
 * <ul>
 *   <li>{@code rm}: short flags {@code f i I r R d v}, {@code -R} is {@code -r}; {@code --force},
 *       {@code --recursive}, {@code --dir}, {@code --verbose} become their short flag.</li>
 *   <li>{@code chmod}: short flags {@code R c f v} (a word like {@code -x} or {@code -rwx} is a mode, not
 *       flags); {@code --recursive}, {@code --changes}, {@code --silent}/{@code --quiet},
 *       {@code --verbose}.</li>
 *   <li>{@code chown}, {@code chgrp}: short flags {@code R c f v h H L P}; the same long aliases, and
 *       {@code --no-dereference} as {@code -h}.</li>
 *   <li>{@code git push}: short flags {@code f u d n q v}; {@code --force}, {@code --set-upstream},
 *       {@code --delete}, {@code --dry-run}, {@code --quiet}, {@code --verbose}; a {@code +refspec}
 *       (a forced update) adds {@code -f} and loses its {@code +}.</li>
 * </ul>
 * Combined short flags are split ({@code -fr} = {@code -f -r}), options may come after operands (GNU
 * style), and the canonical form is {@code program [subcommand] -<sorted short flags> <sorted long
 * options> <operands in order>}; after {@code --} everything is an operand. Other commands are left as
 * they are.
 */
public final class FlagNormaliser {
    private record Spec(
            int headSize,
            String shortFlags,
            Map<Character, Character> shortAliases,
            Map<String, Character> longAliases,
            boolean plusRefspecForces) {}

    private static final Map<String, Character> CHMOD_LONG =
            Map.of("--recursive", 'R', "--changes", 'c', "--silent", 'f', "--quiet", 'f', "--verbose", 'v');
    private static final Map<String, Spec> SPECS = Map.of(
            "rm",
                    new Spec(
                            1,
                            "fiIrRdv",
                            Map.of('R', 'r'),
                            Map.of("--force", 'f', "--recursive", 'r', "--dir", 'd', "--verbose", 'v'),
                            false),
            "chmod", new Spec(1, "Rcfv", Map.of(), CHMOD_LONG, false),
            "chown", new Spec(1, "RcfvhHLP", Map.of(), withNoDereference(), false),
            "chgrp", new Spec(1, "RcfvhHLP", Map.of(), withNoDereference(), false),
            "git push",
                    new Spec(
                            2,
                            "fudnqv46",
                            Map.of(),
                            Map.of(
                                    "--force",
                                    'f',
                                    "--set-upstream",
                                    'u',
                                    "--delete",
                                    'd',
                                    "--dry-run",
                                    'n',
                                    "--quiet",
                                    'q',
                                    "--verbose",
                                    'v'),
                            true));

    private FlagNormaliser() {}

    private static Map<String, Character> withNoDereference() {
        java.util.HashMap<String, Character> m = new java.util.HashMap<>(CHMOD_LONG);
        m.put("--no-dereference", 'h');
        return Map.copyOf(m);
    }

    /**
     * The canonical form of {@code words} (program first, already stripped of wrappers and paths).
     * Words that are glob patterns of a rule ({@code *}) stay operands.
     */
    public static Canonical canonical(List<String> words) {
        Spec spec = spec(words);
        if (spec == null) {
            return new Canonical(List.copyOf(words), Set.of(), Set.of(), List.of(), false);
        }
        List<String> head = List.copyOf(words.subList(0, spec.headSize()));
        TreeSet<Character> letters = new TreeSet<>();
        TreeSet<String> longs = new TreeSet<>();
        List<String> operands = new ArrayList<>();
        boolean endOfOptions = false;
        for (String w : words.subList(spec.headSize(), words.size())) {
            if (endOfOptions) {
                operands.add(w);
            } else if (w.equals("--")) {
                endOfOptions = true;
                operands.add(w);
            } else if (w.startsWith("--")) {
                Character alias = spec.longAliases().get(w);
                if (alias != null) {
                    letters.add(alias);
                } else {
                    longs.add(w);
                }
            } else if (w.length() > 1 && w.startsWith("-") && isFlagCluster(w, spec)) {
                for (char c : w.substring(1).toCharArray()) {
                    letters.add(spec.shortAliases().getOrDefault(c, c));
                }
            } else if (spec.plusRefspecForces() && w.length() > 1 && w.startsWith("+")) {
                letters.add('f');
                operands.add(w.substring(1));
            } else {
                operands.add(w);
            }
        }
        return new Canonical(head, Set.copyOf(letters), Set.copyOf(longs), List.copyOf(operands), true);
    }

    private static Spec spec(List<String> words) {
        if (words.isEmpty()) {
            return null;
        }
        if (words.size() >= 2 && words.get(0).equals("git")) {
            return SPECS.get("git " + words.get(1));
        }
        return words.get(0).equals("git") ? null : SPECS.get(words.get(0));
    }

    private static boolean isFlagCluster(String w, Spec spec) {
        for (int i = 1; i < w.length(); i++) {
            if (spec.shortFlags().indexOf(w.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A command in canonical form.
     *
     * @param head program, and subcommand for {@code git push}; all the words for commands that are not
     *     normalised
     * @param letters short flags (aliases resolved)
     * @param longs long options without a short alias, as written ({@code --force-with-lease})
     * @param operands the other words, in order
     * @param normalised whether the command is one of the normalised ones
     */
    public record Canonical(
            List<String> head, Set<Character> letters, Set<String> longs, List<String> operands, boolean normalised) {
        /** The canonical words: head, one {@code -xyz} cluster of sorted letters, sorted longs, operands. */
        public List<String> words() {
            if (!normalised) {
                return head;
            }
            List<String> out = new ArrayList<>(head);
            if (!letters.isEmpty()) {
                StringBuilder sb = new StringBuilder("-");
                new TreeSet<>(letters).forEach(sb::append);
                out.add(sb.toString());
            }
            out.addAll(new TreeSet<>(longs));
            out.addAll(operands);
            return out;
        }

        /**
         * Whether {@code rule} (another canonical form) names this command with at least its flags: same
         * head, every flag and long option of the rule present here, and the rule's operands equal to
         * ({@code prefix} false) or a prefix of ({@code prefix} true) these operands. Used for deny and ask
         * rules, so {@code rm -rf:*} catches {@code rm -r -f -v x}.
         */
        public boolean hasAtLeast(Canonical rule, boolean prefix) {
            if (!normalised || !rule.normalised || !head.equals(rule.head)) {
                return false;
            }
            if (!letters.containsAll(rule.letters) || !longs.containsAll(rule.longs)) {
                return false;
            }
            if (prefix) {
                return operands.size() >= rule.operands.size()
                        && operands.subList(0, rule.operands.size()).equals(rule.operands);
            }
            return operands.equals(rule.operands);
        }
    }
}
