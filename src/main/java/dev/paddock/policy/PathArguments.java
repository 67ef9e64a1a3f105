package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Word;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which arguments of common programs are files they read or write (git's are in {@link GitArguments}, sed's
 * and awk's scripts in {@link TextPrograms}). Each program's options that take a value are known, so a value
 * is not taken for a file and a file not for a value. A write into a directory ({@code cp x .git},
 * {@code mv x .git/}, {@code cp -t .git/hooks x}) is a write of the file it creates there ({@code .git/x}) as
 * well as of the name given, since the analysis does not know which of the two exists.
 */
final class PathArguments {
    /** Programs whose operands {@link Archives} models. */
    private static final Set<String> OTHERS_MODELLED = Set.of(
            "sort", "uniq", "xxd", "base64", "dd", "tar", "zip", "unzip", "less", "split", "patch", "curl", "wget",
            "cpio", "7z", "7za", "7zr", "ar", "jar", "bsdtar", "gtar");

    private static final Set<String> COMPRESSOR_VALUES = Set.of("--suffix");
    private static final Set<String> OWNERSHIP = Set.of("chmod", "chown", "chgrp");
    private static final Pattern CHMOD_MODE = Pattern.compile("-[rwxXstugo]*[rwxXst][rwxXstugo]*(,.*)?");

    private record Spec(String shortWithValue, Set<String> longWithValue) {}

    private static Spec spec(String shortWithValue, String... longWithValue) {
        return new Spec(shortWithValue, Set.of(longWithValue));
    }

    /** Programs all of whose operands are files they read, with their options that take a value. */
    private static final Map<String, Spec> READERS = Map.ofEntries(
            Map.entry("cat", spec("")),
            Map.entry("tac", spec("s", "--separator")),
            Map.entry("nl", spec("bdfhilnsvw")),
            Map.entry("head", spec("nc", "--lines", "--bytes")),
            Map.entry("tail", spec("ncs", "--lines", "--bytes", "--pid", "--sleep-interval", "--max-unchanged-stats")),
            Map.entry("more", spec("n")),
            Map.entry(
                    "od",
                    spec(
                            "AjNStw",
                            "--address-radix",
                            "--skip-bytes",
                            "--read-bytes",
                            "--strings",
                            "--format",
                            "--width")),
            Map.entry("strings", spec("ntTe", "--bytes", "--radix", "--target", "--encoding")),
            Map.entry("wc", spec("")),
            Map.entry("base32", spec("w", "--wrap")),
            Map.entry("cut", spec("bcdf", "--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter")),
            Map.entry("paste", spec("d", "--delimiters")),
            Map.entry("rev", spec("")),
            Map.entry("fold", spec("w", "--width")),
            Map.entry("fmt", spec("wpg", "--width", "--prefix", "--goal")),
            Map.entry("expand", spec("t", "--tabs")),
            Map.entry("unexpand", spec("t", "--tabs")),
            Map.entry("column", spec("cstoNRlW", "--output-width", "--separator", "--table-columns")),
            Map.entry("comm", spec("", "--output-delimiter")),
            Map.entry("join", spec("12jtoe")),
            Map.entry(
                    "diff",
                    spec(
                            "CDFILUWXSx",
                            "--label",
                            "--ignore-matching-lines",
                            "--exclude",
                            "--starting-file",
                            "--to-file",
                            "--from-file",
                            "--unified",
                            "--context")),
            Map.entry("cmp", spec("inb", "--ignore-initial", "--bytes")),
            Map.entry("pr", spec("hNwWloe")),
            Map.entry("md5sum", spec("")),
            Map.entry("sha1sum", spec("")),
            Map.entry("sha256sum", spec("")),
            Map.entry("sha512sum", spec("")),
            Map.entry("cksum", spec("")),
            Map.entry("b2sum", spec("l")),
            Map.entry("hexdump", spec("enNsf")),
            Map.entry("hd", spec("enNsf")),
            Map.entry("file", spec("mfFeP")));
    /** Programs all of whose operands are files they change or delete. */
    private static final Map<String, Spec> WRITERS = Map.of(
            "rm",
            spec(""),
            "rmdir",
            spec(""),
            "unlink",
            spec(""),
            "touch",
            spec("dtr", "--date", "--reference"),
            "truncate",
            spec("sr", "--size", "--reference"),
            "shred",
            spec("ns", "--iterations", "--size"),
            "mkdir",
            spec("m", "--mode"),
            "chmod",
            spec("", "--reference"),
            "chown",
            spec("", "--reference"),
            "chgrp",
            spec("", "--reference"));

    private static final Set<String> COPIERS = Set.of("cp", "mv", "install", "ln", "rsync", "scp");
    private static final Set<String> COMPRESSORS = Set.of(
            "gzip",
            "gunzip",
            "bzip2",
            "bunzip2",
            "xz",
            "unxz",
            "zstd",
            "unzstd",
            "lz4",
            "compress",
            "uncompress",
            "lzma",
            "unlzma");

    private PathArguments() {}

    /** Programs that use their arguments as names or text, never reading or writing the files they name. */
    static final Set<String> NAMES_ONLY = Set.of(
            "ls",
            "echo",
            "printf",
            "test",
            "[",
            "stat",
            "du",
            "realpath",
            "readlink",
            "dirname",
            "basename",
            "which",
            "type",
            "pwd",
            "true",
            "false",
            ":",
            "sleep",
            "date",
            "id",
            "whoami",
            "uname",
            "hostname",
            "kill",
            "ps",
            "popd",
            "dirs",
            "exit",
            "return",
            "shift",
            "unset",
            "export",
            "declare",
            "local",
            "readonly",
            "typeset",
            "let",
            "set",
            "shopt",
            "alias",
            "unalias",
            "hash",
            "wait",
            "jobs",
            "getopts",
            "read",
            "mapfile",
            "readarray",
            "umask",
            "ulimit",
            "seq",
            "expr",
            "env",
            "mkdir",
            "nproc",
            "tty",
            "df",
            "free",
            "uptime",
            "lsof",
            "pgrep");

    /** Every program whose arguments are modelled ({@link #models}), for one lookup instead of six. */
    static final Set<String> MODELLED = modelled();

    private static Set<String> modelled() {
        Set<String> all = new java.util.HashSet<>(READERS.keySet());
        all.addAll(WRITERS.keySet());
        all.addAll(COPIERS);
        all.addAll(COMPRESSORS);
        all.addAll(OTHERS_MODELLED);
        all.addAll(TextPrograms.NAMES);
        return Set.copyOf(all);
    }

    /**
     * The static arguments of a program whose arguments are not modelled here: files it may read or write
     * ({@code bat .env}, {@code openssl enc -in x}), reported as {@link Scope#MENTION}s, the value of a
     * {@code --opt=value} included. Programs that only take names or text ({@link #NAMES_ONLY}) are left out.
     */
    static void mentioned(String program, List<Word> args, ArgumentEffects fx) {
        if (models(program) || NAMES_ONLY.contains(program)) {
            return;
        }
        for (Word a : args) {
            String v = a.value();
            int eq = v.indexOf('=');
            if (!a.isStatic() || v.startsWith("-") && eq < 0) {
                continue;
            }
            String file = v.startsWith("-") ? v.substring(eq + 1) : v;
            if (!file.isEmpty()) {
                fx.path(Kind.READ, Scope.MENTION, Word.of(file));
                fx.path(Kind.WRITE, Scope.MENTION, Word.of(file));
            }
        }
    }

    /** Whether {@code program}'s arguments are modelled here. */
    static boolean models(String program) {
        return MODELLED.contains(program);
    }

    /** Whether {@code program} reads files (so an unknown operand, as from {@code xargs}, is an unknown read). */
    static boolean reads(String program) {
        return READERS.containsKey(program)
                || TextPrograms.models(program)
                || program.equals("sort")
                || program.equals("less")
                || program.equals("uniq")
                || program.equals("xxd")
                || program.equals("base64");
    }

    /** Whether {@code program} writes or deletes the files it is given. */
    static boolean writes(String program) {
        return WRITERS.containsKey(program) || COPIERS.contains(program) || COMPRESSORS.contains(program);
    }

    /** Reports the files {@code program} (already stripped of wrappers) reads and writes, given its arguments. */
    static void check(String program, List<Word> args, ArgumentEffects fx) {
        if (TextPrograms.models(program)) {
            TextPrograms.check(program, args, fx);
            return;
        }
        Spec r = READERS.get(program);
        if (r != null) {
            Argv a = Argv.parse(args, r.shortWithValue(), r.longWithValue());
            a.operands().forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
            a.values("--exclude-from", "--files0-from", "--from-file", "--to-file")
                    .forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
            if (program.equals("diff")) {
                a.values("-X").forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
            } else if (program.equals("file")) {
                a.values("-m", "-f").forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
            }
            return;
        }
        Spec wr = WRITERS.get(program);
        if (wr != null) {
            writers(program, Argv.parse(modesAsOperands(program, args), wr.shortWithValue(), wr.longWithValue()), fx);
            return;
        }
        if (COPIERS.contains(program)) {
            Copiers.check(program, args, fx);
            return;
        }
        if (COMPRESSORS.contains(program)) {
            Argv a = Argv.parse(args, "S", COMPRESSOR_VALUES);
            boolean toStdout = a.has("-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list");
            Scope scope = a.has("-r", "--recursive") ? Scope.TREE : Scope.FILE;
            for (Word w : a.operands()) {
                fx.path(Kind.READ, scope, w);
                if (!toStdout) {
                    fx.path(Kind.WRITE, scope, w); // replaced by (or expanded from) its compressed twin
                }
            }
            return;
        }
        Archives.check(program, args, fx);
    }

    /**
     * chmod's symbolic modes may start with a dash ({@code chmod -x f}): such a word is its mode, not options,
     * so it is passed on after {@code --} (and what follows it as operands too).
     */
    private static List<Word> modesAsOperands(String program, List<Word> args) {
        if (!program.equals("chmod")) {
            return args;
        }
        for (int i = 0; i < args.size(); i++) {
            String v = args.get(i).value();
            if (CHMOD_MODE.matcher(v).matches()) {
                List<Word> out = new java.util.ArrayList<>(args.subList(0, i));
                out.add(Word.of("--"));
                out.addAll(args.subList(i, args.size()));
                return out;
            }
            if (!v.startsWith("-")) {
                return args;
            }
        }
        return args;
    }

    private static void writers(String program, Argv a, ArgumentEffects fx) {
        List<Word> operands = a.operands();
        boolean recursive = a.has("-r", "-R", "--recursive");
        if (OWNERSHIP.contains(program) && !a.has("--reference") && !operands.isEmpty()) {
            operands = operands.subList(1, operands.size()); // the mode or owner
        }
        for (Word w : operands) {
            fx.path(Kind.WRITE, recursive ? Scope.TREE : Scope.FILE, w);
        }
        a.values("-r", "--reference").forEach(w -> {
            if (program.equals("touch") || program.equals("truncate")) {
                fx.path(Kind.READ, Scope.FILE, w);
            }
        });
    }

    /** The file a copy of {@code source} gets inside directory {@code dir}: {@code dir/basename(source)}. */
    static Word into(Word dir, Word source) {
        String s = source.value();
        while (s.length() > 1 && s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        String base = s.substring(s.lastIndexOf('/') + 1);
        String d = dir.value().endsWith("/") ? dir.value() : dir.value() + "/";
        if (!dir.isStatic()) {
            return dir;
        }
        if (!source.isStatic()) {
            return new Word(d + "*", d + "*", false, false, true, false, List.of(), false, false);
        }
        return Word.of(d + base);
    }
}
