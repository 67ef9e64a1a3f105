package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Text tools whose first operand is a pattern or a program, not a file: {@code grep}, {@code rg}, {@code jq},
 * {@code sed} and {@code awk}. The files they read are the other operands (whole trees for {@code grep -r} and
 * {@code rg}, which searches recursively, the current directory when none is named). sed's and awk's programs
 * are read too ({@link SedScript}, {@link AwkProgram}): their commands that write files, read files or run
 * commands are problems or file accesses, and a program read from a file is a problem ({@code --sandbox} lifts
 * that: it turns those commands off).
 */
final class TextPrograms {
    private static final Set<String> GREP_VALUES = Set.of(
            "--regexp",
            "--file",
            "--context",
            "--after-context",
            "--before-context",
            "--max-count",
            "--include",
            "--exclude",
            "--exclude-from",
            "--exclude-dir",
            "--label",
            "--devices",
            "--directories",
            "--binary-files",
            "--group-separator");
    private static final Set<String> RG_VALUES = Set.of(
            "--regexp",
            "--file",
            "--glob",
            "--iglob",
            "--type",
            "--type-not",
            "--type-add",
            "--type-clear",
            "--replace",
            "--max-count",
            "--max-depth",
            "--max-columns",
            "--encoding",
            "--threads",
            "--context",
            "--after-context",
            "--before-context",
            "--pre",
            "--pre-glob",
            "--ignore-file",
            "--path-separator",
            "--sort",
            "--sortr",
            "--colors",
            "--color",
            "--context-separator",
            "--field-match-separator",
            "--field-context-separator",
            "--hostname-bin",
            "--hyperlink-format",
            "--max-filesize",
            "--dfa-size-limit",
            "--regex-size-limit",
            "--engine",
            "--generate");
    private static final Set<String> SED_VALUES = Set.of("--expression", "--file", "--line-length");
    private static final Set<String> AWK_VALUES =
            Set.of("--field-separator", "--assign", "--file", "--source", "--include", "--load", "--exec");
    private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=.*");
    /** The programs modelled here. */
    static final Set<String> NAMES = Set.of("grep", "egrep", "fgrep", "rg", "jq", "sed", "awk", "gawk", "mawk", "nawk");

    private TextPrograms() {}

    static boolean models(String program) {
        return NAMES.contains(program);
    }

    static void check(String program, List<Word> args, ArgumentEffects fx) {
        switch (program) {
            case "grep", "egrep", "fgrep" -> grep(args, fx);
            case "rg" -> rg(args, fx);
            case "jq" -> jq(args, fx);
            case "sed" -> sed(args, fx);
            default -> awk(program, args, fx);
        }
    }

    private static void grep(List<Word> args, ArgumentEffects fx) {
        Argv a = Argv.parse(args, "efABCmdD", GREP_VALUES);
        a.values("-f", "--file", "--exclude-from").forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
        boolean recursive = a.has("-r", "-R", "--recursive", "--dereference-recursive")
                || a.values("-d", "--directories").stream()
                        .anyMatch(w -> w.value().equals("recurse"));
        searched(a, !a.has("-e", "--regexp", "-f", "--file"), recursive, false, fx);
    }

    private static void rg(List<Word> args, ArgumentEffects fx) {
        Argv a = Argv.parse(args, "ABCEefgjMmrtTd", RG_VALUES);
        a.values("-f", "--file", "--ignore-file").forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
        boolean pattern = !a.has("-e", "--regexp", "-f", "--file", "--files", "--type-list");
        searched(a, pattern, true, true, fx);
    }

    /** The operands after the pattern (when the first is one), read as files or trees; none: the directory. */
    private static void searched(Argv a, boolean pattern, boolean recursive, boolean defaultHere, ArgumentEffects fx) {
        List<Word> ops = a.operands();
        List<Word> files = pattern && !ops.isEmpty() ? ops.subList(1, ops.size()) : ops;
        Scope scope = recursive ? Scope.TREE : Scope.FILE;
        files.forEach(w -> fx.path(Kind.READ, scope, w));
        if (files.isEmpty() && recursive && (defaultHere || !ops.isEmpty() || !pattern)) {
            fx.path(Kind.READ, Scope.TREE, Word.of("."));
        }
    }

    private static void jq(List<Word> args, ArgumentEffects fx) {
        boolean filter = true;
        boolean files = true;
        for (int i = 0; i < args.size(); i++) {
            Word w = args.get(i);
            String v = w.value();
            if (!files) {
                break; // --args / --jsonargs: the rest are values, not files
            }
            switch (v) {
                case "-f", "--from-file" -> {
                    if (i + 1 < args.size()) {
                        fx.path(Kind.READ, Scope.FILE, args.get(++i));
                    }
                    filter = false;
                }
                case "--arg", "--argjson" -> i += 2;
                case "--slurpfile", "--rawfile" -> {
                    if (i + 2 < args.size()) {
                        fx.path(Kind.READ, Scope.FILE, args.get(i + 2));
                    }
                    i += 2;
                }
                case "-L", "--indent" -> i++;
                case "--args", "--jsonargs" -> files = false;
                default -> {
                    if (w.isStatic() && v.startsWith("-") && v.length() > 1) {
                        continue;
                    }
                    if (filter) {
                        filter = false;
                    } else {
                        fx.path(Kind.READ, Scope.FILE, w);
                    }
                }
            }
        }
    }

    private static void sed(List<Word> args, ArgumentEffects fx) {
        Argv a = Argv.parse(args, "efl", SED_VALUES);
        boolean inPlace = a.options().stream()
                .anyMatch(o -> o.name().equals("-i") || o.name().equals("--in-place"));
        boolean sandbox = a.has("--sandbox");
        List<Word> scripts = new ArrayList<>(a.values("-e", "--expression"));
        List<Word> programFiles = a.values("-f", "--file");
        List<Word> ops = a.operands();
        if (scripts.isEmpty() && programFiles.isEmpty() && !ops.isEmpty()) {
            scripts.add(ops.get(0));
            ops = ops.subList(1, ops.size());
        }
        for (Word f : programFiles) {
            fx.path(Kind.READ, Scope.FILE, f);
            if (!sandbox) {
                fx.problem("`sed -f " + Snippet.of(f.raw()) + "` runs a script from a file, whose commands may write"
                        + " files or run commands (w, e)");
            }
        }
        for (Word s : scripts) {
            if (!s.isStatic()) {
                fx.problem("`sed " + Snippet.of(s.raw()) + "`: a script only known at run time may write files or run"
                        + " commands (w, e)");
            } else if (!sandbox) {
                SedScript.check(s.value(), fx);
            }
        }
        for (Word f : ops) {
            fx.path(Kind.READ, Scope.FILE, f);
            if (inPlace) {
                fx.path(Kind.WRITE, Scope.FILE, f);
            }
        }
        if (inPlace && ops.isEmpty()) {
            fx.problem("`sed -i` without a file");
        }
    }

    private static void awk(String program, List<Word> args, ArgumentEffects fx) {
        Argv a = Argv.parse(args, "Ffveilo", AWK_VALUES);
        boolean sandbox = a.has("-S", "--sandbox");
        List<Word> sources = a.values("-e", "--source");
        List<Word> programFiles = a.values("-f", "--file", "-E", "--exec", "-i", "--include");
        for (Word lib : a.values("-l", "--load")) {
            fx.problem("`" + program + " -l " + Snippet.of(lib.raw()) + "` loads a shared library");
        }
        for (Word f : programFiles) {
            fx.path(Kind.READ, Scope.FILE, f);
            if (!sandbox) {
                fx.problem("`" + program + " -f " + Snippet.of(f.raw()) + "` runs a program from a file, which may run"
                        + " commands or write files (system, |, >)");
            }
        }
        for (Word f : a.values("-o", "--pretty-print", "-p", "--profile", "-d", "--dump-variables")) {
            fx.path(Kind.WRITE, Scope.FILE, f);
        }
        List<Word> ops = a.operands();
        List<Word> texts = new ArrayList<>(sources);
        if (sources.isEmpty() && programFiles.isEmpty() && !ops.isEmpty()) {
            texts.add(ops.get(0));
            ops = ops.subList(1, ops.size());
        }
        for (Word t : texts) {
            if (!t.isStatic()) {
                fx.problem("`" + program + " " + Snippet.of(t.raw()) + "`: a program only known at run time may run"
                        + " commands or write files");
            } else if (!sandbox) {
                AwkProgram.check(program, t.value(), fx);
            }
        }
        for (Word f : ops) {
            if (!(f.isStatic() && ASSIGNMENT.matcher(f.value()).matches())) {
                fx.path(Kind.READ, Scope.FILE, f); // var=value operands are assignments, not files
            }
        }
    }
}
