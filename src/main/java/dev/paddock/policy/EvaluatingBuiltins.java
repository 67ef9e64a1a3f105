package dev.paddock.policy;

import dev.paddock.policy.shell.Arithmetic;
import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builtins that evaluate their arguments later or differently than as plain text: names with array subscripts
 * (arithmetic, so {@code declare 'a[$(touch x)]=1'}, {@code read}, {@code printf -v}, {@code unset},
 * {@code test -v} run the substitution), arithmetic ({@code let}, {@code declare -i}), name references
 * ({@code declare -n}), callbacks and word lists ({@code mapfile -C}, {@code compgen -W}), and builtins that
 * change what later commands mean ({@code alias}, {@code hash -p}, {@code enable}, {@code fc}, {@code set},
 * {@code shopt}). Each is a problem unless its arguments are plain names and literal numbers; exported
 * assignments go through the environment rule (see {@link LoadingOptions}).
 */
final class EvaluatingBuiltins {
    private static final Pattern ENABLE_LOADING = Pattern.compile("-.*[fnd].*");
    private static final Pattern COMPGEN_RUNS = Pattern.compile("-[A-Za-z]*[WCF].*");
    private static final Pattern BIND_RUNS = Pattern.compile("-[A-Za-z]*x.*");
    private static final Pattern ARRAY_EXPANDS = Pattern.compile("(?s).*[\\[$`].*");
    private static final Pattern HISTORY_WRITES = Pattern.compile("-[A-Za-z]*[wa][A-Za-z]*");
    private static final Pattern SHOPT_SET = Pattern.compile("-[A-Za-z]*s[A-Za-z]*");
    /** What the checks report back to the analysis. */
    interface Effects {
        void problem(String problem);

        /** {@code NAME=value} assigned by a builtin; {@code exported} when it reaches child environments. */
        void assignment(Word word, String name, boolean exported);

        /** A file a builtin writes. */
        void write(Word file);

        /** Source that runs as commands (a callback, a substitution inside a subscript). */
        void script(String source);
    }

    static final Set<String> NAMES = Set.of(
            "declare",
            "typeset",
            "local",
            "export",
            "readonly",
            "let",
            "unset",
            "test",
            "[",
            "read",
            "printf",
            "mapfile",
            "readarray",
            "alias",
            "hash",
            "enable",
            "fc",
            "history",
            "compgen",
            "complete",
            "bind",
            "set",
            "shopt",
            "getopts",
            "wait");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** A word starting with a plain name and {@code =} as written (no quotes or expansions before the =). */
    private static final Pattern STATIC_NAME = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\+?=");

    private static final Pattern PLAIN_REFERENCE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\[(@|\\*|-?[0-9]+)])?");

    private EvaluatingBuiltins() {}

    /** Checks builtin {@code name} with its {@code args}; see the class description. */
    static void check(String name, List<Word> args, Effects fx) {
        switch (name) {
            case "declare", "typeset", "local", "export", "readonly" -> declare(name, args, fx);
            case "let" -> {
                for (Word w : args) {
                    arithmetic(w, "let " + w.raw(), fx);
                }
            }
            case "unset" -> {
                boolean functions = false;
                for (Word w : args) {
                    if (w.isStatic() && w.value().startsWith("-")) {
                        functions |= w.value().indexOf('f') > 0;
                        continue;
                    }
                    reference(w, "unset", fx);
                    if (!functions) {
                        sets(w, "unset", fx); // removing a variable changes what later commands get, as assigning does
                    }
                }
            }
            case "test", "[" -> {
                for (int i = 0; i + 1 < args.size(); i++) {
                    if (args.get(i).is("-v")) {
                        reference(args.get(i + 1), name + " -v", fx);
                    }
                }
            }
            case "read" -> read(args, fx);
            case "printf" -> {
                Word target = null;
                if (!args.isEmpty() && args.get(0).is("-v") && args.size() > 1) {
                    target = args.get(1);
                } else if (!args.isEmpty()
                        && args.get(0).value().startsWith("-v")
                        && args.get(0).value().length() > 2) {
                    target = LoadingCheck.part(args.get(0), args.get(0).value().substring(2));
                }
                if (target != null) {
                    reference(target, "printf -v", fx);
                    sets(target, "printf -v", fx);
                }
            }
            case "getopts" -> {
                if (args.size() > 1) {
                    reference(args.get(1), "getopts", fx);
                    sets(args.get(1), "getopts " + args.get(0).raw(), fx);
                }
            }
            case "wait" -> {
                Word target = option(args, "-p");
                if (target != null) {
                    reference(target, "wait -p", fx);
                    sets(target, "wait -p", fx);
                }
            }
            case "mapfile", "readarray" -> {
                Word array = operand(args, "dnOsuCc");
                if (array != null) {
                    reference(array, name, fx);
                    sets(array, name, fx);
                }
                Word callback = option(args, "-C");
                if (callback != null) {
                    fx.problem("`" + name + " -C " + Snippet.of(callback.raw()) + "` runs the callback for lines it"
                            + " reads");
                    fx.script(callback.value());
                }
            }
            case "alias" -> {
                if (args.stream().anyMatch(w -> !w.isStatic() || w.value().contains("="))) {
                    fx.problem("`alias` defines names that later commands run as other text (with expand_aliases"
                            + " or in an interactive shell)");
                }
            }
            case "hash" -> {
                if (args.stream()
                        .anyMatch(w -> w.value().startsWith("-") && w.value().contains("p"))) {
                    fx.problem("`hash -p` makes a command name run another program");
                }
            }
            case "enable" -> {
                if (args.stream()
                        .anyMatch(w -> !w.value().startsWith("-")
                                || ENABLE_LOADING.matcher(w.value()).matches())) {
                    fx.problem("`enable` turns builtins off (the name then runs a program) or loads one from a"
                            + " shared library (-f)");
                }
            }
            case "fc" -> {
                if (args.stream()
                        .noneMatch(w -> w.value().startsWith("-") && w.value().contains("l"))) {
                    fx.problem("`fc` runs commands again from the history, text known only at run time");
                }
            }
            case "history" -> history(args, fx);
            case "compgen", "complete" -> {
                if (args.stream().anyMatch(w -> COMPGEN_RUNS.matcher(w.value()).matches())) {
                    fx.problem("`" + name + " -W/-C/-F` expands a word list or runs a command or function");
                }
            }
            case "bind" -> {
                if (args.stream().anyMatch(w -> BIND_RUNS.matcher(w.value()).matches())) {
                    fx.problem("`bind -x` binds a key to a shell command");
                }
            }
            case "set" -> set(args, fx);
            case "shopt" -> shopt(args, fx);
            default -> {}
        }
    }

    private static void declare(String name, List<Word> args, Effects fx) {
        boolean exported = name.equals("export");
        boolean printing = false;
        int i = 0;
        for (; i < args.size(); i++) {
            Word w = args.get(i);
            String v = w.value();
            if (!w.isStatic() || v.length() < 2 || v.charAt(0) != '-' && v.charAt(0) != '+') {
                break;
            }
            if (v.equals("--")) {
                i++;
                break;
            }
            if (v.charAt(0) == '-' && v.indexOf('f') > 0 && (v.indexOf('x') > 0 || name.equals("export"))) {
                fx.problem("`" + name + " " + v + "` exports functions: child bash processes run them in place of the"
                        + " commands they are named after");
            }
            boolean unexport = name.equals("export") && v.indexOf('n') > 0;
            if (v.charAt(0) == '-' && (v.indexOf('i') > 0 || v.indexOf('n') > 0 && !unexport)) {
                fx.problem("`" + name + " " + v + "`: "
                        + (v.indexOf('i') > 0
                                ? "assignments to these variables (later ones too) are evaluated as arithmetic"
                                : "a name reference expands the variable it names, subscript included")
                        + ", which runs the `$(...)` an array subscript holds");
            }
            exported |= v.charAt(0) == '-' && v.indexOf('x') > 0;
            exported &= !unexport;
            printing |= v.charAt(0) == '-' && (v.indexOf('p') > 0 || v.indexOf('f') > 0 || v.indexOf('F') > 0);
        }
        for (Word w : args.subList(i, args.size())) {
            Matcher assigned = STATIC_NAME.matcher(w.raw());
            if (!w.isStatic() && assigned.lookingAt()) {
                fx.assignment(w, assigned.group(1), exported); // a run-time value is only text, the name is plain
                continue;
            }
            if (!w.isStatic()) {
                fx.problem("`" + name + " " + Snippet.of(w.raw()) + "`: a name only known at run time can hold an"
                        + " array subscript, which bash evaluates (and runs the `$(...)` in it)");
                continue;
            }
            String v = w.value();
            int eq = v.indexOf('=');
            String target = eq < 0 ? v : v.substring(0, v.charAt(Math.max(eq - 1, 0)) == '+' ? eq - 1 : eq);
            reference(Word.of(target), name, fx);
            if (eq >= 0
                    && v.startsWith("(", eq + 1)
                    && ARRAY_EXPANDS.matcher(v.substring(eq + 1)).matches()) {
                fx.problem("`" + name + " " + Snippet.of(v) + "`: the subscripts of an array value are evaluated"
                        + " as arithmetic");
            }
            String variable = target.contains("[") ? target.substring(0, target.indexOf('[')) : target;
            if (eq >= 0 || exported) {
                fx.assignment(w, variable, exported);
            } else if (!printing) {
                sets(Word.of(variable), name, fx); // declared (a local one hides the caller's), unexported...
            }
        }
    }

    private static void read(List<Word> args, Effects fx) {
        for (int i = 0; i < args.size(); i++) {
            Word w = args.get(i);
            String v = w.value();
            if (w.isStatic() && v.equals("--")) {
                names(args.subList(i + 1, args.size()), fx);
                return;
            }
            if (w.isStatic() && v.startsWith("-") && v.length() > 1) {
                for (int k = 1; k < v.length(); k++) {
                    char c = v.charAt(k);
                    if ("adinNptu".indexOf(c) < 0) {
                        continue;
                    }
                    Word value = k < v.length() - 1
                            ? LoadingCheck.part(w, v.substring(k + 1))
                            : i + 1 < args.size() ? args.get(++i) : null;
                    if (c == 'a' && value != null) {
                        reference(value, "read -a", fx);
                        sets(value, "read -a", fx);
                    }
                    break; // the rest of the word, or the next word, is the option's value
                }
                continue;
            }
            names(args.subList(i, args.size()), fx);
            return;
        }
    }

    /** The variables {@code read} assigns. */
    private static void names(List<Word> names, Effects fx) {
        for (Word w : names) {
            reference(w, "read", fx);
            sets(w, "read", fx);
        }
    }

    private static void history(List<Word> args, Effects fx) {
        for (int i = 0; i < args.size(); i++) {
            String v = args.get(i).value();
            if (HISTORY_WRITES.matcher(v).matches() && i + 1 < args.size()) {
                fx.write(args.get(i + 1));
            }
        }
    }

    private static void set(List<Word> args, Effects fx) {
        for (int i = 0; i < args.size(); i++) {
            Word w = args.get(i);
            String v = w.value();
            if (!w.isStatic() && i == 0) {
                fx.problem("`set " + Snippet.of(w.raw()) + "`: options only known at run time");
                return;
            }
            if (!w.isStatic() || v.equals("--") || v.equals("-") || !v.startsWith("-") && !v.startsWith("+")) {
                return; // the rest are positional parameters
            }
            if (v.equals("-o") || v.equals("+o")) {
                if (i + 1 < args.size()) {
                    Word o = args.get(++i);
                    if (v.equals("-o") && !(o.isStatic() && ShellOptions.harmless(o.value()))) {
                        fx.problem("`set -o " + Snippet.of(o.raw()) + "` changes how bash reads or runs the commands"
                                + " after it");
                    }
                }
                continue;
            }
            if (v.startsWith("-")) {
                for (char c : v.substring(1).toCharArray()) {
                    if (ShellOptions.HARMLESS_SET_LETTERS.indexOf(c) < 0 && c != 'o') {
                        fx.problem("`set -" + c + "` changes how bash runs the commands after it (-a exports every"
                                + " assignment, -k makes NAME=value arguments environment)");
                    }
                }
            }
        }
    }

    private static void shopt(List<Word> args, Effects fx) {
        boolean on = args.stream().anyMatch(w -> SHOPT_SET.matcher(w.value()).matches());
        if (!on) {
            return;
        }
        for (Word w : args) {
            if (!w.isStatic()) {
                fx.problem("`shopt -s " + Snippet.of(w.raw()) + "`: an option only known at run time");
            } else if (!w.value().startsWith("-") && !ShellOptions.harmless(w.value())) {
                fx.problem("`shopt -s " + w.value() + "` changes how bash reads or runs the commands after it");
            }
        }
    }

    /** A variable name (with an optional subscript) that bash resolves: plain, or a problem. */
    private static void reference(Word w, String what, Effects fx) {
        if (!w.isStatic()) {
            fx.problem("`" + what + " " + Snippet.of(w.raw()) + "`: a variable name only known at run time can hold"
                    + " an array subscript, which bash evaluates (and runs the `$(...)` in it)");
            return;
        }
        String v = w.value();
        if (PLAIN_REFERENCE.matcher(v).matches()) {
            return;
        }
        int open = v.indexOf('[');
        if (open > 0 && v.endsWith("]") && NAME.matcher(v.substring(0, open)).matches()) {
            List<String> subs = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            Arithmetic.check(v.substring(open + 1, v.length() - 1), what + " " + v, subs, problems, 0);
            problems.forEach(fx::problem);
            subs.forEach(fx::script);
            return;
        }
        fx.problem("`" + what + " " + Snippet.of(v) + "`: not a plain variable name");
    }

    private static void arithmetic(Word w, String shown, Effects fx) {
        if (!w.isStatic()) {
            fx.problem("`" + Snippet.of(shown) + "` evaluates text only known at run time as arithmetic (an array"
                    + " subscript in it runs `$(...)`)");
            return;
        }
        List<String> subs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Arithmetic.check(w.value(), shown, subs, problems, 0);
        problems.forEach(fx::problem);
        subs.forEach(fx::script);
    }

    /**
     * Variable {@code target} set (or removed) by builtin {@code shown} with a value known only at run time: judged
     * as an assignment is (see {@link Assignments}), since a variable already exported, as {@code HOME} and
     * {@code PATH} are, passes the new value to every later command.
     */
    private static void sets(Word target, String shown, Effects fx) {
        if (!target.isStatic()) {
            return; // a name only known at run time is a problem already (see reference)
        }
        String v = target.value();
        String variable = v.contains("[") ? v.substring(0, v.indexOf('[')) : v;
        if (!NAME.matcher(variable).matches()) {
            return;
        }
        fx.assignment(
                new Word(variable + "=", shown + " " + target.raw(), false, true, false, false, List.of()),
                variable,
                false);
    }

    /** The first operand after options, those of {@code withValue} taking the next word (or the rest). */
    private static Word operand(List<Word> args, String withValue) {
        for (int i = 0; i < args.size(); i++) {
            String v = args.get(i).value();
            if (v.equals("--")) {
                return i + 1 < args.size() ? args.get(i + 1) : null;
            }
            if (!args.get(i).isStatic() || !v.startsWith("-") || v.length() < 2) {
                return args.get(i);
            }
            for (int k = 1; k < v.length(); k++) {
                if (withValue.indexOf(v.charAt(k)) >= 0) {
                    i += k == v.length() - 1 ? 1 : 0; // -u 3 takes the next word, -u3 and -dn hold their value
                    break;
                }
            }
        }
        return null;
    }

    /** The value of option {@code flag} ({@code -C cb} or {@code -Ccb}) among {@code args}, or null. */
    private static Word option(List<Word> args, String flag) {
        for (int i = 0; i < args.size(); i++) {
            String v = args.get(i).value();
            if (v.equals(flag)) {
                return i + 1 < args.size() ? args.get(i + 1) : null;
            }
            if (v.startsWith(flag) && v.length() > flag.length()) {
                return LoadingCheck.part(args.get(i), v.substring(flag.length()));
            }
        }
        return null;
    }
}
