package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The programs {@link BashAnalyzer} looks through to the command they run: {@code eval} and {@code source}
 * (problems), {@code env}, {@code busybox}, {@code xargs}, GNU {@code parallel}, {@code watch}, {@code trap}, the
 * shells ({@link ShellCommand}) and the wrappers of {@link Wrappers}; any other program is judged by itself.
 */
final class Runners {
    private static final Set<String> XARGS_VALUES = Set.of(
            "--arg-file",
            "--delimiter",
            "--eof",
            "--replace",
            "--max-lines",
            "--max-args",
            "--max-procs",
            "--max-chars",
            "--process-slot-var");
    private static final Set<String> WATCH_VALUES = Set.of();
    private static final Set<String> PARALLEL_VALUES = Set.of(
            "--arg-file",
            "--colsep",
            "--delimiter",
            "--eof",
            "--replace",
            "--jobs",
            "--max-lines",
            "--max-args",
            "--max-chars",
            "--sshlogin",
            "--results",
            "--joblog",
            "--tmpdir",
            "--workdir",
            "--env",
            "--basefile",
            "--return",
            "--transferfile",
            "--tagstring",
            "--timeout",
            "--retries",
            "--halt",
            "--memfree",
            "--load",
            "--delay",
            "--ssh",
            "--block",
            "--header",
            "--max-replace-args",
            "--shebang-wrap",
            "--sshloginfile");
    private static final Set<String> ENV_FLAGS = Set.of("--ignore-environment", "--null", "--debug");
    private static final Set<String> ENV_VALUES = Set.of("--unset", "--chdir", "--split-string");
    private static final Pattern WATCH_EXEC = Pattern.compile("-[a-z]*x.*|--exec");
    private static final Pattern TRAP_LIST_FLAGS = Pattern.compile("-[lpP]+");
    private static final Pattern PARALLEL_SEPARATOR = Pattern.compile("::::?\\+?");
    private static final Pattern PARALLEL_ARGUMENTS = Pattern.compile(":::\\+?");
    private static final Pattern ASSIGNMENT = Pattern.compile("(?s)[A-Za-z_][A-Za-z0-9_]*=.*");
    /** The command a wrapper runs, and whether arguments are added to it at run time. */
    record Step(List<Word> words, boolean openEnded) {}

    private final BashAnalyzer a;

    Runners(BashAnalyzer a) {
        this.a = a;
    }

    /**
     * One step of stripping: {@code w} runs program {@code name} with {@code args}. Answers the command it runs
     * in turn, or null when there is none to strip further (the program was judged, or the command was a script).
     */
    Step step(String name, List<Word> w, List<Word> args, int depth, boolean openEnded, boolean repeated) {
        switch (name) {
            case "eval" -> {
                a.problems.add("`eval` runs a string built at run time");
                a.script(BashAnalyzer.values(args), depth + 1);
                return null;
            }
            case "source", "." -> {
                a.problems.add("`" + name + "` runs the commands of the file "
                        + (args.isEmpty()
                                ? "it is given"
                                : "`" + Snippet.of(args.get(0).raw()) + "`"));
                return null;
            }
            case "env" -> {
                List<Word> inner = env(args);
                if (inner == null) {
                    a.emit(w, openEnded);
                    return null;
                }
                return new Step(inner, openEnded);
            }
            case "busybox" -> {
                if (args.isEmpty()
                        || args.get(0).value().startsWith("-") && args.get(0).isStatic()) {
                    a.emit(w, openEnded); // busybox --list, --help
                    return null;
                }
                return new Step(args, openEnded); // busybox APPLET ARGS runs the applet
            }
            case "xargs" -> {
                int i = Options.skip(args, "0prtxile", "EILnPsda", Set.of(), XARGS_VALUES);
                Word file = Options.value(args.subList(0, i), 'a', "--arg-file");
                if (file != null) {
                    a.files.redirect(Kind.READ, file);
                }
                wrapperWords(name, args.subList(0, i));
                return new Step(i < args.size() ? args.subList(i, args.size()) : List.of(Word.of("echo")), true);
            }
            case "parallel", "sem" -> {
                parallel(name, args, depth);
                return null;
            }
            case "watch" -> {
                int i = Options.skip(args, "bcdeghptx", "nq", WATCH_VALUES, Set.of("--interval", "--differences"));
                wrapperWords(name, args.subList(0, i));
                if (args.subList(0, i).stream()
                        .anyMatch(a -> WATCH_EXEC.matcher(a.value()).matches())) {
                    return new Step(args.subList(i, args.size()), openEnded);
                }
                a.script(BashAnalyzer.values(args.subList(i, args.size())), depth + 1); // run with sh -c
                return null;
            }
            case "trap" -> {
                trap(args, depth);
                return null;
            }
            default -> {
                Wrappers.Spec spec = Wrappers.spec(name);
                if (spec == null) {
                    if (BashAnalyzer.SHELLS.contains(name)) {
                        ShellCommand.check(name, args, a.fx, body -> a.script(body, depth + 1));
                    } else {
                        a.program(name, w, depth, openEnded, repeated);
                    }
                    return null;
                }
                if (spec.judgedItself()) {
                    a.emit(w, openEnded); // sudo, chroot...: rules about the wrapper apply too
                }
                int start = Wrappers.parse(spec, args, wrapperEffects(depth));
                wrapperWords(name, args.subList(0, start < 0 ? args.size() : start));
                if (start < 0) {
                    if (!spec.judgedItself() && !args.isEmpty()) {
                        a.emit(w, openEnded); // it runs no command from its words: judged as itself
                    }
                    return null;
                }
                return new Step(args.subList(start, args.size()), openEnded);
            }
        }
    }

    private Wrappers.Effects wrapperEffects(int depth) {
        return new Wrappers.Effects() {
            @Override
            public void problem(String problem) {
                a.problems.add(problem);
            }

            @Override
            public void path(Kind kind, Scope scope, Word path) {
                a.files.argument(kind, scope, path);
            }

            @Override
            public void environment(Word assignment) {
                Assignments.check(assignment, Assignments.name(assignment), true, a.fx);
            }

            @Override
            public void directory(Word dir) {
                List<Path> to = dir == null || !dir.isStatic() ? null : a.files.resolve(dir.value());
                a.files.dirs(Directories.only(to == null || to.size() != 1 ? null : to.get(0)));
            }

            @Override
            public void script(Word source) {
                if (!source.isStatic()) {
                    a.problems.add("it runs `" + Snippet.of(source.raw()) + "` as a command, text only known at run"
                            + " time");
                }
                a.script(source.value(), depth + 1);
            }

            @Override
            public void file(Kind kind, Word file) {
                a.files.redirect(kind, file);
            }
        };
    }

    /**
     * {@code trap [-lpP] [--] [ACTION SIGNAL...]}: the action is a script bash runs later. Options end at
     * {@code --} or the first word that is not one; {@code -l}, {@code -p} and {@code -P} only print; one
     * operand alone, or the action {@code -}, resets. A word only known at run time among the options could be
     * {@code --} or nothing, so every operand after it may be the action.
     */
    private void trap(List<Word> args, int depth) {
        int i = 0;
        boolean prints = false;
        boolean unknown = false;
        for (; i < args.size(); i++) {
            Word x = args.get(i);
            String v = x.value();
            if (!x.isStatic()) {
                a.problems.add(
                        "`trap " + Snippet.of(x.raw()) + "`: a word only known at run time where its options are");
                unknown = true;
                break;
            }
            if (v.equals("--")) {
                i++;
                break;
            }
            if (!TRAP_LIST_FLAGS.matcher(v).matches()) {
                break;
            }
            prints = true;
        }
        List<Word> operands = args.subList(i, args.size());
        if (unknown) {
            operands.stream().filter(Word::isStatic).forEach(o -> a.script(o.value(), depth + 1));
        } else if (!prints && operands.size() >= 2 && !operands.get(0).value().equals("-")) {
            a.script(operands.get(0).value(), depth + 1);
        }
    }

    /**
     * GNU {@code parallel [options] [command] (::: args | :::: files)...}: a shell runs the command with each
     * argument appended (so it is open-ended, as under {@code xargs}); without a command every argument is a
     * command. A command string holding shell code gets its arguments appended where the analysis cannot see
     * which command they reach: a problem.
     */
    private void parallel(String name, List<Word> args, int depth) {
        int i = Options.skip(args, "0qkuvX", "aCdEIjLlnNSsx", Set.of(), PARALLEL_VALUES);
        wrapperWords(name, args.subList(0, i));
        int end = i;
        while (end < args.size()
                && !PARALLEL_SEPARATOR.matcher(args.get(end).value()).matches()) {
            end++;
        }
        List<Word> command = args.subList(i, end);
        if (command.isEmpty()) {
            if (end >= args.size()) {
                a.problems.add("`" + name + "` runs the commands it reads from its standard input");
            }
            for (int j = end; j < args.size(); j++) {
                Word x = args.get(j);
                if (x.value().startsWith("::::")) {
                    a.problems.add("`" + name + " ::::` runs the commands in the files it names");
                } else if (!PARALLEL_ARGUMENTS.matcher(x.value()).matches()) {
                    if (!x.isStatic()) {
                        a.problems.add("`" + name + "` runs `" + Snippet.of(x.raw()) + "`, a command only known at"
                                + " run time");
                    }
                    a.script(x.value(), depth + 1); // without a command, each argument is one
                }
            }
            return;
        }
        if (command.stream().anyMatch(c -> c.isStatic() && BashAnalyzer.mayBeCode(c.value(), 0))) {
            a.problems.add("`" + name + "` appends its arguments to a command string, where the analysis cannot see"
                    + " which command they reach");
            a.script(BashAnalyzer.values(command), depth + 1);
            return;
        }
        a.unwrap(command, depth, true, true);
    }

    /** A wrapper's own words: one only known at run time could turn into an option or another command. */
    private void wrapperWords(String wrapper, List<Word> words) {
        for (Word x : words) {
            if (!x.isStatic()) {
                a.problems.add("`" + wrapper + " " + Snippet.of(x.raw()) + "`: a word only known at run time among its"
                        + " options could change the command it runs");
                return;
            }
        }
    }

    /** {@code env}'s arguments after options and assignments, or null when it runs nothing (prints). */
    private List<Word> env(List<Word> args) {
        int i = Options.skip(args, "i0v", "uCS", ENV_FLAGS, ENV_VALUES);
        wrapperWords("env", args.subList(0, i));
        for (LoadingCheck.Found f : LoadingCheck.scan("env", args, 0, i).found()) {
            a.problems.add(
                    "`env " + Snippet.of(f.word().raw()) + "`: " + f.option().reason());
            if (f.option().spelling().contains("C") || f.option().spelling().equals("--chdir")) {
                List<Path> to = f.value() == null || !f.value().isStatic()
                        ? null
                        : a.files.resolve(f.value().value());
                a.files.dirs(Directories.only(to == null || to.size() != 1 ? null : to.get(0)));
            }
        }
        while (i < args.size() && ASSIGNMENT.matcher(args.get(i).value()).matches()) {
            Word x = args.get(i++);
            Assignments.check(x, Assignments.name(x), true, a.fx);
        }
        return i < args.size() ? args.subList(i, args.size()) : null;
    }
}
