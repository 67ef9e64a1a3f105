package dev.paddock.policy;

import dev.paddock.policy.shell.Redirect;
import dev.paddock.policy.shell.ShellParser;
import dev.paddock.policy.shell.ShellScript;
import dev.paddock.policy.shell.SimpleCommand;
import dev.paddock.policy.shell.Word;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Turns a Bash command line into what it would run ({@link Invocation}s), the files it would read or write
 * ({@link PathAccess}es) and what cannot be known without running it (problems).
 *
 * <p>On top of {@link ShellParser}'s simple commands it strips, and judges the command inside instead:
 * leading {@code VAR=value} assignments; {@code env [-i] [-u N] [VAR=x]...}; {@code timeout [opts] N};
 * {@code time [-p] [-o FILE]}; {@code nice [-n N]}; {@code nohup}; {@code stdbuf -oL}; {@code command}
 * (not with {@code -v}); {@code builtin}; {@code exec}; {@code xargs [opts]} (its command gets arguments
 * at run time: open-ended); {@code find ... -exec/-execdir/-ok/-okdir cmd ... ;|+} (find itself is judged
 * too); {@code sudo}/{@code doas} (judged both as themselves and for the inner command). The bodies of
 * {@code sh|bash|zsh|dash|ksh -c} (also {@code -lc}, {@code -ec}...), {@code eval} and {@code trap} are
 * parsed recursively. An absolute program path is reduced to its name ({@code /usr/bin/git} is
 * {@code git}); git's global options ({@code -C dir}, {@code -c k=v}, {@code --git-dir=...},
 * {@code --no-pager}...) are dropped so {@code git -C x push} is {@code git push}. {@code cd DIR} moves the
 * directory that later relative paths resolve against. Files: redirections ({@code > f}, {@code >> f},
 * {@code &> f}, {@code < f}; {@code /dev/null}, {@code /dev/stdout}, {@code /dev/stderr}, {@code /dev/tty}
 * and {@code /dev/fd/N} exempt), {@code tee FILE}, {@code time -o FILE}, {@code xargs -a FILE},
 * {@code find -fprint FILE}; and, checked against deny and ask rules only, the operands of known readers
 * ({@code cat}, {@code head}, {@code grep}...), writers ({@code rm}, {@code touch}, {@code chmod}...) and
 * copiers ({@code cp}, {@code mv}...: the last operand is written).
 *
 * <p>Problems (never allowed automatically): {@code eval}; {@code source}/{@code .}; a shell running a
 * script file or its standard input; a program name that expands at run time ({@code $X},
 * {@code ${IFS}}, {@code $(...)}, a glob or brace expansion); a redirection or {@code tee} target that
 * expands; assignments to variables that change what later commands run ({@code PATH},
 * {@code LD_PRELOAD}, {@code GIT_SSH_COMMAND}...); {@code git -c} keys that run commands ({@code alias.*},
 * {@code core.sshCommand}, {@code core.pager}...); and everything {@link ShellParser} reports
 * (unterminated quotes, here-documents without an end, process substitution...).
 */
public final class BashAnalyzer {
    private static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash");
    private static final Set<String> RISKY_VARIABLES = Set.of("PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT",
            "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "BASH_ENV", "ENV", "PROMPT_COMMAND", "IFS", "SHELLOPTS",
            "BASHOPTS", "PS4", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXEC_PATH", "GIT_PAGER", "PAGER", "EDITOR",
            "VISUAL", "GIT_EDITOR", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
            "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "NODE_OPTIONS", "PYTHONSTARTUP", "PERL5OPT", "RUBYOPT");
    /** Programs whose operands are files they read. */
    private static final Set<String> READERS = Set.of("cat", "head", "tail", "less", "more", "nl", "base64", "xxd",
            "od", "strings", "wc", "sort", "uniq", "diff", "cmp", "grep", "egrep", "fgrep", "rg");
    /** Programs whose operands are files they change or delete. */
    private static final Set<String> WRITERS = Set.of("rm", "rmdir", "touch", "truncate", "shred", "unlink", "chmod",
            "chown", "chgrp", "mkdir");
    /** Programs that read their first operands and write the last one. */
    private static final Set<String> COPIERS = Set.of("cp", "mv", "install", "ln", "rsync", "scp");
    private static final Pattern ASSIGNED_NAME = Pattern.compile("(\\[.*)?\\+?=.*", Pattern.DOTALL);
    private static final Pattern ENV_ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*", Pattern.DOTALL);
    private static final Pattern GIT_OPTION_WITH_VALUE = Pattern.compile(
            "--(git-dir|work-tree|namespace|exec-path|config-env|super-prefix)=.*", Pattern.DOTALL);
    private static final Set<String> GIT_OPTIONS_TAKING_A_WORD = Set.of("-C", "-c", "--git-dir", "--work-tree",
            "--namespace", "--config-env", "--super-prefix");
    private static final Set<String> GIT_FLAGS = Set.of("--no-pager", "-p", "--paginate", "-P", "--bare",
            "--no-replace-objects", "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs",
            "--icase-pathspecs", "--no-optional-locks", "--no-lazy-fetch", "--no-advice", "--exec-path");
    private static final Set<String> EXEMPT_FILES = Set.of("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty");

    private final Path home;
    private Path cwd;
    private final List<Invocation> invocations = new ArrayList<>();
    private final List<PathAccess> accesses = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    private BashAnalyzer(Path cwd, Path home) {
        this.cwd = cwd;
        this.home = home;
    }

    /**
     * Analyses {@code command}.
     *
     * @param cwd the directory it runs in (absolute), against which relative paths resolve
     * @param home the user's home directory, for {@code ~}
     */
    public static BashAnalysis analyze(String command, Path cwd, Path home) {
        BashAnalyzer a = new BashAnalyzer(cwd.toAbsolutePath().normalize(), home);
        a.script(command, 0);
        return new BashAnalysis(a.invocations, a.accesses, a.problems);
    }

    private void script(String source, int depth) {
        ShellScript script = ShellParser.parse(source, depth);
        problems.addAll(script.problems());
        for (SimpleCommand c : script.commands()) {
            simple(c, depth);
        }
    }

    private void simple(SimpleCommand c, int depth) {
        assignments(c.assignments());
        for (Redirect r : c.redirects()) {
            if (r.writesFile()) {
                access(PathAccess.Kind.WRITE, r.target());
            }
            if (r.readsFile()) {
                access(PathAccess.Kind.READ, r.target());
            }
        }
        if (!c.words().isEmpty()) {
            unwrap(c.words(), depth, false);
        }
    }

    private void assignments(List<Word> assignments) {
        for (Word w : assignments) {
            String name = ASSIGNED_NAME.matcher(w.value()).replaceFirst("");
            if (RISKY_VARIABLES.contains(name)) {
                problems.add("`" + w.raw() + "` changes what later commands run");
            }
        }
    }

    /** Strips wrappers from {@code w} until a program that is judged by itself remains. */
    private void unwrap(List<Word> w, int depth, boolean openEnded) {
        while (!w.isEmpty()) {
            Word prog = w.get(0);
            if (!prog.isStatic()) {
                problems.add("the program `" + prog.raw() + "` is only known at run time");
                return;
            }
            String name = programName(prog.value());
            List<Word> args = w.subList(1, w.size());
            switch (name) {
                case "eval" -> {
                    problems.add("`eval` runs a string built at run time");
                    script(values(args), depth + 1);
                    return;
                }
                case "source", "." -> {
                    problems.add("`" + name + "` runs the commands of the file " + (args.isEmpty() ? "it is given"
                            : "`" + args.get(0).raw() + "`"));
                    return;
                }
                case "exec" -> w = args.subList(Options.skip(args, "cl", "a", Set.of(), Set.of()), args.size());
                case "builtin", "nohup" -> w = args.subList(args.isEmpty() || !args.get(0).value().equals("--")
                        ? 0 : 1, args.size());
                case "env" -> {
                    List<Word> inner = env(args);
                    if (inner == null) {
                        emit(w, openEnded);
                        return;
                    }
                    w = inner;
                }
                case "timeout" -> {
                    int i = Options.skip(args, "v", "ks", Set.of("--preserve-status", "--foreground", "--verbose"),
                            Set.of("--kill-after", "--signal"));
                    w = args.subList(Math.min(i + 1, args.size()), args.size());
                }
                case "time" -> {
                    int i = Options.skip(args, "pvaq", "fo", Set.of("--portability", "--verbose", "--append",
                            "--quiet"), Set.of("--format", "--output"));
                    Word out = Options.value(args.subList(0, i), 'o', "--output");
                    if (out != null) {
                        access(PathAccess.Kind.WRITE, out);
                    }
                    w = args.subList(i, args.size());
                }
                case "nice" -> w = args.subList(Options.skip(args, "", "n", Set.of(), Set.of("--adjustment")),
                        args.size());
                case "stdbuf" -> w = args.subList(Options.skip(args, "", "ioe", Set.of(),
                        Set.of("--input", "--output", "--error")), args.size());
                case "command" -> {
                    int i = Options.skip(args, "pvV", "", Set.of(), Set.of());
                    if (args.subList(0, i).stream().anyMatch(a -> a.value().contains("v")
                            || a.value().contains("V"))) {
                        emit(w, openEnded); // command -v only looks the name up
                        return;
                    }
                    w = args.subList(i, args.size());
                }
                case "sudo", "doas" -> {
                    emit(w, openEnded);
                    w = args.subList(Options.skip(args, "AbEeHiKklnPSsV", "CDghpRrtTUu", Set.of(),
                            Set.of("--user", "--group", "--chdir", "--host", "--prompt", "--role", "--type",
                                    "--other-user", "--close-from", "--command-timeout")), args.size());
                }
                case "xargs" -> {
                    int i = Options.skip(args, "0prtxile", "EILnPsda", Set.of(), Set.of("--arg-file", "--delimiter",
                            "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars",
                            "--process-slot-var"));
                    Word file = Options.value(args.subList(0, i), 'a', "--arg-file");
                    if (file != null) {
                        access(PathAccess.Kind.READ, file);
                    }
                    w = i < args.size() ? args.subList(i, args.size()) : List.of(Word.of("echo"));
                    openEnded = true;
                }
                case "trap" -> {
                    if (!args.isEmpty() && !args.get(0).value().startsWith("-")) {
                        script(args.get(0).value(), depth + 1);
                    }
                    return;
                }
                default -> {
                    if (SHELLS.contains(name)) {
                        shell(name, args, depth);
                    } else {
                        program(name, w, depth, openEnded);
                    }
                    return;
                }
            }
        }
    }

    /** {@code env}'s arguments after options and assignments, or null when it runs nothing (prints). */
    private List<Word> env(List<Word> args) {
        int i = Options.skip(args, "i0v", "uCS", Set.of("--ignore-environment", "--null", "--debug"),
                Set.of("--unset", "--chdir", "--split-string"));
        if (Options.value(args.subList(0, i), 'S', "--split-string") != null) {
            problems.add("`env -S` splits a string into a command at run time");
        }
        List<Word> assignments = new ArrayList<>();
        while (i < args.size() && ENV_ASSIGNMENT.matcher(args.get(i).value()).matches()) {
            assignments.add(args.get(i++));
        }
        assignments(assignments);
        return i < args.size() ? args.subList(i, args.size()) : null;
    }

    /** {@code bash -c BODY}: the body is parsed; a script file or standard input cannot be judged. */
    private void shell(String name, List<Word> args, int depth) {
        boolean c = false;
        int i = 0;
        while (i < args.size()) {
            String v = args.get(i).value();
            if (v.equals("--") || v.equals("-")) {
                i++;
                break;
            }
            if (Set.of("-o", "+o", "-O", "+O", "--rcfile", "--init-file").contains(v)) {
                i += 2;
            } else if (v.startsWith("--")) {
                i++;
            } else if ((v.startsWith("-") || v.startsWith("+")) && v.length() > 1) {
                c |= v.indexOf('c') > 0;
                i++;
            } else {
                break;
            }
        }
        if (c && i < args.size()) {
            Word body = args.get(i);
            if (body.expands()) {
                problems.add("the command `" + name + " -c` runs is only known at run time");
            }
            script(body.value(), depth + 1);
        } else if (c) {
            problems.add("`" + name + " -c` without a command");
        } else if (i < args.size()) {
            problems.add("`" + name + "` runs the commands of the file `" + args.get(i).raw() + "`");
        } else {
            problems.add("`" + name + "` runs commands read from its standard input");
        }
    }

    /** A program judged by itself; git, find, cd and tee get their special handling first. */
    private void program(String name, List<Word> w, int depth, boolean openEnded) {
        List<Word> words = new ArrayList<>(w);
        words.set(0, Word.of(name));
        switch (name) {
            case "git" -> words = git(words);
            case "find" -> find(words, depth);
            case "cd", "pushd" -> cd(words);
            case "tee" -> {
                int i = Options.skip(words.subList(1, words.size()), "aip", "", Set.of("--append",
                        "--ignore-interrupts"), Set.of());
                for (Word f : words.subList(1 + i, words.size())) {
                    access(PathAccess.Kind.WRITE, f);
                }
            }
            default -> operandFiles(name, words);
        }
        emit(words, openEnded);
    }

    /**
     * Files named as operands of known readers, writers and copiers: checked against deny and ask rules
     * only (see {@link PathAccess#argument()}). Options and words that expand are skipped.
     */
    private void operandFiles(String name, List<Word> words) {
        boolean reader = READERS.contains(name);
        boolean copier = COPIERS.contains(name);
        if (!reader && !copier && !WRITERS.contains(name)) {
            return;
        }
        List<Word> operands = new ArrayList<>();
        boolean endOfOptions = false;
        for (Word w : words.subList(1, words.size())) {
            if (!endOfOptions && w.value().equals("--")) {
                endOfOptions = true;
            } else if (endOfOptions || !w.value().startsWith("-")) {
                operands.add(w);
            }
        }
        for (int i = 0; i < operands.size(); i++) {
            Word w = operands.get(i);
            boolean writes = !reader && (!copier || i == operands.size() - 1 && operands.size() > 1);
            if (w.isStatic() && !EXEMPT_FILES.contains(w.value())) {
                Path p = resolve(w.value());
                if (p != null) {
                    accesses.add(new PathAccess(writes ? PathAccess.Kind.WRITE : PathAccess.Kind.READ, p, w.value(),
                            true));
                }
            }
        }
    }

    private void emit(List<Word> words, boolean openEnded) {
        List<String> values = new ArrayList<>(words.size());
        Set<Integer> dynamic = new java.util.HashSet<>();
        for (Word x : words) {
            if (x.expands() || !x.isStatic() && !x.value().isEmpty() && "*?[{".indexOf(x.value().charAt(0)) >= 0) {
                dynamic.add(values.size()); // could become anything, an option included
            }
            values.add(x.value());
        }
        values.set(0, programName(values.get(0)));
        invocations.add(new Invocation(values, openEnded, dynamic));
    }

    /** Drops git's global options so the subcommand follows {@code git}. */
    private List<Word> git(List<Word> words) {
        int i = 1;
        while (i < words.size()) {
            String v = words.get(i).value();
            if (GIT_OPTIONS_TAKING_A_WORD.contains(v)) {
                if (i + 1 < words.size()) {
                    gitOption(v, words.get(i + 1).value());
                }
                i += 2;
            } else if (v.startsWith("--") && GIT_OPTION_WITH_VALUE.matcher(v).matches()) {
                gitOption(v.substring(0, v.indexOf('=')), v.substring(v.indexOf('=') + 1));
                i++;
            } else if (GIT_FLAGS.contains(v)) {
                i++;
            } else {
                break;
            }
        }
        List<Word> out = new ArrayList<>();
        out.add(words.get(0));
        out.addAll(words.subList(i, words.size()));
        return out;
    }

    private void gitOption(String option, String value) {
        if (option.equals("-c")) {
            String key = value.replaceFirst("=.*", "").toLowerCase(Locale.ROOT);
            if (key.startsWith("alias.") || key.startsWith("filter.") || key.startsWith("credential.")
                    || key.matches(".*(command|pager|editor|fsmonitor|hookspath|proxy|askpass|program|hook|helper"
                            + "|exec).*")) {
                problems.add("`git -c " + value + "` can make git run another program");
            }
        } else if (option.equals("--config-env") || option.equals("--exec-path")) {
            problems.add("`git " + option + "` can make git run another program");
        }
    }

    /** {@code find ... -exec cmd ... ;}: the command is judged too; {@code -fprint FILE} writes. */
    private void find(List<Word> words, int depth) {
        for (int i = 1; i < words.size(); i++) {
            String v = words.get(i).value();
            if (Set.of("-exec", "-execdir", "-ok", "-okdir").contains(v)) {
                int j = i + 1;
                while (j < words.size() && !words.get(j).value().equals(";")
                        && !(words.get(j).value().equals("+") && words.get(j - 1).value().equals("{}"))) {
                    j++;
                }
                if (j >= words.size()) {
                    problems.add("`find " + v + "` without its terminating `;` or `+`");
                }
                if (j > i + 1) {
                    unwrap(words.subList(i + 1, j), depth, false);
                }
                i = j;
            } else if (Set.of("-fprint", "-fprint0", "-fls", "-fprintf").contains(v) && i + 1 < words.size()) {
                access(PathAccess.Kind.WRITE, words.get(i + 1));
            }
        }
    }

    private void cd(List<Word> words) {
        List<Word> args = words.subList(1, words.size());
        int i = Options.skip(args, "LPe@", "", Set.of(), Set.of());
        if (i >= args.size()) {
            cwd = home;
        } else if (!args.get(i).isStatic() || args.get(i).value().equals("-")) {
            cwd = null;
        } else {
            Path p = resolve(args.get(i).value());
            cwd = p; // null when relative to an unknown directory
        }
    }

    private void access(PathAccess.Kind kind, Word target) {
        String verb = kind == PathAccess.Kind.WRITE ? "writes to" : "reads";
        if (!target.isStatic()) {
            problems.add("it " + verb + " `" + target.raw() + "`, a file named only at run time");
            return;
        }
        String v = target.value();
        if (EXEMPT_FILES.contains(v) || v.startsWith("/dev/fd/")) {
            return;
        }
        Path p = resolve(v);
        if (p == null) {
            problems.add("it " + verb + " `" + v + "` in a directory known only at run time");
        } else {
            accesses.add(new PathAccess(kind, p, v, false));
        }
    }

    /** {@code v} as an absolute path, expanding {@code ~}; null when it is relative to an unknown cwd. */
    private Path resolve(String v) {
        if (v.equals("~")) {
            return home;
        }
        if (v.startsWith("~/")) {
            return home.resolve(v.substring(2)).normalize();
        }
        if (v.startsWith("/")) {
            return Path.of(v).normalize();
        }
        if (v.startsWith("~")) {
            return null; // ~user: another user's home
        }
        return cwd == null ? null : cwd.resolve(v).normalize();
    }

    /** The program's name: the last part of an absolute path ({@code /usr/bin/git} → {@code git}). */
    static String programName(String value) {
        if (value.startsWith("/") && value.length() > 1 && !value.endsWith("/")) {
            return value.substring(value.lastIndexOf('/') + 1);
        }
        return value;
    }

    private static String values(List<Word> words) {
        return words.stream().map(Word::value).collect(Collectors.joining(" "));
    }
}
