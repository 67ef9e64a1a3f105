package dev.paddock.policy;

import dev.paddock.policy.LoadingOptions.Option;
import dev.paddock.policy.LoadingOptions.Style;
import dev.paddock.policy.LoadingOptions.Variable;
import dev.paddock.policy.shell.Word;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Finds the entries of {@link LoadingOptions} in a command, with each program's option syntax: whether short
 * options cluster ({@code -ic}), whether long ones may be abbreviated ({@code env --chd=d}, as GNU getopt and
 * git's parse-options allow), and how far its options reach (up to the first operand, up to {@code --}, or
 * everywhere). A word whose value is only known at run time and could be an option ({@link Word#couldBeOption})
 * is reported too, unless it is the value of an option known to take one.
 */
final class LoadingCheck {
    /** How far a program's options reach. */
    enum Zone {
        ALL,
        UNTIL_DOUBLE_DASH,
        UNTIL_OPERAND
    }

    /**
     * A program's option syntax.
     *
     * @param withValue short option letters that take a value (so the next word is not an option)
     * @param terminators short letters after whose value options end ({@code python -c}, {@code -m})
     */
    private record Grammar(
            boolean clusters,
            boolean abbreviations,
            boolean npmNames,
            Zone zone,
            String withValue,
            String terminators) {}

    /** An entry found: the option, the word it was found in, and its value (null when none or a flag). */
    record Found(Option option, Word word, Word value) {}

    /** What a scan found: risky options, and words that could turn into options at run time. */
    record Findings(List<Found> found, List<Word> unknown) {}

    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*", Pattern.DOTALL);
    private static final Map<String, List<Option>> BY_PROGRAM = new HashMap<>();
    private static final Map<String, Grammar> GRAMMARS = new HashMap<>();

    static {
        for (Option o : LoadingOptions.OPTIONS) {
            BY_PROGRAM.computeIfAbsent(o.program(), k -> new ArrayList<>()).add(o);
        }
        Grammar gitSub = new Grammar(true, true, false, Zone.UNTIL_DOUBLE_DASH, "efABCmxuc", "");
        for (String k : BY_PROGRAM.keySet()) {
            if (k.startsWith("git ")) {
                GRAMMARS.put(k, gitSub);
            }
        }
        GRAMMARS.put("git", new Grammar(false, false, false, Zone.UNTIL_OPERAND, "Cc", ""));
        GRAMMARS.put("bash", new Grammar(true, false, false, Zone.UNTIL_OPERAND, "oO", ""));
        GRAMMARS.put("env", new Grammar(true, true, false, Zone.UNTIL_OPERAND, "uCS", ""));
        GRAMMARS.put("npm", new Grammar(false, true, true, Zone.UNTIL_DOUBLE_DASH, "Cwc", ""));
        GRAMMARS.put("npx", new Grammar(false, true, true, Zone.UNTIL_DOUBLE_DASH, "pc", ""));
        GRAMMARS.put("node", new Grammar(false, false, false, Zone.ALL, "erpC", ""));
        GRAMMARS.put("python", new Grammar(true, false, false, Zone.UNTIL_OPERAND, "WXcm", "cm"));
        GRAMMARS.put("perl", new Grammar(true, false, false, Zone.ALL, "eEMmIlx0", ""));
        GRAMMARS.put("ruby", new Grammar(true, false, false, Zone.ALL, "erICFx", ""));
        GRAMMARS.put("make", new Grammar(true, true, false, Zone.ALL, "CfIEoWl", ""));
        GRAMMARS.put("tar", new Grammar(true, true, false, Zone.ALL, "bCfFgHIKLNTVX", ""));
        GRAMMARS.put("sort", new Grammar(true, true, false, Zone.ALL, "kotST", ""));
        GRAMMARS.put("rg", new Grammar(true, false, false, Zone.UNTIL_DOUBLE_DASH, "ABCEefgjMmrtT", ""));
        GRAMMARS.put("less", new Grammar(true, true, false, Zone.UNTIL_DOUBLE_DASH, "bhjkoOpPtTxyz", ""));
        GRAMMARS.put("man", new Grammar(true, true, false, Zone.UNTIL_DOUBLE_DASH, "CMPmeLpRrS", ""));
        GRAMMARS.put("ssh", new Grammar(true, false, false, Zone.ALL, "BbcDEeFIiJLlmOoPpQRSWw", ""));
        GRAMMARS.put("scp", new Grammar(true, false, false, Zone.ALL, "cDFiJloPSX", ""));
        GRAMMARS.put("rsync", new Grammar(true, true, false, Zone.UNTIL_DOUBLE_DASH, "eBfTM", ""));
        GRAMMARS.put("curl", new Grammar(true, false, false, Zone.ALL, "AbcCdDeEFHKmoOQrTuUwXxYyz", ""));
        GRAMMARS.put("wget", new Grammar(true, true, false, Zone.ALL, "eoaOPTtwQiBUYlAR", ""));
        GRAMMARS.put("zip", new Grammar(false, false, false, Zone.ALL, "", ""));
        GRAMMARS.put("vim", new Grammar(false, false, false, Zone.ALL, "cSsuU", ""));
        GRAMMARS.put("install", new Grammar(true, true, false, Zone.ALL, "mogSt", ""));
    }

    private LoadingCheck() {}

    /** The table's name for {@code program}: the shells share bash's entries, {@code python3.12} is python... */
    static String key(String program) {
        return switch (program) {
            case "sh", "dash", "zsh", "ksh", "mksh", "ash", "bash" -> "bash";
            case "nodejs" -> "node";
            case "vi",
                    "nvim",
                    "view",
                    "vimdiff",
                    "rvim",
                    "rview",
                    "gvim",
                    "gview",
                    "evim",
                    "vimx",
                    "vim.basic",
                    "vim.tiny",
                    "vim.nox",
                    "vim.gtk",
                    "vim.gtk3",
                    "ex",
                    "nex" -> "vim";
            case "gtar", "bsdtar" -> "tar";
            case "gmake" -> "make";
            default -> isPython(program) ? "python" : program;
        };
    }

    /** Whether {@code program} is {@code python} followed only by digits and dots ({@code python3.12}). */
    private static boolean isPython(String program) {
        if (!program.startsWith("python")) {
            return false;
        }
        for (int i = "python".length(); i < program.length(); i++) {
            char c = program.charAt(i);
            if (c != '.' && (c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code key} (see {@link #key}) has entries. */
    static boolean hasEntries(String key) {
        return BY_PROGRAM.containsKey(key);
    }

    /** The first entry for {@code name} among {@link LoadingOptions#VARIABLES}, or null. */
    static Variable variable(String name) {
        for (Variable v : LoadingOptions.VARIABLES) {
            if (v.matches(name)) {
                return v;
            }
        }
        return null;
    }

    /** Scans {@code args} (the words after the program) of {@code key} from {@code from} to {@code to}. */
    static Findings scan(String key, List<Word> args, int from, int to) {
        List<Found> found = new ArrayList<>();
        List<Word> unknown = new ArrayList<>();
        List<Option> options = BY_PROGRAM.getOrDefault(key, List.of());
        Grammar g = GRAMMARS.getOrDefault(key, new Grammar(true, true, false, Zone.ALL, "", ""));
        int end = Math.min(to, args.size());
        if (key.equals("tar")
                && from == 0
                && end > 0
                && !args.get(0).value().startsWith("-")
                && args.get(0).isStatic()) {
            Word first = args.get(0); // old style: tar czf a.tgz dir
            Word dashed = new Word("-" + first.value(), first.raw(), first.quoted(), false, false, false, List.of());
            scanWord(options, g, dashed, 1 < end ? args.get(1) : null, found);
            from = 1;
        }
        boolean valueNext = false;
        for (int i = from; i < end; i++) {
            Word w = args.get(i);
            String v = w.value();
            if (valueNext) {
                valueNext = false;
                continue;
            }
            if (!w.isStatic()) {
                if (w.couldBeOption()) {
                    unknown.add(w);
                }
                continue;
            }
            if (v.equals("--") && g.zone() != Zone.ALL) {
                break;
            }
            int before = found.size();
            scanWord(options, g, w, i + 1 < end ? args.get(i + 1) : null, found);
            boolean isOption = (v.startsWith("-") || v.startsWith("+")) && v.length() > 1;
            if (found.size() > before) {
                Found f = found.get(found.size() - 1);
                valueNext = f.value() != null && f.value() == (i + 1 < end ? args.get(i + 1) : null);
            } else if (isOption
                    && !v.startsWith("--")
                    && v.length() == 2
                    && g.withValue().indexOf(v.charAt(1)) >= 0) {
                valueNext = true;
            }
            if (g.zone() == Zone.UNTIL_OPERAND && (!isOption || terminates(g, v))) {
                break;
            }
        }
        return new Findings(found, unknown);
    }

    private static boolean terminates(Grammar g, String v) {
        return !v.startsWith("--") && v.length() >= 2 && g.terminators().indexOf(v.charAt(v.length() - 1)) >= 0;
    }

    /** The entry of {@code key} that {@code w} (followed by {@code next}) is, or null. */
    static Found matchOne(String key, Word w, Word next) {
        List<Found> found = new ArrayList<>(1);
        scanWord(BY_PROGRAM.getOrDefault(key, List.of()), GRAMMARS.get(key), w, next, found);
        return found.isEmpty() ? null : found.get(0);
    }

    private static void scanWord(List<Option> options, Grammar g, Word w, Word next, List<Found> found) {
        String v = w.value();
        Found abbreviated = null;
        for (Option o : options) {
            Found f = match(o, g, w, v, next);
            if (f == null) {
                continue;
            }
            String name = v.indexOf('=') > 0 ? v.substring(0, v.indexOf('=')) : v;
            if (!o.spelling().startsWith("--")
                    || name.equals(o.spelling())
                    || g.npmNames() && npm(name).equals(npm(o.spelling()))) {
                found.add(f); // an exact spelling wins over an abbreviation of a longer one (--global, --globalconfig)
                return;
            }
            abbreviated = abbreviated != null ? abbreviated : f;
        }
        if (abbreviated != null) {
            found.add(abbreviated);
        }
    }

    private static Found match(Option o, Grammar g, Word w, String v, Word next) {
        String s = o.spelling();
        switch (o.style()) {
            case OPERAND:
                return v.equals(s) ? new Found(o, w, next) : null;
            case ASSIGNMENT:
                return ASSIGNMENT.matcher(v).matches() ? new Found(o, w, w) : null;
            case PREFIX:
                return v.startsWith(s) && v.length() >= s.length() ? new Found(o, w, null) : null;
            default:
                break;
        }
        boolean value = o.style() == Style.VALUE;
        if (s.startsWith("--")) {
            if (!v.startsWith("--")) {
                return null;
            }
            int eq = v.indexOf('=');
            String name = eq < 0 ? v : v.substring(0, eq);
            boolean same = g.npmNames()
                    ? npm(name).equals(npm(s))
                            || g.abbreviations() && name.length() >= 4 && npm(s).startsWith(npm(name))
                    : name.equals(s) || g.abbreviations() && name.length() >= 4 && s.startsWith(name);
            if (!same) {
                return null;
            }
            if (!value || eq >= 0) {
                return new Found(o, w, eq >= 0 ? part(w, v.substring(eq + 1)) : null);
            }
            return new Found(o, w, next);
        }
        if (s.length() != 2) {
            return v.equals(s)
                    ? new Found(o, w, value ? next : null)
                    : value && v.startsWith(s) ? new Found(o, w, part(w, v.substring(s.length()))) : null;
        }
        char sign = s.charAt(0);
        char letter = s.charAt(1);
        if (v.length() < 2 || v.charAt(0) != sign || v.startsWith("--")) {
            return null;
        }
        if (v.equals(s)) {
            return new Found(o, w, value ? next : null);
        }
        if (!g.clusters()) {
            return value && v.startsWith(s) ? new Found(o, w, part(w, v.substring(2))) : null;
        }
        for (int k = 1; k < v.length(); k++) {
            char c = v.charAt(k);
            if (c == letter) {
                if (!value) {
                    return new Found(o, w, null);
                }
                String rest = v.substring(k + 1);
                return new Found(o, w, rest.isEmpty() ? next : part(w, rest));
            }
            if (g.withValue().indexOf(c) >= 0) {
                return null; // the rest of the cluster is that letter's value
            }
        }
        return null;
    }

    private static String npm(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** A word for the part of {@code w} after an option ({@code -Cdir}, {@code --x=dir}). */
    static Word part(Word w, String value) {
        return new Word(value, value, w.quoted(), w.expands(), w.glob(), w.braces(), List.of(), w.splits(), false);
    }
}
