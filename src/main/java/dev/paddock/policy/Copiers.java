package dev.paddock.policy;

import dev.paddock.policy.PathAccess.Kind;
import dev.paddock.policy.PathAccess.Scope;
import dev.paddock.policy.shell.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code cp}, {@code mv}, {@code install}, {@code ln}, {@code rsync} and {@code scp}: the sources are read
 * ({@code mv} also removes them; {@code ln}'s targets become reachable, so they count as read and written), the
 * destination is written, and so is the file each source makes inside it when it is a directory. With
 * {@code -t DIR} every operand is a source and DIR the destination directory; {@code -T} makes the destination a
 * file. Recursive copies ({@code -r}, {@code -a}) read and write whole trees. {@code rsync} and {@code scp}
 * operands on another host ({@code host:path}) are not local files.
 */
final class Copiers {
    /** The long options of cp, mv and ln that take a value. */
    private static final Set<String> TARGET_VALUES = Set.of("--target-directory", "--suffix");

    private static final Set<String> INSTALL_VALUES =
            Set.of("--target-directory", "--suffix", "--mode", "--owner", "--group", "--strip-program");
    private static final Set<String> RSYNC_VALUES = Set.of(
            "--rsh",
            "--rsync-path",
            "--files-from",
            "--exclude-from",
            "--include-from",
            "--log-file",
            "--backup-dir",
            "--temp-dir",
            "--password-file",
            "--write-batch",
            "--read-batch",
            "--only-write-batch",
            "--compare-dest",
            "--copy-dest",
            "--link-dest",
            "--partial-dir",
            "--exclude",
            "--include",
            "--filter",
            "--chmod",
            "--chown",
            "--suffix",
            "--out-format",
            "--max-size",
            "--min-size",
            "--timeout",
            "--bwlimit",
            "--port");

    private Copiers() {}

    static void check(String program, List<Word> args, ArgumentEffects fx) {
        Argv a = switch (program) {
            case "cp" -> Argv.parse(args, "tS", TARGET_VALUES);
            case "mv" -> Argv.parse(args, "tS", TARGET_VALUES);
            case "install" -> Argv.parse(args, "tSmog", INSTALL_VALUES);
            case "ln" -> Argv.parse(args, "tS", TARGET_VALUES);
            case "rsync" -> Argv.parse(args, "eBfTM", RSYNC_VALUES);
            default -> Argv.parse(args, "cDFiJloPSX", Set.of());
        };
        boolean remote = program.equals("rsync") || program.equals("scp");
        List<Word> operands = new ArrayList<>();
        for (Word w : a.operands()) {
            if (!(remote && isRemote(w))) {
                operands.add(w);
            }
        }
        if (program.equals("rsync")) {
            a.values("--files-from", "--exclude-from", "--include-from", "--password-file", "--read-batch")
                    .forEach(w -> fx.path(Kind.READ, Scope.FILE, w));
            a.values("--log-file", "--write-batch", "--only-write-batch")
                    .forEach(w -> fx.path(Kind.WRITE, Scope.FILE, w));
            a.values("--backup-dir", "--temp-dir", "-T", "--partial-dir")
                    .forEach(w -> fx.path(Kind.WRITE, Scope.TREE, w));
        }
        if (program.equals("install") && a.has("-d", "--directory")) {
            operands.forEach(w -> fx.path(Kind.WRITE, Scope.FILE, w));
            return;
        }
        boolean recursive =
                a.has("-r", "-R", "--recursive", "-a", "--archive") && !program.equals("mv") && !program.equals("ln");
        Scope tree = recursive ? Scope.TREE : Scope.FILE;
        Word targetDir = a.value("-t", "--target-directory");
        List<Word> sources;
        if (targetDir != null) {
            sources = operands;
            for (Word s : sources) {
                fx.path(Kind.WRITE, tree, PathArguments.into(targetDir, s));
            }
        } else if (operands.size() == 1 && program.equals("ln")) {
            sources = operands; // ln TARGET: a link named after it, here
            fx.path(Kind.WRITE, Scope.FILE, PathArguments.into(Word.of("."), operands.get(0)));
        } else if (operands.size() >= 2) {
            Word dest = operands.get(operands.size() - 1);
            sources = operands.subList(0, operands.size() - 1);
            fx.path(Kind.WRITE, tree, dest);
            if (!a.has("-T", "--no-target-directory")) {
                for (Word s : sources) {
                    fx.path(Kind.WRITE, tree, PathArguments.into(dest, s));
                }
            }
        } else {
            sources = operands;
        }
        for (Word s : sources) {
            fx.path(Kind.READ, tree, s);
            boolean links = program.equals("cp") && a.has("-l", "--link", "-s", "--symbolic-link");
            if (program.equals("mv") || program.equals("ln") || links) {
                fx.path(Kind.WRITE, Scope.FILE, s); // moved away, or reachable under the link's name
            }
        }
        boolean symbolic = program.equals("ln") && a.has("-s", "--symbolic") && !a.has("-r", "--relative");
        if (symbolic) {
            Word dest = targetDir != null ? targetDir : operands.size() >= 2 ? operands.get(operands.size() - 1) : null;
            for (Word s : sources) {
                linkRelative(s, dest, targetDir != null, fx);
            }
        }
    }

    /**
     * A relative target of {@code ln -s} is resolved from the link's directory, not the working directory
     * ({@code ln -s ../.env build/x} links to {@code .env}): the target is also judged from there, the link being
     * {@code dest} itself or a link inside it when it is a directory (the analysis does not know which).
     */
    private static void linkRelative(Word target, Word dest, boolean destIsDir, ArgumentEffects fx) {
        String t = target.value();
        if (dest == null || !target.isStatic() || !dest.isStatic() || t.startsWith("/") || t.startsWith("~")) {
            return;
        }
        String d = dest.value();
        String parent = d.contains("/") ? d.substring(0, d.lastIndexOf('/') + 1) : "";
        List<String> dirs = destIsDir ? List.of(d + "/") : List.of(parent, d + "/");
        for (String dir : dirs) {
            if (!dir.isEmpty()) {
                Word from = Word.of(dir + t);
                fx.path(Kind.READ, Scope.FILE, from);
                fx.path(Kind.WRITE, Scope.FILE, from);
            }
        }
    }

    /** {@code host:path}, {@code user@host:path}, {@code rsync://...}: not a local file. */
    private static boolean isRemote(Word w) {
        String v = w.value();
        int colon = v.indexOf(':');
        int slash = v.indexOf('/');
        return v.startsWith("rsync://") || colon > 0 && (slash < 0 || colon < slash);
    }
}
