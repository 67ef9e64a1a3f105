package dev.paddock.testing;

import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.FileConflictKind;
import dev.paddock.merge.conflict.HunkClass;
import dev.paddock.merge.conflict.LineRange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;
import org.eclipse.jgit.merge.MergeAlgorithm;
import org.eclipse.jgit.merge.MergeChunk;
import org.eclipse.jgit.merge.MergeResult;

/**
 * Real conflicts for tests: starts a conflicting {@code git merge} in a {@link TempRepo} and reads it
 * back as a {@link ConflictReport} — the three versions of each unmerged path from the index stages
 * (1 base, 2 ours, 3 theirs), and the conflict hunks of text files from JGit's {@link MergeAlgorithm}
 * (the same machinery the merge queue uses). Hunks get a small stand-in classification (whitespace
 * only, import block, else human) so the view has both safe and human hunks to show; the real
 * classifier lives in {@code dev.paddock.merge.conflict}.
 */
public final class ConflictRepo {
    private ConflictRepo() {}

    /**
     * Merges {@code theirsBranch} into the branch checked out in {@code repo} without committing, and
     * requires it to conflict.
     *
     * @throws IllegalStateException when the merge went through cleanly
     */
    public static void startMerge(TempRepo repo, String theirsBranch) {
        TempRepo.Result r = TempRepo.run(repo.dir(), "merge", "--no-ff", "--no-commit", theirsBranch);
        if (r.ok()) {
            throw new IllegalStateException("merging " + theirsBranch + " did not conflict");
        }
    }

    /** The conflicts of the merge in progress in {@code repo} (after {@link #startMerge}). */
    public static ConflictReport report(TempRepo repo) {
        String ours = repo.git("rev-parse", "HEAD").strip();
        String theirs = repo.git("rev-parse", "MERGE_HEAD").strip();
        TempRepo.Result mb = TempRepo.run(repo.dir(), "merge-base", ours, theirs);
        String base = mb.ok() ? mb.stdout().strip() : null;
        // "<mode> <object> <stage>\t<path>" per unmerged stage
        Map<String, String[]> stages = new TreeMap<>();
        for (String line : repo.git("ls-files", "-u").split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] meta = line.substring(0, line.indexOf('\t')).split(" ");
            String path = line.substring(line.indexOf('\t') + 1);
            stages.computeIfAbsent(path, p -> new String[3])[Integer.parseInt(meta[2]) - 1] = meta[1];
        }
        List<ConflictFile> files = new ArrayList<>();
        for (Map.Entry<String, String[]> e : stages.entrySet()) {
            String[] s = e.getValue();
            String b = blob(repo, s[0]);
            String o = blob(repo, s[1]);
            String t = blob(repo, s[2]);
            if (isBinary(b) || isBinary(o) || isBinary(t)) {
                files.add(new ConflictFile(e.getKey(), FileConflictKind.BINARY, null, null, null, List.of()));
            } else if (o == null || t == null) {
                files.add(new ConflictFile(e.getKey(), FileConflictKind.DELETE_MODIFY, b, o, t, List.of()));
            } else {
                files.add(
                        textFile(e.getKey(), b == null ? FileConflictKind.ADD_ADD : FileConflictKind.CONTENT, b, o, t));
            }
        }
        return new ConflictReport(ours, theirs, base, files);
    }

    /** A text file's conflict with its hunks from JGit's merge of the three texts ({@code base} null: add/add). */
    public static ConflictFile textFile(String path, FileConflictKind kind, String base, String ours, String theirs) {
        RawText b = raw(base);
        RawText o = raw(ours);
        RawText t = raw(theirs);
        MergeResult<RawText> m = new MergeAlgorithm().merge(RawTextComparator.DEFAULT, b, o, t);
        List<ConflictHunk> hunks = new ArrayList<>();
        Iterator<MergeChunk> it = m.iterator();
        MergeChunk pendingOurs = null;
        MergeChunk pendingBase = null;
        while (it.hasNext()) {
            MergeChunk c = it.next();
            switch (c.getConflictState()) {
                case FIRST_CONFLICTING_RANGE -> pendingOurs = c;
                case BASE_CONFLICTING_RANGE -> pendingBase = c;
                case NEXT_CONFLICTING_RANGE -> {
                    hunks.add(hunk(hunks.size(), b, o, t, pendingBase, pendingOurs, c));
                    pendingOurs = null;
                    pendingBase = null;
                }
                default -> {}
            }
        }
        return new ConflictFile(path, kind, base, ours, theirs, hunks);
    }

    /**
     * The text JGit's merge gives when every conflict hunk takes {@code side} (1 ours, 2 theirs):
     * the reference the view's own result is checked against.
     */
    public static String resolvedTaking(ConflictFile f, int side) {
        RawText[] seq = {raw(f.baseText()), raw(f.oursText()), raw(f.theirsText())};
        MergeResult<RawText> m = new MergeAlgorithm().merge(RawTextComparator.DEFAULT, seq[0], seq[1], seq[2]);
        List<String> out = new ArrayList<>();
        for (MergeChunk c : m) {
            boolean take = switch (c.getConflictState()) {
                case NO_CONFLICT -> true;
                case FIRST_CONFLICTING_RANGE -> side == 1;
                case NEXT_CONFLICTING_RANGE -> side == 2;
                default -> false;
            };
            if (take) {
                for (int i = c.getBegin(); i < c.getEnd(); i++) {
                    out.add(seq[c.getSequenceIndex()].getString(i));
                }
            }
        }
        String body = String.join("\n", out);
        return out.isEmpty() ? "" : body + "\n";
    }

    private static ConflictHunk hunk(
            int index, RawText b, RawText o, RawText t, MergeChunk base, MergeChunk ours, MergeChunk theirs) {
        if (base == null) {
            throw new IllegalStateException("JGit's merge gave no base range for conflict " + index);
        }
        List<String> bl = lines(b, base);
        List<String> ol = lines(o, ours);
        List<String> tl = lines(t, theirs);
        HunkClass cls = HunkClass.HUMAN;
        List<String> proposed = null;
        String why = "both sides changed these lines differently";
        if (strip(ol).equals(strip(tl))) {
            cls = HunkClass.WHITESPACE_ONLY;
            proposed = ol;
            why = "the two sides differ only in whitespace";
        } else if (!ol.isEmpty()
                && !tl.isEmpty()
                && ol.stream().allMatch(l -> l.startsWith("import "))
                && tl.stream().allMatch(l -> l.startsWith("import "))) {
            cls = HunkClass.IMPORT_BLOCK;
            TreeSet<String> union = new TreeSet<>(ol);
            union.addAll(tl);
            proposed = List.copyOf(union);
            why = "both sides changed the import block: the sorted union keeps both";
        }
        return new ConflictHunk(index, range(base), range(ours), range(theirs), bl, ol, tl, cls, proposed, why);
    }

    private static List<String> strip(List<String> lines) {
        return lines.stream()
                .map(l -> l.replaceAll("\\s+", ""))
                .filter(l -> !l.isEmpty())
                .toList();
    }

    private static LineRange range(MergeChunk c) {
        return new LineRange(c.getBegin(), c.getEnd());
    }

    private static List<String> lines(RawText text, MergeChunk c) {
        List<String> out = new ArrayList<>();
        for (int i = c.getBegin(); i < c.getEnd(); i++) {
            out.add(text.getString(i));
        }
        return out;
    }

    private static RawText raw(String text) {
        return text == null ? RawText.EMPTY_TEXT : new RawText(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String blob(TempRepo repo, String id) {
        return id == null ? null : repo.git("cat-file", "blob", id);
    }

    private static boolean isBinary(String text) {
        return text != null && text.indexOf('\0') >= 0;
    }
}
