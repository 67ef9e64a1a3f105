package dev.paddock.checkpoint;

import java.util.ArrayList;
import java.util.List;

/**
 * Paths (relative to the worktree, sorted) a checkpoint added, modified and deleted compared with the one before it.
 * A file whose mode alone changed (made executable) is modified.
 */
public record CheckpointChanges(List<String> added, List<String> modified, List<String> deleted) {
    public static final CheckpointChanges NONE = new CheckpointChanges(List.of(), List.of(), List.of());

    public CheckpointChanges {
        added = List.copyOf(added);
        modified = List.copyOf(modified);
        deleted = List.copyOf(deleted);
    }

    /** Whether nothing changed. */
    public boolean isEmpty() {
        return added.isEmpty() && modified.isEmpty() && deleted.isEmpty();
    }

    /** How many paths changed. */
    public int size() {
        return added.size() + modified.size() + deleted.size();
    }

    /**
     * Reads {@code git diff-tree -r -z --no-renames --name-status} output: NUL-separated status and path pairs
     * (A, M, T and D; a type change counts as modified).
     */
    static CheckpointChanges parseNameStatus(String z) {
        List<String> added = new ArrayList<>();
        List<String> modified = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        String[] parts = z.split("\0");
        for (int i = 0; i + 1 < parts.length; i += 2) {
            String status = parts[i];
            String path = parts[i + 1];
            switch (status.isEmpty() ? ' ' : status.charAt(0)) {
                case 'A' -> added.add(path);
                case 'D' -> deleted.add(path);
                default -> modified.add(path);
            }
        }
        return new CheckpointChanges(
                added.stream().sorted().toList(),
                modified.stream().sorted().toList(),
                deleted.stream().sorted().toList());
    }
}
