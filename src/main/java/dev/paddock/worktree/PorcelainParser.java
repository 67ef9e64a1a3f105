package dev.paddock.worktree;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code git worktree list --porcelain [-z]}: one record per worktree, attributes
 * {@code worktree <path>}, {@code HEAD <oid>}, {@code branch <ref>}, {@code detached}, {@code bare},
 * {@code locked [reason]}, {@code prunable [reason]}; records separated by an empty attribute.
 * With {@code -z} attributes end with NUL (paths may then hold newlines), otherwise with a newline;
 * without {@code -z} git quotes an unusual lock reason like {@code core.quotePath} does (C-style, octal
 * escapes for bytes), and this parser unquotes it. Format: git-worktree(1), "Porcelain Format".
 */
final class PorcelainParser {
    /** Whether this git understands {@code worktree list -z} (git 2.36+); null until first asked. */
    private static volatile Boolean nulSupported;

    private PorcelainParser() {}

    /**
     * Runs {@code git worktree list --porcelain}, with {@code -z} when this git has it (paths may then
     * hold any character), and parses the answer.
     *
     * @throws GitException when git cannot list the worktrees of {@code dir}
     */
    static List<Entry> list(GitCli git, Path dir) throws GitException {
        if (!Boolean.FALSE.equals(nulSupported)) {
            GitCli.Result r = git.run(dir, "worktree", "list", "--porcelain", "-z");
            if (r.ok()) {
                nulSupported = true;
                return parse(r.stdout(), true);
            }
            if (nulSupported == null && r.stderr().contains("unknown switch")) {
                nulSupported = false; // git older than 2.36
            } else {
                throw new GitException("Cannot list the worktrees of " + dir + ": " + r.errorLine());
            }
        }
        return parse(git.runOk(dir, "worktree", "list", "--porcelain"), false);
    }

    /** A parsed record before Paddock adds subject and dirty state. Bare entries are marked. */
    record Entry(WorktreeInfo info, boolean bare) {}

    static List<Entry> parse(String output, boolean nulTerminated) {
        String[] tokens = output.split(nulTerminated ? "\0" : "\n", -1);
        List<Entry> entries = new ArrayList<>();
        Builder current = null;
        for (String token : tokens) {
            if (token.isEmpty()) {
                if (current != null) {
                    entries.add(current.build(entries.isEmpty()));
                    current = null;
                }
                continue;
            }
            if (token.startsWith("worktree ")) {
                if (current != null) {
                    entries.add(current.build(entries.isEmpty()));
                }
                current = new Builder(token.substring("worktree ".length()), !nulTerminated);
            } else if (current != null) {
                current.attribute(token);
            }
        }
        if (current != null) {
            entries.add(current.build(entries.isEmpty()));
        }
        return entries;
    }

    private static final class Builder {
        private final String path;
        private String head;
        private String branch;
        private boolean detached;
        private boolean bare;
        private String locked;
        private String prunable;
        private final boolean reasonsQuoted;

        Builder(String path, boolean reasonsQuoted) {
            this.path = path;
            this.reasonsQuoted = reasonsQuoted;
        }

        void attribute(String token) {
            String key = token;
            String value = "";
            int sp = token.indexOf(' ');
            if (sp >= 0) {
                key = token.substring(0, sp);
                value = token.substring(sp + 1);
            }
            switch (key) {
                case "HEAD" -> head = value.matches("0+") ? null : value;
                case "branch" -> branch = value.startsWith("refs/heads/") ? value.substring(11) : value;
                case "detached" -> detached = true;
                case "bare" -> bare = true;
                case "locked" -> locked = reasonsQuoted ? unquote(value) : value;
                case "prunable" -> prunable = value;
                default -> {} // attributes added by newer gits are ignored
            }
        }

        /**
         * Undoes git's C-style quoting ({@code quote_c_style}): a value that starts and ends with a double
         * quote has {@code \"}, {@code \\}, {@code \n}-style and octal byte escapes; the bytes are UTF-8.
         * An unquoted value never starts with a double quote (git would have quoted it), so it is kept.
         */
        static String unquote(String value) {
            if (value.length() < 2 || value.charAt(0) != '"' || value.charAt(value.length() - 1) != '"') {
                return value;
            }
            byte[] in = value.substring(1, value.length() - 1).getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
            for (int i = 0; i < in.length; i++) {
                byte b = in[i];
                if (b != '\\' || i + 1 >= in.length) {
                    out.write(b);
                    continue;
                }
                byte e = in[++i];
                switch (e) {
                    case 'a' -> out.write(7);
                    case 'b' -> out.write('\b');
                    case 't' -> out.write('\t');
                    case 'n' -> out.write('\n');
                    case 'v' -> out.write(11);
                    case 'f' -> out.write('\f');
                    case 'r' -> out.write('\r');
                    default -> {
                        if (e >= '0' && e <= '3' && i + 2 < in.length && isOctal(in[i + 1]) && isOctal(in[i + 2])) {
                            out.write(((e - '0') << 6) | ((in[i + 1] - '0') << 3) | (in[i + 2] - '0'));
                            i += 2;
                        } else {
                            out.write(e); // \" and \\ and anything unexpected: the character itself
                        }
                    }
                }
            }
            return out.toString(StandardCharsets.UTF_8);
        }

        private static boolean isOctal(byte b) {
            return b >= '0' && b <= '7';
        }

        Entry build(boolean first) {
            WorktreeInfo info =
                    new WorktreeInfo(Path.of(path), head, branch, detached, first, locked, prunable, null, null, 0);
            return new Entry(info, bare);
        }
    }
}
