package dev.paddock.diff;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;

/**
 * The service's recent work, exact by construction: a file list is kept by the pair of trees it compares (a tree id
 * names its content), a file's hunks by that pair and the file's path. Both are bounded, least recently used first out:
 * {@link #LISTS} lists of at most {@link #ENTRIES} files in all, and hunks of at most {@link #LINES} lines in all.
 * So a window that lists a change and then shows its files diffs each file once, not once for its count and again
 * for its text. Thread-safe.
 */
final class DiffCache {
    static final int LISTS = 8;
    static final int ENTRIES = 50_000;
    static final int LINES = 200_000;

    /** Two trees compared, in one repository, whitespace counted or not. {@code oldTree} null: the empty tree. */
    record Key(Path commonDir, ObjectId oldTree, ObjectId newTree, boolean ignoreWhitespace) {}

    private record PatchKey(Key list, String path) {}

    private final LinkedHashMap<Key, List<FileChanges.Entry>> lists = new LinkedHashMap<>(16, 0.75f, true);
    private final LinkedHashMap<PatchKey, FilePatch> patches = new LinkedHashMap<>(16, 0.75f, true);
    private int entries;
    private int lines;

    synchronized List<FileChanges.Entry> list(Key k) {
        return lists.get(k);
    }

    synchronized void putList(Key k, List<FileChanges.Entry> list) {
        if (list.size() > ENTRIES) {
            return;
        }
        List<FileChanges.Entry> old = lists.put(k, List.copyOf(list));
        entries += list.size() - (old == null ? 0 : old.size());
        Iterator<Map.Entry<Key, List<FileChanges.Entry>>> it = lists.entrySet().iterator();
        while ((lists.size() > LISTS || entries > ENTRIES) && it.hasNext()) {
            Map.Entry<Key, List<FileChanges.Entry>> e = it.next();
            if (!e.getKey().equals(k)) {
                entries -= e.getValue().size();
                it.remove();
            }
        }
    }

    synchronized FilePatch patch(Key k, String path) {
        return patches.get(new PatchKey(k, path));
    }

    synchronized void putPatch(Key k, String path, FilePatch p) {
        int n = lines(p);
        if (n > LINES) {
            return;
        }
        FilePatch old = patches.put(new PatchKey(k, path), p);
        lines += n - (old == null ? 0 : lines(old));
        Iterator<Map.Entry<PatchKey, FilePatch>> it = patches.entrySet().iterator();
        while (lines > LINES && it.hasNext()) {
            Map.Entry<PatchKey, FilePatch> e = it.next();
            lines -= lines(e.getValue());
            it.remove();
        }
    }

    /** The lines of hunks held (for tests). */
    synchronized int lines() {
        return lines;
    }

    private static int lines(FilePatch p) {
        int n = 0;
        for (Hunk h : p.hunks()) {
            n += h.lines().size();
        }
        return n;
    }
}
