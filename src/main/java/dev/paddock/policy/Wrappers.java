package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Programs that run another command given in their arguments ({@code timeout 5 cmd}, {@code flock f cmd},
 * {@code script -c 'cmd'}), each with its option syntax: which options take a value (so the value is not taken
 * for the command), how many operands come before the command, which options hold a command string (run by a
 * shell), which mean that no command runs ({@code taskset -p}), which name a file it writes or reads, an
 * environment assignment, the directory the command runs in, or something it loads. {@link BashAnalyzer} strips
 * them and judges the command inside as if it ran alone; a program not listed here that may still run its
 * arguments is caught by the suffix rule of {@link PolicyEngine} (see docs/decisions/0006).
 *
 * <p>Options are read getopt-style up to the first operand (these programs stop there, so the command's own
 * options stay its own): clusters ({@code -qc cmd}), values attached or in the next word, {@code --long=value},
 * and unambiguous abbreviations of the long options known to take a value ({@code timeout --sig KILL}, which
 * getopt accepts).
 */
final class Wrappers {
    private static final Pattern SHELL_C_FLAG = Pattern.compile("-[a-z]*c");
    private static final Pattern ROOT_ONLY = Pattern.compile("/+");
    /** What parsing a wrapper reports back to the analysis. */
    interface Effects extends ArgumentEffects {
        /** {@code NAME=value} put into the command's environment. */
        void environment(Word assignment);

        /** The command runs in {@code dir} (null: a directory the analysis cannot know). */
        void directory(Word dir);

        /** A command string run by a shell. */
        void script(Word source);

        /** A file the wrapper itself writes or reads (judged as a redirection is). */
        void file(Kind kind, Word file);
    }

    /** How a wrapper takes its command. */
    enum Style {
        /** Options, then {@code operands} operands, then the command's words (or a command string option). */
        WORDS,
        /** Only a command string option ({@code script -c}); without one it runs an interactive shell. */
        STRING,
        /** Options, operands, then the remaining words joined into one string a shell runs ({@code sg g cmd}). */
        JOINED
    }

    /** One wrapper's syntax; see the class description. */
    record Spec(
            String name,
            Style style,
            String shortValue,
            Map<String, Integer> longValue,
            int operands,
            Set<String> scripts,
            Set<String> noCommand,
            Map<String, Kind> files,
            Set<String> env,
            Set<String> dirs,
            Map<String, String> risky,
            String bare,
            boolean judgedItself) {}

    private Wrappers() {}

    /** The wrapper called {@code name}, or null (the table is {@link WrapperTable}). */
    static Spec spec(String name) {
        return WrapperTable.SPECS.get(name);
    }

    /**
     * Reads the wrapper's arguments, reporting what they do to {@code fx}. Answers the index in {@code args} of
     * the command's first word, or -1 when it runs no command from its words (none, a command string, or nothing
     * at all).
     */
    static int parse(Spec s, List<Word> args, Effects fx) {
        int i = 0;
        boolean none = false;
        boolean script = false;
        Set<String> seen = new HashSet<>();
        while (i < args.size()) {
            Word a = args.get(i);
            String v = a.value();
            if (!a.isStatic()) {
                break; // a run-time word: judged by the caller (it could be an option or the command)
            }
            if (v.equals("--")) {
                i++;
                break;
            }
            if (v.length() < 2 || v.charAt(0) != '-') {
                break;
            }
            String key = longKey(s, v);
            if (key != null) {
                seen.add(key);
                int eq = v.indexOf('=');
                int arity = eq >= 0 ? 0 : s.longValue().getOrDefault(key, 0);
                Word value = eq >= 0
                        ? LoadingCheck.part(a, v.substring(eq + 1))
                        : arity > 0 && i + 1 < args.size() ? args.get(i + 1) : null;
                option(
                        s,
                        key,
                        value,
                        args.subList(Math.min(i + 1, args.size()), Math.min(i + 1 + arity, args.size())),
                        fx);
                none |= s.noCommand().contains(key);
                script |= s.scripts().contains(key) && value != null;
                i += 1 + arity;
                continue;
            }
            int step = 1;
            for (int k = 1; k < v.length(); k++) {
                String letter = "-" + v.charAt(k);
                seen.add(letter);
                none |= s.noCommand().contains(letter);
                if (s.shortValue().indexOf(v.charAt(k)) >= 0) {
                    Word value = k + 1 < v.length()
                            ? LoadingCheck.part(a, v.substring(k + 1))
                            : i + 1 < args.size() ? args.get(i + 1) : null;
                    step = k + 1 < v.length() ? 1 : 2;
                    script |= s.scripts().contains(letter) && value != null;
                    option(s, letter, value, List.of(), fx);
                    break;
                }
                option(s, letter, null, List.of(), fx);
            }
            i += step;
        }
        i = Math.min(i, args.size());
        int operandsEnd = Math.min(i + s.operands(), args.size());
        for (Word o : args.subList(i, operandsEnd)) {
            operand(s, o, seen, fx);
        }
        i = operandsEnd;
        switch (s.name()) {
            case "gdb" -> {
                return seen.contains("--args") || seen.contains("-args") ? (i < args.size() ? i : -1) : -1;
            }
            case "runuser" -> {
                if (seen.contains("-u") || seen.contains("--user")) {
                    return none || i >= args.size() ? -1 : i;
                }
            }
            default -> {}
        }
        if (s.style() == Style.STRING) {
            // script [FILE], su [USER [ARGS]]: options may follow the operands (su passes -c to the user's shell)
            for (int j = i; j < args.size(); j++) {
                Word a = args.get(j);
                if (a.isStatic() && s.scripts().contains(a.value()) && j + 1 < args.size()) {
                    fx.script(args.get(++j));
                    script = true;
                } else if (a.isStatic() && SHELL_C_FLAG.matcher(a.value()).matches() && j + 1 < args.size()) {
                    fx.script(args.get(++j));
                    script = true;
                }
            }
            if (s.files().containsKey("")) {
                fx.file(Kind.WRITE, i < args.size() ? args.get(i) : Word.of("typescript")); // script's log
            }
            if (!script && !none && s.bare() != null) {
                fx.problem("`" + s.name() + "` without a command: " + s.bare());
            }
            return -1;
        }
        if (i < args.size()
                && args.get(i).isStatic()
                && s.scripts().contains(args.get(i).value())) {
            if (i + 1 < args.size()) {
                fx.script(args.get(i + 1)); // flock FILE -c CMD, sg GROUP -c CMD
            }
            return -1;
        }
        if (none || script) {
            return -1;
        }
        if (s.style() == Style.JOINED) {
            if (i < args.size()) {
                fx.script(joined(args.subList(i, args.size())));
            }
            return -1;
        }
        if (i < args.size()) {
            return i;
        }
        if (s.bare() != null) {
            fx.problem("`" + s.name() + "` without a command: " + s.bare());
        }
        return -1;
    }

    /** An operand before the command: flock's lock file, chroot's new root, envdir's directory. */
    private static void operand(Spec s, Word o, Set<String> seen, Effects fx) {
        if (s.files().containsKey("")) {
            fx.file(s.files().get(""), o); // flock creates its lock file
        }
        if (s.risky().containsKey("")) {
            fx.problem("`" + s.name() + " " + Snippet.of(o.raw()) + "`: "
                    + s.risky().get(""));
        }
        if (s.name().equals("chroot")) {
            if (!o.isStatic() || !ROOT_ONLY.matcher(o.value()).matches()) {
                fx.problem("`chroot " + Snippet.of(o.raw()) + "`: the command sees another root, where the paths"
                        + " it names are other files");
                fx.directory(null);
            } else if (!seen.contains("--skip-chdir")) {
                fx.directory(Word.of("/")); // chroot changes to the new root's /
            }
        }
    }

    /** The long option {@code v} stands for (exact, or an unambiguous abbreviation of one taking a value). */
    private static String longKey(Spec s, String v) {
        int eq = v.indexOf('=');
        String name = eq < 0 ? v : v.substring(0, eq);
        if (!name.startsWith("--") && !s.longValue().containsKey(name)) {
            return null; // a short option or a cluster of them (gdb's -ex-style names are in longValue)
        }
        if (s.longValue().containsKey(name)
                || s.noCommand().contains(name)
                || s.risky().containsKey(name)
                || s.files().containsKey(name)
                || s.scripts().contains(name)
                || s.dirs().contains(name)) {
            return name;
        }
        String found = null;
        for (String l : s.longValue().keySet()) {
            if (l.startsWith("--") && l.startsWith(name) && name.length() > 2) {
                if (found != null) {
                    return name; // ambiguous: getopt refuses it, so nothing runs; taken as a flag
                }
                found = l;
            }
        }
        return found != null ? found : name;
    }

    private static void option(Spec s, String key, Word value, List<Word> values, Effects fx) {
        String reason = s.risky().get(key);
        if (reason != null) {
            fx.problem(
                    "`" + s.name() + " " + key + (value == null ? "" : " " + Snippet.of(value.raw())) + "`: " + reason);
        }
        if (value == null) {
            return;
        }
        if (s.name().equals("gdb") && reason != null && value.isStatic()) {
            String v = value.value().strip();
            int pipe = v.indexOf('|');
            String shell = v.startsWith("shell ")
                    ? v.substring(6)
                    : v.startsWith("!")
                            ? v.substring(1)
                            : (v.startsWith("pipe ") || v.startsWith("|")) && pipe >= 0 ? v.substring(pipe + 1) : null;
            if (shell != null) {
                fx.script(Word.of(shell)); // gdb's shell, ! and pipe run a shell command
            }
        }
        Kind kind = s.files().get(key);
        if (kind != null) {
            String v = value.value();
            if (v.startsWith("|") || v.startsWith("!")) {
                fx.script(LoadingCheck.part(value, v.substring(1))); // strace -o '|cmd' pipes into a command
            } else {
                fx.file(kind, value);
            }
        }
        if (s.env().contains(key)) {
            Word assignment = values.size() == 2
                    ? new Word(
                            values.get(0).value() + "=" + values.get(1).value(),
                            values.get(0).raw() + "=" + values.get(1).raw(),
                            values.get(1).quoted(),
                            values.get(0).expands() || values.get(1).expands(),
                            false,
                            false,
                            List.of())
                    : value;
            fx.environment(assignment);
        }
        if (s.dirs().contains(key)) {
            fx.directory(value);
        }
        if (s.scripts().contains(key)) {
            fx.script(value);
        }
    }

    private static Word joined(List<Word> words) {
        StringBuilder v = new StringBuilder();
        StringBuilder raw = new StringBuilder();
        boolean expands = false;
        for (Word w : words) {
            v.append(v.length() > 0 ? " " : "").append(w.value());
            raw.append(raw.length() > 0 ? " " : "").append(w.raw());
            expands |= !w.isStatic();
        }
        return new Word(v.toString(), raw.toString(), false, expands, false, false, List.of());
    }
}
