package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Expansions;
import dev.paddock.policy.shell.Redirect;
import dev.paddock.policy.shell.ShellParser;
import dev.paddock.policy.shell.ShellScript;
import dev.paddock.policy.shell.SimpleCommand;
import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Turns a Bash command line into what it would run ({@link Invocation}s), the files it would read or write
 * ({@link PathAccess}es) and what cannot be known without running it (problems, each keeping the command from
 * being allowed automatically). Why it parses instead of matching text:
 * docs/decisions/0006-parse-shell-instead-of-matching.md.
 *
 * <p>Programs that run a command given in their arguments are looked through and the command inside judged
 * ({@link Runners}: {@code env}, {@code xargs} and GNU {@code parallel} (open-ended), {@code watch}, {@code busybox},
 * {@code find -exec}, and the wrappers of {@link WrapperTable}: {@code timeout}, {@code nice}, {@code flock},
 * {@code taskset}, {@code chrt}, {@code prlimit}, {@code setpriv}, {@code unshare}, {@code script -c},
 * {@code sudo}, {@code chroot}, {@code strace}, {@code gdb --args}...); a word only known at run time among a
 * wrapper's options is a problem (it could change the command). Any other program that may run its arguments is
 * kept as a carrier ({@link BashAnalysis#carriers()}) for the engine's suffix rule. The bodies of {@code sh -c},
 * {@code eval}, {@code trap}, {@code watch} and {@code mapfile -C} are parsed recursively. An
 * absolute program path is reduced to its name, and is a problem outside the system's program directories
 * ({@code /tmp/x/git} need not be git). git, the shells, npm, node, make, tar and others are checked against
 * {@link LoadingOptions}; environment assignments against its environment rule ({@link Assignments}); builtins
 * that evaluate names or arithmetic by {@link EvaluatingBuiltins}. Files: redirections (judged by every rule
 * list), and the operands modelled by {@link PathArguments} and {@link GitArguments} (judged by deny and ask
 * rules, see {@link PathAccess#argument()}). {@code cd} adds to the possible directories ({@link Directories});
 * git run anywhere but the project root is a problem (it would load a repository placed there). A write inside
 * any {@code .git} directory is a problem. Everything {@link ShellParser} reports is a problem too.
 */
public final class BashAnalyzer {
    private static final Set<String> TEE_FLAGS = Set.of("--append", "--ignore-interrupts");
    private static final Set<String> FIND_EXEC = Set.of("-exec", "-execdir", "-ok", "-okdir");
    private static final Set<String> FIND_PRINT = Set.of("-fprint", "-fprint0", "-fls", "-fprintf");
    private static final Pattern FIND_EXPRESSION = Pattern.compile("[-(!)].*|,");
    static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash");
    /** Directories whose programs are the system's: an absolute path elsewhere may be any program. */
    private static final Set<Path> SYSTEM_DIRS = Set.of(
            Path.of("/bin"),
            Path.of("/sbin"),
            Path.of("/usr/bin"),
            Path.of("/usr/sbin"),
            Path.of("/usr/local/bin"),
            Path.of("/usr/local/sbin"),
            Path.of("/opt/homebrew/bin"),
            Path.of("/opt/homebrew/sbin"),
            Path.of("/usr/lib/git-core"),
            Path.of("/usr/libexec/git-core"),
            Path.of("/snap/bin"),
            Path.of("/run/current-system/sw/bin"));
    /** Quoted strings kept for {@link #latentCode()}; more are not judged as code (the command is asked anyway). */
    private static final int MAX_LATENT = 1000;

    /** Programs that never run their arguments as a command (beside those whose arguments are modelled). */
    private static final Set<String> RUNS_NO_ARGUMENTS =
            Set.of("git", "find", "cd", "pushd", "popd", "tee", "trap", "eval", "source", ".");
    /** Programs never kept as carriers (see {@link #carrier}), for one lookup instead of five. */
    private static final Set<String> NOT_CARRIERS = notCarriers();
    /** The characters of text that may be shell code: blanks, operators, quotes or expansions. */
    private static final String CODE = " \t\n\u000B\f\r;|&<>()`$'\"";
    /** Most carriers and embedded commands kept; past that the command is asked. */
    private static final int MAX_CARRIERS = 2000;

    private final Path start;
    private final Path home;
    private final Path root;
    private final List<Invocation> carriers = new ArrayList<>();
    private final List<Invocation> embedded = new ArrayList<>();
    private final List<Invocation> invocations = new ArrayList<>();
    private final List<PathAccess> accesses = new ArrayList<>();
    private final List<PathAccess> arguments = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    final FileAccesses files;
    private final Reshapes reshapes = new Reshapes();
    /** Quoted text that holds {@code $(}, backticks or <code>${</code>: code if bash expands it later. */
    private final List<String> latent = new ArrayList<>();

    private final Runners runners = new Runners(this);
    final ArgumentEffects fx = new ArgumentEffects() {
        @Override
        public void problem(String problem) {
            problems.add(problem);
        }

        @Override
        public void path(Kind kind, Scope scope, Word path) {
            files.argument(kind, scope, path);
        }
    };

    private BashAnalyzer(Path cwd, Path home, Path root) {
        this.start = cwd;
        this.home = home;
        this.root = root;
        this.files = new FileAccesses(cwd, home, accesses, arguments, problems, reshapes);
    }

    /** {@link #analyze(String, Path, Path, Path)} with the working directory as the project root. */
    public static BashAnalysis analyze(String command, Path cwd, Path home) {
        return analyze(command, cwd, home, null);
    }

    /**
     * Analyses {@code command}.
     *
     * @param cwd the directory it runs in (absolute), against which relative paths resolve
     * @param home the user's home directory, for {@code ~}
     * @param projectRoot the repository's root (the only place git may run without asking); null: {@code cwd}
     */
    public static BashAnalysis analyze(String command, Path cwd, Path home, Path projectRoot) {
        Path start = cwd.toAbsolutePath().normalize();
        BashAnalyzer a = new BashAnalyzer(start, home, projectRoot == null ? start : projectRoot.normalize());
        a.script(command, 0);
        a.latentCode();
        a.files.gitDirectoryWrites();
        String reshaped = a.reshapes.problem();
        if (reshaped != null) {
            a.problems.add(reshaped);
        }
        if (a.carriers.size() + a.embedded.size() > MAX_CARRIERS) {
            a.problems.add("more than " + MAX_CARRIERS + " commands whose arguments may hold a command to judge");
        }
        return new BashAnalysis(a.invocations, a.accesses, a.problems, a.arguments, a.carriers, a.embedded);
    }

    void script(String source, int depth) {
        ShellScript script = ShellParser.parse(source, depth);
        problems.addAll(script.problems());
        for (SimpleCommand c : script.commands()) {
            simple(c, depth);
        }
    }

    private void simple(SimpleCommand c, int depth) {
        reshapes.at(invocations.size());
        for (Word w : c.words()) {
            noteLatent(w);
        }
        for (Word w : c.assignments()) {
            noteLatent(w);
            Assignments.check(w, Assignments.name(w), !c.words().isEmpty(), fx);
        }
        for (Redirect r : c.redirects()) {
            if (r.writesFile()) {
                files.redirect(Kind.WRITE, r.target());
            }
            if (r.readsFile()) {
                files.redirect(Kind.READ, r.target());
            }
        }
        if (!c.words().isEmpty()) {
            Directories outer = files.dirs();
            unwrap(c.words(), depth, false, c.repeated());
            files.dirs(outer); // env -C changes it for that command only (cd changes it in place)
        }
    }

    /** Strips wrappers from {@code w} until a program that is judged by itself remains. */
    void unwrap(List<Word> w, int depth, boolean openEnded, boolean repeated) {
        carrier(w, depth);
        while (!w.isEmpty()) {
            Word prog = w.get(0);
            if (!prog.isStatic()) {
                problems.add("the program `" + Snippet.of(prog.raw()) + "` is only known at run time");
                return;
            }
            String name = programName(prog.value());
            Runners.Step next = runners.step(name, w, w.subList(1, w.size()), depth, openEnded, repeated);
            if (next == null) {
                return;
            }
            w = next.words();
            openEnded = next.openEnded();
        }
    }
    /** A program judged by itself: its options, its files, then its words for the rules. */
    void program(String name, List<Word> w, int depth, boolean openEnded, boolean repeated) {
        List<Word> words = new ArrayList<>(w);
        words.set(0, Word.of(name));
        List<Word> args = words.subList(1, words.size());
        String key = LoadingCheck.key(name);
        reshapes.program(name, args);
        String editor = Editors.problem(name);
        if (editor != null) {
            problems.add(editor);
        }
        switch (name) {
            case "git" -> words = git(words);
            case "find" -> find(words, depth);
            case "cd", "pushd" -> cd(args, repeated);
            case "tee" -> {
                int i = Options.skip(args, "aip", "", TEE_FLAGS, Set.of());
                for (Word f : args.subList(i, args.size())) {
                    files.redirect(Kind.WRITE, f);
                }
            }
            default -> {
                if (LoadingCheck.hasEntries(key)) {
                    loading(name, key, args);
                }
                if (EvaluatingBuiltins.NAMES.contains(name)) {
                    EvaluatingBuiltins.check(name, args, builtinEffects(depth));
                }
                PathArguments.mentioned(name, args, fx);
                if (PathArguments.models(name)) {
                    PathArguments.check(name, args, fx);
                    if (openEnded && (PathArguments.reads(name) || PathArguments.writes(name))) {
                        files.argument(
                                PathArguments.writes(name) ? Kind.WRITE : Kind.READ,
                                Scope.UNKNOWN,
                                Word.of("the files xargs adds"));
                    }
                }
            }
        }
        emit(words, openEnded);
    }

    private void loading(String name, String key, List<Word> args) {
        LoadingCheck.Findings found = LoadingCheck.scan(key, args, 0, args.size());
        for (LoadingCheck.Found f : found.found()) {
            problems.add("`" + name + " " + Snippet.of(f.word().raw()) + "`: "
                    + f.option().reason());
            if (f.option().path() != null && f.value() != null) {
                files.argument(f.option().path(), Scope.FILE, f.value());
            }
        }
        for (Word u : found.unknown()) {
            problems.add("`" + name + " " + Snippet.of(u.raw()) + "`: a word only known at run time could be one of"
                    + " the options that make " + name + " load or run another program");
        }
    }

    private EvaluatingBuiltins.Effects builtinEffects(int depth) {
        return new EvaluatingBuiltins.Effects() {
            @Override
            public void problem(String problem) {
                problems.add(problem);
            }

            @Override
            public void assignment(Word word, String name, boolean exported) {
                Assignments.check(word, name, exported, fx);
            }

            @Override
            public void write(Word file) {
                files.argument(Kind.WRITE, Scope.FILE, file);
            }

            @Override
            public void script(String source) {
                BashAnalyzer.this.script(source, depth + 1);
            }
        };
    }

    /** git: its options and files, and where it runs; answers the words rules match. */
    private List<Word> git(List<Word> words) {
        GitArguments.Parsed p = GitArguments.parse(words, fx);
        reshapes.git(p.subcommand());
        Directories outer = files.dirs();
        for (Word d : p.directories()) {
            List<Path> to = d.isStatic() ? files.resolve(d.value()) : null;
            files.dirs(Directories.only(to == null || to.size() != 1 ? null : to.get(0)));
        }
        Directories dirs = files.dirs();
        if (p.directories().isEmpty() && !dirs.isOnly(root)) {
            problems.add("git runs in "
                    + (dirs.unknown()
                            ? "a directory known only at run time"
                            : "`"
                                    + dirs.all().stream()
                                            .filter(d -> !d.equals(root))
                                            .findFirst()
                                            .orElse(root) + "`")
                    + ", not the project root: it looks for its repository from there upward, and one placed there"
                    + " (a .git or a bare repository) would run programs from its configuration");
        }
        GitArguments.paths(p, fx);
        files.dirs(outer);
        return p.words();
    }

    /** {@code find ... -exec cmd ... ;}: the command is judged too; {@code -delete} and {@code -fprint} write. */
    private void find(List<Word> words, int depth) {
        List<Word> roots = new ArrayList<>();
        int i = 1;
        while (i < words.size()
                && !FIND_EXPRESSION.matcher(words.get(i).value()).matches()) {
            roots.add(words.get(i++));
        }
        if (roots.isEmpty()) {
            roots.add(Word.of("."));
        }
        for (; i < words.size(); i++) {
            String v = words.get(i).value();
            if (FIND_EXEC.contains(v)) {
                int j = i + 1;
                while (j < words.size()
                        && !words.get(j).value().equals(";")
                        && !(words.get(j).value().equals("+")
                                && words.get(j - 1).value().equals("{}"))) {
                    j++;
                }
                if (j >= words.size()) {
                    problems.add("`find " + v + "` without its terminating `;` or `+`");
                }
                if (depth > ShellParser.MAX_DEPTH) {
                    problems.add("`find -exec` nested more than " + ShellParser.MAX_DEPTH + " levels deep");
                } else if (j > i + 1) {
                    List<Word> outerRoots = files.findRoots();
                    Directories outerDirs = files.dirs();
                    files.findRoots(roots);
                    if (v.endsWith("dir")) {
                        files.dirs(Directories.only(null)); // runs in each found file's directory
                    }
                    unwrap(words.subList(i + 1, j), depth + 1, false, true);
                    files.findRoots(outerRoots);
                    files.dirs(outerDirs);
                }
                i = j;
            } else if (FIND_PRINT.contains(v) && i + 1 < words.size()) {
                files.redirect(Kind.WRITE, words.get(i + 1));
            } else if (v.equals("-delete")) {
                roots.forEach(r -> files.argument(Kind.WRITE, Scope.TREE, r));
            }
        }
    }

    private void cd(List<Word> args, boolean repeated) {
        int i = Options.skip(args, "LPe@", "", Set.of(), Set.of());
        if (i < args.size() && args.get(i).value().contains("..")) {
            reshapes.dotDot();
        }
        if (i >= args.size()) {
            files.dirs().cd("", repeated, home);
        } else {
            files.dirs().cd(args.get(i).isStatic() ? args.get(i).value() : null, repeated, home);
        }
    }

    void emit(List<Word> words, boolean openEnded) {
        invocations.add(invocation(words, openEnded));
    }

    private static Invocation invocation(List<Word> words, boolean openEnded) {
        List<String> values = new ArrayList<>(words.size());
        Set<Integer> dynamic = Set.of(); // most commands have no such word
        for (Word x : words) {
            if (x.expands() || x.couldBeOption()) {
                if (dynamic.isEmpty()) {
                    dynamic = new HashSet<>();
                }
                dynamic.add(values.size()); // could become anything, an option included
            }
            values.add(x.value());
        }
        values.set(0, baseName(values.get(0)));
        return new Invocation(values, openEnded, dynamic);
    }

    /**
     * A command whose program may run some of its arguments as a command ({@code flock f rm -rf x}, a wrapper the
     * analysis models wrongly, a program it does not know): kept whole as a carrier, whose suffixes the engine
     * judges by deny and ask rules; its arguments that look like shell code ({@code foo -c 'rm -rf x'}, the value of
     * {@code --cmd='...'}) are parsed, and the commands in them kept as embedded commands. Programs known never to
     * run their arguments are left out: those that only take names or text ({@code echo}), those whose arguments
     * are modelled as files ({@code cat}, {@code cp}), git, find, the shells and the builtins whose arguments are
     * judged.
     */
    private void carrier(List<Word> w, int depth) {
        if (w.isEmpty() || !w.get(0).isStatic() || carriers.size() + embedded.size() > MAX_CARRIERS) {
            return;
        }
        String name = baseName(w.get(0).value());
        if (NOT_CARRIERS.contains(name)) {
            return;
        }
        carriers.add(invocation(w, false));
        for (Word x : w.subList(1, w.size())) {
            String v = x.value();
            if (!x.isStatic() || !mayBeCode(v, 0)) {
                continue;
            }
            embedded(v, depth);
            int eq = v.indexOf('=');
            if (eq > 0 && mayBeCode(v, eq + 1)) {
                embedded(v.substring(eq + 1), depth); // --cmd='rm -rf x', CMD='rm -rf x'
            }
        }
    }

    private static Set<String> notCarriers() {
        Set<String> all = new HashSet<>(PathArguments.NAMES_ONLY);
        all.addAll(PathArguments.MODELLED);
        all.addAll(RUNS_NO_ARGUMENTS);
        all.addAll(SHELLS);
        all.addAll(EvaluatingBuiltins.NAMES);
        return Set.copyOf(all);
    }

    /** Whether {@code text} holds a character of {@link #CODE} from index {@code from} on. */
    static boolean mayBeCode(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            if (CODE.indexOf(text.charAt(i)) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The commands in {@code text}, an argument that may be run as shell code: kept as embedded commands. */
    private void embedded(String text, int depth) {
        if (depth >= ShellParser.MAX_DEPTH) {
            return;
        }
        BashAnalyzer inner = new BashAnalyzer(start, home, root);
        inner.script(text, depth + 1);
        embedded.addAll(inner.invocations);
        embedded.addAll(inner.embedded);
        carriers.addAll(inner.carriers);
    }

    private void noteLatent(Word w) {
        String v = w.value();
        if (w.quoted()
                && (v.contains("$(") || v.contains("`") || v.contains("${") || v.contains("$["))
                && latent.size() < MAX_LATENT) {
            latent.add(v);
        }
    }

    /**
     * Once anything in the command cannot be judged (a re-expansion such as {@code ${_@P}}, {@code $((_))},
     * {@code ${!x}}, {@code eval}, an evaluating builtin, all of which are problems), the quoted strings that
     * hold code are judged as code: bash may expand them later ({@code ls '$(rm -rf b)'; ls ${_@P}} runs the
     * {@code rm}), so a deny rule their commands meet denies the command. Without a problem nothing re-expands
     * them and they stay text ({@code git commit -m 'fix $(x)'}).
     */
    private void latentCode() {
        if (problems.isEmpty()) {
            return;
        }
        List<String> subs = new ArrayList<>();
        for (String text : latent) {
            Expansions.scan(text, subs, new ArrayList<>(), 0);
        }
        for (String sub : subs) {
            script(sub, 1);
        }
    }

    /**
     * The program's name: the last part of an absolute path ({@code /usr/bin/git} is {@code git}). A path
     * outside the system's program directories is reduced too (deny rules still apply to it) but is a
     * problem: nothing says {@code /tmp/x/git} is the git an allow rule means.
     */
    private String programName(String value) {
        String name = baseName(value);
        if (!name.equals(value)) {
            Path dir = Path.of(value).normalize().getParent();
            if (dir == null || !SYSTEM_DIRS.contains(dir)) {
                problems.add("it runs `" + Snippet.of(value) + "`, a program outside the system's program directories:"
                        + " not necessarily the `" + name + "` a rule names");
            }
        }
        return name;
    }

    static String baseName(String value) {
        if (value.startsWith("/") && value.length() > 1 && !value.endsWith("/")) {
            return value.substring(value.lastIndexOf('/') + 1);
        }
        return value;
    }

    static String values(List<Word> words) {
        return words.stream().map(Word::value).collect(Collectors.joining(" "));
    }
}
