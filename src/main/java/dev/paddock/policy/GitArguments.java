package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a git command line loads and which files it reads or writes, beyond what its rule matches.
 *
 * <p>Global options before the subcommand are read as git reads them; those in {@link LoadingOptions} (a
 * directory, a repository, a configuration value other than a few display settings) are problems, and so are
 * the subcommand's own risky options ({@code grep -O}, {@code rebase -x}, {@code fetch --upload-pack}...).
 * The subcommand and what follows it are what rules match ({@code git -C x push} is {@code git push}).
 *
 * <p>Files: {@code git show HEAD:f}, {@code git cat-file -p :f} and the other readers ({@code diff}, {@code log},
 * {@code grep}, {@code blame}...) read the paths they name, in a revision or after {@code --}, and
 * {@code add}/{@code hash-object} read the files they store; {@code --no-index} and {@code grep --untracked}
 * read whole directories; {@code --output=f} (log, show, diff...), {@code format-patch -o},
 * {@code archive -o} write; {@code commit -F/-t} read; {@code config} with a value writes the configuration file
 * ({@code .git/config}, {@code ~/.gitconfig} with {@code --global}, the {@code --file}); {@code checkout} and
 * {@code restore} write the paths after {@code --}; {@code init} writes a {@code .git}. What a whole-tree
 * command shows ({@code git diff}, {@code git log -p}) is not modelled: a deny rule on a tracked file does not
 * keep its committed content out of those.
 */
final class GitArguments {
    /** The value part of a {@code -c name=value} setting. */
    private static final Pattern CONFIG_VALUE = Pattern.compile("=.*");
    /**
     * A git command line read up to its subcommand.
     *
     * @param words git, the subcommand and the words after it: what rules match
     * @param directories the values of {@code -C}, in order (git works in the last, relative to the ones before)
     * @param subcommand the subcommand, or null when there is none
     */
    record Parsed(List<Word> words, List<Word> directories, String subcommand, List<Word> args) {}

    private static final Set<String> FLAGS = Set.of(
            "--no-pager",
            "-P",
            "-p",
            "--paginate",
            "--bare",
            "--no-replace-objects",
            "--no-lazy-fetch",
            "--literal-pathspecs",
            "--glob-pathspecs",
            "--noglob-pathspecs",
            "--icase-pathspecs",
            "--no-optional-locks",
            "--no-advice",
            "--exec-path",
            "--html-path",
            "--man-path",
            "--info-path",
            "-v",
            "--version",
            "-h",
            "--help");
    private static final Set<String> WITH_VALUE = Set.of(
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--super-prefix",
            "--config-env",
            "--attr-source",
            "--list-cmds");
    private static final Set<String> READERS = Set.of(
            "show",
            "cat-file",
            "diff",
            "log",
            "grep",
            "blame",
            "annotate",
            "archive",
            "difftool",
            "whatchanged",
            "diff-tree",
            "range-diff",
            "add",
            "hash-object",
            "shortlog");
    private static final Set<String> OUTPUT = Set.of(
            "log",
            "show",
            "diff",
            "whatchanged",
            "diff-tree",
            "range-diff",
            "diff-index",
            "diff-files",
            "format-patch");
    private static final Set<String> CONFIG_READS = Set.of(
            "--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--get-color", "--get-colorbool");

    private GitArguments() {}

    /** Reads {@code words} (git first) up to the subcommand, reporting risky options to {@code fx}. */
    static Parsed parse(List<Word> words, ArgumentEffects fx) {
        List<Word> dirs = new ArrayList<>();
        int i = 1;
        while (i < words.size()) {
            Word w = words.get(i);
            String v = w.value();
            Word next = i + 1 < words.size() ? words.get(i + 1) : null;
            if (!w.isStatic()) {
                fx.problem("`git " + Snippet.of(w.raw()) + "`: a word only known at run time before the subcommand"
                        + " could be any of git's options");
                break;
            }
            int eq = v.indexOf('=');
            String name = v.startsWith("--") && eq > 0 ? v.substring(0, eq) : v;
            boolean separate = WITH_VALUE.contains(v);
            if (!separate
                    && !(v.startsWith("--") && eq > 0 && WITH_VALUE.contains(name))
                    && !FLAGS.contains(v)
                    && !(name.equals("--exec-path") && eq > 0)) {
                break; // the subcommand (or an option git rejects)
            }
            Word value = separate ? next : eq > 0 ? LoadingCheck.part(w, v.substring(eq + 1)) : null;
            if (name.equals("-C") && value != null) {
                dirs.add(value);
            }
            LoadingCheck.Found f = LoadingCheck.matchOne("git", w, next);
            if (f != null && !harmless(name, value)) {
                fx.problem("`git " + Snippet.of(w.raw() + (separate && next != null ? " " + next.raw() : "")) + "`: "
                        + f.option().reason());
            }
            i += separate ? 2 : 1;
        }
        List<Word> out = new ArrayList<>();
        out.add(words.get(0));
        List<Word> rest = words.subList(Math.min(i, words.size()), words.size());
        out.addAll(rest);
        String sub =
                rest.isEmpty() || !rest.get(0).isStatic() ? null : rest.get(0).value();
        List<Word> args = rest.isEmpty() ? List.of() : rest.subList(1, rest.size());
        if (sub != null && LoadingCheck.hasEntries("git " + sub)) {
            LoadingCheck.Findings found = LoadingCheck.scan("git " + sub, args, 0, args.size());
            for (LoadingCheck.Found f : found.found()) {
                fx.problem("`git " + sub + " " + Snippet.of(f.word().raw()) + "`: "
                        + f.option().reason());
            }
            for (Word u : found.unknown()) {
                fx.problem("`git " + sub + " " + Snippet.of(u.raw()) + "`: a word only known at run time could be"
                        + " one of the options that make `git " + sub + "` run a program");
            }
        }
        return new Parsed(out, dirs, sub, args);
    }

    /** Whether the value of global option {@code name} is known harmless (display settings for {@code -c}). */
    private static boolean harmless(String name, Word value) {
        if (!name.equals("-c") || value == null || !value.isStatic()) {
            return name.equals("--exec-path") && value == null;
        }
        String key = CONFIG_VALUE.matcher(value.value()).replaceFirst("").toLowerCase(Locale.ROOT);
        return key.equals("user.name")
                || key.equals("user.email")
                || key.equals("core.quotepath")
                || key.startsWith("color.")
                || key.startsWith("advice.");
    }

    /** Reports the files the subcommand reads and writes (see the class description). */
    static void paths(Parsed p, ArgumentEffects fx) {
        String sub = p.subcommand();
        if (sub == null) {
            return;
        }
        List<Word> args = p.args();
        boolean noIndex = has(args, "--no-index") || sub.equals("grep") && has(args, "--untracked");
        if (OUTPUT.contains(sub)) {
            output(args, fx, sub.equals("format-patch"));
        }
        switch (sub) {
            case "config" -> config(args, fx);
            case "commit", "tag", "merge", "notes" -> {
                valueOf(args, fx, Kind.READ, "-F", "--file");
                valueOf(args, fx, Kind.READ, "-t", "--template");
            }
            case "archive" -> valueOf(args, fx, Kind.WRITE, "-o", "--output");
            case "bundle" -> {
                if (args.size() > 1 && args.get(0).value().equals("create")) {
                    fx.path(Kind.WRITE, Scope.FILE, firstOperand(args.subList(1, args.size())));
                }
            }
            case "checkout" -> afterDoubleDash(args, fx, Kind.WRITE);
            case "restore" -> restore(args, fx);
            case "apply", "am" -> {
                if (sub.equals("am") || !reportsOnly(args)) {
                    fx.problem("`git " + sub + "` writes the files its patches name, which only the patches say");
                }
            }
            case "init" -> {
                Word dir = firstOperand(args);
                fx.path(Kind.WRITE, Scope.FILE, Word.of(dir == null ? ".git" : dir.value() + "/.git"));
            }
            default -> {}
        }
        if (!READERS.contains(sub)) {
            return;
        }
        boolean pattern = sub.equals("grep")
                && !has(args, "-e")
                && !has(args, "-f")
                && !has(args, "--regexp")
                && !has(args, "--file");
        boolean paths = false;
        boolean any = false;
        for (int i = 0; i < args.size(); i++) {
            Word w = args.get(i);
            String v = w.value();
            if (!paths && v.equals("--")) {
                paths = true;
                continue;
            }
            if (!paths && v.startsWith("-")) {
                if (sub.equals("grep") && (v.equals("-f") || v.equals("--file")) && i + 1 < args.size()) {
                    fx.path(Kind.READ, Scope.FILE, args.get(++i));
                }
                continue;
            }
            if (pattern) {
                pattern = false;
                continue;
            }
            any = true;
            fx.path(Kind.READ, noIndex ? Scope.TREE : Scope.FILE, paths ? w : revisionPath(w));
        }
        if (noIndex && !any && sub.equals("grep")) {
            fx.path(Kind.READ, Scope.TREE, Word.of("."));
        }
    }

    /** {@code HEAD:f}, {@code :f}, {@code :0:f} name the file {@code f}; any other word is taken as a path. */
    private static Word revisionPath(Word w) {
        String v = w.value();
        int colon = v.indexOf(':');
        if (colon < 0 || v.contains("://") || !w.isStatic()) {
            return w;
        }
        String path = v.substring(colon + 1);
        if (colon == 0 && path.length() > 2 && Character.isDigit(path.charAt(0)) && path.charAt(1) == ':') {
            path = path.substring(2);
        }
        return path.isEmpty() ? Word.of(".") : Word.of(path);
    }

    /** {@code --output=f} (any unambiguous prefix: git accepts {@code --outp=f}); format-patch's {@code -o dir}. */
    private static void output(List<Word> args, ArgumentEffects fx, boolean formatPatch) {
        for (int i = 0; i < args.size(); i++) {
            Word w = args.get(i);
            String v = w.value();
            if (v.equals("--")) {
                return;
            }
            int eq = v.indexOf('=');
            String name = eq > 0 ? v.substring(0, eq) : v;
            boolean file = name.startsWith("--") && name.length() >= 4 && "--output".startsWith(name);
            boolean dir = formatPatch
                    && (name.equals("-o")
                            || name.startsWith("--") && name.length() >= 9 && "--output-directory".startsWith(name));
            Word value = null;
            if (formatPatch && v.startsWith("-o") && v.length() > 2 && !v.startsWith("--")) {
                dir = true;
                value = LoadingCheck.part(w, v.substring(2));
            } else if (file || dir) {
                value = eq > 0 ? LoadingCheck.part(w, v.substring(eq + 1)) : i + 1 < args.size() ? args.get(++i) : null;
            }
            if (value != null) {
                fx.path(Kind.WRITE, dir ? Scope.TREE : Scope.FILE, value);
            }
        }
    }

    private static void config(List<Word> args, ArgumentEffects fx) {
        if (args.stream().anyMatch(w -> CONFIG_READS.contains(w.value()))) {
            return;
        }
        Word file = null;
        String scope = "local";
        int operands = 0;
        boolean writes = false;
        for (int i = 0; i < args.size(); i++) {
            String v = args.get(i).value();
            switch (v) {
                case "--global", "--system", "--worktree", "--local" -> scope = v.substring(2);
                case "-f", "--file" -> file = i + 1 < args.size() ? args.get(++i) : null;
                case "--unset",
                        "--unset-all",
                        "--add",
                        "--replace-all",
                        "--rename-section",
                        "--remove-section",
                        "-e",
                        "--edit" -> writes = true;
                default -> {
                    if (v.startsWith("--file=")) {
                        file = LoadingCheck.part(args.get(i), v.substring(7));
                    } else if (!v.startsWith("-")) {
                        operands++;
                    }
                }
            }
        }
        if (!writes && operands < 2) {
            return; // a read: git config key
        }
        Word target = file != null
                ? file
                : Word.of(
                        switch (scope) {
                            case "global" -> "~/.gitconfig";
                            case "system" -> "/etc/gitconfig";
                            case "worktree" -> ".git/config.worktree";
                            default -> ".git/config";
                        });
        fx.path(Kind.WRITE, Scope.FILE, target);
    }

    private static void valueOf(List<Word> args, ArgumentEffects fx, Kind kind, String shortName, String longName) {
        for (int i = 0; i < args.size(); i++) {
            String v = args.get(i).value();
            if (v.equals("--")) {
                return;
            }
            if ((v.equals(shortName) || v.equals(longName)) && i + 1 < args.size()) {
                fx.path(kind, Scope.FILE, args.get(++i));
            } else if (v.startsWith(longName + "=")) {
                fx.path(kind, Scope.FILE, LoadingCheck.part(args.get(i), v.substring(longName.length() + 1)));
            } else if (v.startsWith(shortName) && v.length() > shortName.length() && !v.startsWith("--")) {
                fx.path(kind, Scope.FILE, LoadingCheck.part(args.get(i), v.substring(shortName.length())));
            }
        }
    }

    private static void afterDoubleDash(List<Word> args, ArgumentEffects fx, Kind kind) {
        boolean after = false;
        for (Word w : args) {
            if (after) {
                pathspec(w, fx, kind);
            } else if (w.value().equals("--")) {
                after = true;
            }
        }
    }

    /** {@code git restore}: every operand is a pathspec ({@code -s}/{@code --source} take a value). */
    private static void restore(List<Word> args, ArgumentEffects fx) {
        boolean after = false;
        for (int i = 0; i < args.size(); i++) {
            String v = args.get(i).value();
            if (!after && v.equals("--")) {
                after = true;
            } else if (!after && (v.equals("-s") || v.equals("--source") || v.equals("--pathspec-from-file"))) {
                if (v.equals("--pathspec-from-file")) {
                    fx.problem("`git restore --pathspec-from-file` names its paths in a file");
                }
                i++;
            } else if (!after && v.startsWith("--pathspec-from-file=")) {
                fx.problem("`git restore --pathspec-from-file` names its paths in a file");
            } else if (after || !v.startsWith("-")) {
                pathspec(args.get(i), fx, Kind.WRITE);
            }
        }
    }

    /**
     * One pathspec git matches against the repository's files: a plain path is that file; one with a wildcard
     * ({@code *} matches across {@code /} and a leading dot: {@code '*.json'} names {@code .claude/settings.json})
     * or magic ({@code :/}, {@code :(glob)}) could name any file, which cannot be judged here.
     */
    private static void pathspec(Word w, ArgumentEffects fx, Kind kind) {
        String v = w.value();
        if (v.startsWith(":") || v.indexOf('*') >= 0 || v.indexOf('?') >= 0 || v.indexOf('[') >= 0) {
            fx.problem("pathspec `" + v + "` may match any file of the repository, its configuration folders too");
        } else {
            fx.path(kind, Scope.FILE, w);
        }
    }

    /** Whether {@code git apply} only reports on its patches ({@code --check}, {@code --stat}...). */
    private static boolean reportsOnly(List<Word> args) {
        for (Word w : args) {
            String v = w.value();
            if (v.equals("--check") || v.equals("--stat") || v.equals("--numstat") || v.equals("--summary")) {
                return !has(args, "--apply");
            }
        }
        return false;
    }

    private static Word firstOperand(List<Word> args) {
        for (Word w : args) {
            if (!w.value().startsWith("-")) {
                return w;
            }
        }
        return null;
    }

    private static boolean has(List<Word> args, String option) {
        for (Word w : args) {
            if (w.value().equals("--")) {
                return false;
            }
            if (w.value().equals(option)) {
                return true;
            }
        }
        return false;
    }
}
