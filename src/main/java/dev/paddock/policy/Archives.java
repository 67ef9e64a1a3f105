package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Snippet;
import dev.paddock.policy.shell.Word;
import java.util.List;
import java.util.Set;

/**
 * Programs whose operands mean different things by position or option: {@code sort -o}, {@code uniq in out},
 * {@code xxd in out}, {@code base64}, {@code dd if= of=}, {@code tar} (the archive of {@code -f}, the members,
 * {@code -C}: extraction writes a whole tree, whatever the archive holds), {@code zip}/{@code unzip},
 * {@code cpio}, {@code 7z}/{@code ar}/{@code jar} extraction, {@code less -o}, {@code split}, {@code patch} (writes the files the patch names) and the
 * downloaders {@code curl}/{@code wget} (their output files, and the files they upload).
 */
final class Archives {
    private static final Set<String> SORT_VALUES = Set.of(
            "--key",
            "--output",
            "--field-separator",
            "--buffer-size",
            "--temporary-directory",
            "--files0-from",
            "--compress-program",
            "--parallel",
            "--batch-size",
            "--sort",
            "--random-source");
    private static final Set<String> UNIQ_VALUES =
            Set.of("--skip-fields", "--skip-chars", "--check-chars", "--group", "--all-repeated");
    private static final Set<String> XXD_VALUES = Set.of("-cols", "-len", "-seek", "-name");
    private static final Set<String> BASE64_VALUES = Set.of("--wrap", "--input", "--output");
    private static final Set<String> ZIP_VALUES = Set.of("--temp-path", "--password", "--exclude");
    private static final Set<String> CPIO_VALUES = Set.of("--file", "--pattern-file", "--format", "--directory");
    private static final Set<String> LESS_VALUES = Set.of(
            "--log-file",
            "--LOG-FILE",
            "--lesskey-file",
            "--tag",
            "--tag-file",
            "--pattern",
            "--prompt",
            "--shift",
            "--tabs");
    private static final Set<String> SPLIT_VALUES = Set.of(
            "--suffix-length",
            "--additional-suffix",
            "--bytes",
            "--line-bytes",
            "--lines",
            "--number",
            "--separator",
            "--filter");
    private static final Set<String> PATCH_VALUES = Set.of(
            "--input",
            "--output",
            "--directory",
            "--reject-file",
            "--strip",
            "--prefix",
            "--basename-prefix",
            "--suffix",
            "--backup-if-mismatch");
    private static final Set<String> TAR_VALUES = Set.of(
            "--file",
            "--directory",
            "--files-from",
            "--exclude-from",
            "--exclude",
            "--to-command",
            "--use-compress-program",
            "--checkpoint-action",
            "--info-script",
            "--new-volume-script",
            "--rsh-command",
            "--rmt-command",
            "--listed-incremental",
            "--label",
            "--volno-file",
            "--format",
            "--owner",
            "--group",
            "--mode",
            "--mtime",
            "--newer",
            "--after-date",
            "--suffix",
            "--transform",
            "--xform",
            "--blocking-factor",
            "--record-size",
            "--tape-length",
            "--strip-components",
            "--index-file",
            "--warning",
            "--sort",
            "--quoting-style");

    private Archives() {}

    static void check(String program, List<Word> args, ArgumentEffects fx) {
        switch (program) {
            case "sort" -> {
                Argv a = Argv.parse(args, "kotST", SORT_VALUES);
                a.operands().forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
                a.values("-o", "--output").forEach(w -> fx.path(Kind.WRITE, Scope.FILE, w));
                a.values("-T", "--temporary-directory").forEach(w -> fx.path(Kind.WRITE, Scope.TREE, w));
                a.values("--files0-from", "--random-source").forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
            }
            case "uniq", "xxd" -> {
                Argv a = program.equals("uniq")
                        ? Argv.parse(args, "fsw", UNIQ_VALUES)
                        : Argv.parse(args, "cglosn", XXD_VALUES);
                List<Word> ops = a.operands();
                if (!ops.isEmpty()) {
                    fx.path(Kind.READ, Scope.FILE, ops.get(0));
                }
                if (ops.size() > 1) {
                    fx.path(Kind.WRITE, Scope.FILE, ops.get(1));
                }
            }
            case "base64" -> {
                Argv a = Argv.parse(args, "wio", BASE64_VALUES);
                a.operands().forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
                a.values("-i", "--input").forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
                a.values("-o", "--output").forEach(w -> fx.path(Kind.WRITE, Scope.FILE, w));
            }
            case "dd" -> {
                for (Word w : args) {
                    String v = w.value();
                    if (v.startsWith("if=")) {
                        fx.path(Kind.READ, Scope.FILE, LoadingCheck.part(w, v.substring(3)));
                    } else if (v.startsWith("of=")) {
                        fx.path(Kind.WRITE, Scope.FILE, LoadingCheck.part(w, v.substring(3)));
                    } else if (!w.isStatic() && w.couldBeOption()) {
                        fx.problem("`dd " + Snippet.of(w.raw()) + "`: an operand only known at run time could name"
                                + " the file it writes (of=)");
                    }
                }
            }
            case "tar", "bsdtar", "gtar" -> tar(args, fx);
            case "7z", "7za", "7zr", "ar", "jar" -> {
                String mode = args.isEmpty() ? "" : args.get(0).value();
                boolean extract = program.startsWith("7z")
                        ? mode.equals("x") || mode.equals("e")
                        : mode.replace("-", "").contains("x");
                if (extract) {
                    Word out = null;
                    for (Word w : args) {
                        if (w.value().startsWith("-o") && w.value().length() > 2 && program.startsWith("7z")) {
                            out = LoadingCheck.part(w, w.value().substring(2));
                        }
                    }
                    extract(out == null ? Word.of(".") : out, List.of(), fx);
                }
                args.stream()
                        .skip(1)
                        .filter(w -> !w.value().startsWith("-"))
                        .forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
            }
            case "zip" -> {
                Argv a = Argv.parse(args, "bnPtx", ZIP_VALUES);
                List<Word> ops = a.operands();
                if (!ops.isEmpty()) {
                    fx.path(Kind.WRITE, Scope.FILE, ops.get(0));
                }
                Scope s = a.has("-r", "-R", "--recurse-paths") ? Scope.TREE : Scope.FILE;
                ops.stream().skip(1).forEach(w -> fx.path(Kind.READ, s, w));
                if (a.has("-@")) {
                    fx.path(Kind.READ, Scope.UNKNOWN, Word.of("-@"));
                }
            }
            case "unzip" -> {
                Argv a = Argv.parse(args, "dxP", Set.of());
                List<Word> ops = a.operands();
                if (!ops.isEmpty()) {
                    fx.path(Kind.READ, Scope.FILE, ops.get(0));
                }
                if (!a.has("-l", "-t", "-v", "-p", "-c", "-Z", "-z")) {
                    Word dir = a.value("-d");
                    extract(
                            dir == null ? Word.of(".") : dir,
                            ops.size() > 1 ? ops.subList(1, ops.size()) : List.of(),
                            fx);
                }
            }
            case "cpio" -> {
                Argv a = Argv.parse(args, "FIOEHMRCD", CPIO_VALUES);
                a.values("-F", "-O", "--file")
                        .forEach(w -> fx.path(a.has("-i", "--extract") ? Kind.READ : Kind.WRITE, Scope.FILE, w));
                a.values("-I", "-E", "--pattern-file").forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
                if (a.has("-i", "--extract")) {
                    Word dir = a.value("-D", "--directory");
                    extract(dir == null ? Word.of(".") : dir, List.of(), fx);
                } else if (a.has("-p", "--pass-through") && !a.operands().isEmpty()) {
                    fx.path(
                            Kind.WRITE,
                            Scope.TREE,
                            a.operands().get(a.operands().size() - 1));
                }
            }
            case "less" -> {
                Argv a = Argv.parse(args, "bhjkoOpPtTxyz", LESS_VALUES);
                a.operands().forEach(w -> {
                    if (!w.value().startsWith("+")) {
                        fx.path(Kind.READ, Scope.FILE, w);
                    }
                });
                a.values("-o", "-O", "--log-file", "--LOG-FILE").forEach(w -> fx.path(Kind.WRITE, Scope.FILE, w));
                a.values("-T", "--tag-file").forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
            }
            case "split" -> {
                Argv a = Argv.parse(args, "abCdelnt", SPLIT_VALUES);
                List<Word> ops = a.operands();
                if (!ops.isEmpty()) {
                    fx.path(Kind.READ, Scope.FILE, ops.get(0));
                }
                String prefix =
                        ops.size() > 1 && ops.get(1).isStatic() ? ops.get(1).value() : "x";
                fx.path(
                        Kind.WRITE,
                        Scope.PATTERN,
                        new Word(prefix + "*", prefix + "*", false, false, true, false, List.of(), false, false));
            }
            case "patch" -> {
                Argv a = Argv.parse(args, "BdDFgiopPrVYz", PATCH_VALUES);
                List<Word> ops = a.operands();
                a.values("-i", "--input").forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
                a.values("-o", "--output", "-r", "--reject-file").forEach(w -> fx.path(Kind.WRITE, Scope.FILE, w));
                if (!ops.isEmpty()) {
                    fx.path(Kind.WRITE, Scope.FILE, ops.get(0));
                    ops.stream().skip(1).forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
                } else if (a.value("-o", "--output") == null) {
                    fx.path(Kind.WRITE, Scope.UNKNOWN, Word.of("the files the patch names"));
                }
            }
            case "curl" -> Downloads.curl(args, fx);
            case "wget" -> Downloads.wget(args, fx);
            default -> {}
        }
    }

    /**
     * {@code tar}: the modes {@code c x t r u A d --delete}, old style ({@code tar xzf a.tgz}) too. The archive
     * ({@code -f}) is read, written or both; extraction writes its members, or everything under the directory
     * ({@code -C}, else here); creation reads its operands (relative to {@code -C}) as trees. An archive named
     * {@code host:file} makes tar run a remote shell.
     */
    private static void tar(List<Word> args, ArgumentEffects fx) {
        List<Word> words = args;
        if (!args.isEmpty() && args.get(0).isStatic() && !args.get(0).value().startsWith("-")) {
            words = new java.util.ArrayList<>(args);
            words.set(0, Word.of("-" + args.get(0).value()));
        }
        Argv a = Argv.parse(words, "bCfFgHIKLNTVX", TAR_VALUES);
        boolean extract = a.has("-x", "--extract", "--get");
        boolean create = a.has("-c", "--create");
        boolean update = a.has("-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate", "--delete");
        for (Word f : a.values("-f", "--file")) {
            if (f.isStatic() && isRemote(f.value()) && !a.has("--force-local")) {
                fx.problem("`tar -f " + Snippet.of(f.raw()) + "`: an archive named host:file makes tar run a remote"
                        + " shell");
            }
            if (!f.value().equals("-")) {
                if (!create) {
                    fx.path(Kind.READ, Scope.FILE, f);
                }
                if (create || update) {
                    fx.path(Kind.WRITE, Scope.FILE, f);
                }
            }
        }
        a.values("-T", "--files-from", "-X", "--exclude-from").forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
        a.values("-g", "--listed-incremental").forEach(w -> {
            fx.path(Kind.READ, Scope.FILE, w);
            fx.path(Kind.WRITE, Scope.FILE, w);
        });
        a.values("--index-file", "--volno-file").forEach(w -> fx.path(Kind.WRITE, Scope.FILE, w));
        Word dir = a.value("-C", "--directory");
        if (extract) {
            extract(dir == null ? Word.of(".") : dir, a.operands(), fx);
        } else if (create || update || a.has("-d", "--diff", "--compare")) {
            for (Word w : a.operands()) {
                fx.path(
                        Kind.READ,
                        Scope.TREE,
                        dir == null || !w.isStatic() || w.value().startsWith("/")
                                ? w
                                : PathArguments.into(dir, Word.of(w.value())));
            }
        }
    }

    /** Extraction into {@code dir}: its named members, or (none named) anything under it. */
    private static void extract(Word dir, List<Word> members, ArgumentEffects fx) {
        if (members.isEmpty()) {
            fx.path(Kind.WRITE, Scope.TREE, dir);
            fx.problem("extracting an archive writes whatever files it holds under `" + Snippet.of(dir.raw())
                    + "` (a `.git` directory's hooks or configuration among them)");
            return;
        }
        for (Word m : members) {
            fx.path(
                    Kind.WRITE,
                    Scope.TREE,
                    m.isStatic() && !m.value().startsWith("/") && !dir.value().equals(".")
                            ? Word.of(dir.value() + "/" + m.value())
                            : m);
        }
    }

    private static boolean isRemote(String v) {
        int colon = v.indexOf(':');
        int slash = v.indexOf('/');
        return colon > 0 && (slash < 0 || colon < slash);
    }
}
