package dev.paddock.worktree;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code git worktree list --porcelain [-z]}: one record per worktree, attributes
 * {@code worktree <path>}, {@code HEAD <oid>}, {@code branch <ref>}, {@code detached}, {@code bare},
 * {@code locked [reason]}, {@code prunable [reason]}; records separated by an empty attribute.
 * With {@code -z} attributes end with NUL (paths may then hold newlines), otherwise with a newline.
 * Format: git-worktree(1), "Porcelain Format".
 */
final class PorcelainParser {
    private PorcelainParser() {
    }

    /** A parsed record before Paddock adds subject and dirty state. Bare entries are marked. */
    record Entry(WorktreeInfo info, boolean bare) {
    }

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
                current = new Builder(token.substring("worktree ".length()));
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

        Builder(String path) {
            this.path = path;
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
                case "locked" -> locked = value;
                case "prunable" -> prunable = value;
                default -> { } // attributes added by newer gits are ignored
            }
        }

        Entry build(boolean first) {
            WorktreeInfo info = new WorktreeInfo(Path.of(path), head, branch, detached, first, locked, prunable,
                    null, null, 0);
            return new Entry(info, bare);
        }
    }
}
