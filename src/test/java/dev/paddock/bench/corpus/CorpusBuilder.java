package dev.paddock.bench.corpus;

import dev.paddock.merge.conflict.ConflictClassifier;
import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.FileConflictKind;
import dev.paddock.merge.conflict.ResolvedText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.diff.Edit;
import org.eclipse.jgit.diff.EditList;
import org.eclipse.jgit.diff.HistogramDiff;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.diff.RawTextComparator;

/**
 * Builds corpus rows from a list of conflicted files of real merges (lines {@code repo merge ours theirs base
 * path}, tab-separated, as {@code find-conflicts.sh} writes them): re-does each merge with Paddock's classifier
 * (in memory, on the mirror), writes each hunk of a listed file with diff3 markers in place ({@link ResolvedText}),
 * and lines that file up with the merge commit's file (histogram diff). A hunk is kept when the lines just
 * before and just after its markers are unchanged in the merge commit (or it touches the file's start or end):
 * the merge commit's lines between them are what the person wrote for it. Other hunks are left out (the person
 * also changed the lines around them, so the place of their answer is not certain).
 *
 * <p>Usage: {@code CorpusBuilder OUT.tsv MAX_HUNKS_PER_FILE MAX_ROWS_PER_REPO LIST.tsv...}
 */
public final class CorpusBuilder {
    private static final String START = "<<<<<<< ours";
    private static final String END = ">>>>>>> theirs";

    private CorpusBuilder() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int perFile = Integer.parseInt(args[1]);
        int perRepo = Integer.parseInt(args[2]);
        List<CorpusRow> rows = new ArrayList<>();
        try (CorpusTexts texts = new CorpusTexts(CorpusTexts.mirrorsFolder())) {
            for (int a = 3; a < args.length; a++) {
                Map<String, List<String[]>> byMerge = new LinkedHashMap<>();
                for (String l : Files.readAllLines(Path.of(args[a]))) {
                    String[] f = l.split("\t");
                    if (f.length == 6) {
                        byMerge.computeIfAbsent(f[1], k -> new ArrayList<>()).add(f);
                    }
                }
                int repoRows = 0;
                for (List<String[]> files : byMerge.values()) {
                    if (repoRows >= perRepo) {
                        break;
                    }
                    List<CorpusRow> got = merge(texts, files, perFile);
                    rows.addAll(got.subList(0, Math.min(got.size(), perRepo - repoRows)));
                    repoRows += Math.min(got.size(), perRepo - repoRows);
                }
                System.err.println(args[a] + ": " + repoRows + " rows");
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add(CorpusRow.HEADER);
        rows.forEach(r -> lines.add(r.toLine()));
        Files.write(out, lines, StandardCharsets.UTF_8);
    }

    private static List<CorpusRow> merge(CorpusTexts texts, List<String[]> files, int perFile) {
        String[] m = files.get(0);
        List<CorpusRow> out = new ArrayList<>();
        try {
            ConflictReport report = new ConflictClassifier().classify(texts.gitDir(m[0]), m[2], m[3]);
            if (!m[4].equals(report.base())) {
                return out;
            }
            Map<String, ConflictFile> byPath = new HashMap<>();
            report.files().forEach(f -> byPath.put(f.path(), f));
            for (String[] f : files) {
                ConflictFile cf = byPath.get(f[5]);
                if (cf == null
                        || cf.kind() != FileConflictKind.CONTENT
                        || cf.hunks().isEmpty()) {
                    continue;
                }
                List<String> merged = texts.lines(m[0], m[1], f[5]);
                int kept = 0;
                for (CorpusRow r : rows(m, cf, merged)) {
                    if (kept++ < perFile) {
                        out.add(r);
                    }
                }
            }
        } catch (Exception | StackOverflowError e) {
            System.err.println("skip " + m[0] + " " + m[1] + ": " + e);
        }
        return out;
    }

    /** The rows of a file's hunks whose answer in the merge commit can be placed. */
    static List<CorpusRow> rows(String[] m, ConflictFile f, List<String> merged) {
        List<String> marked = ResolvedText.resolveLines(f, Map.of());
        List<Integer> starts = new ArrayList<>();
        List<Integer> ends = new ArrayList<>();
        for (int i = 0; i < marked.size(); i++) {
            if (marked.get(i).equals(START)) {
                starts.add(i);
            } else if (marked.get(i).equals(END)) {
                ends.add(i);
            }
        }
        List<CorpusRow> out = new ArrayList<>();
        if (starts.size() != f.hunks().size() || ends.size() != f.hunks().size()) {
            return out;
        }
        int[] map = alignment(marked, merged);
        for (ConflictHunk h : f.hunks()) {
            int s = starts.get(h.index());
            int e = ends.get(h.index());
            int before = s == 0 ? -1 : map[s - 1];
            int after = e == marked.size() - 1 ? merged.size() : map[e + 1];
            if ((s > 0 && before < 0) || (e < marked.size() - 1 && after < 0) || after < before + 1) {
                continue;
            }
            out.add(new CorpusRow(m[0], m[1], m[2], m[3], m[4], f.path(), h.index(), new int[] {
                h.base().start(),
                h.base().end(),
                h.ours().start(),
                h.ours().end(),
                h.theirs().start(),
                h.theirs().end(),
                before + 1,
                after
            }));
        }
        return out;
    }

    /** For each line of {@code a}, the line of {@code b} it is kept as (histogram diff), or -1. */
    private static int[] alignment(List<String> a, List<String> b) {
        EditList edits = new HistogramDiff().diff(RawTextComparator.DEFAULT, raw(a), raw(b));
        int[] map = new int[a.size()];
        java.util.Arrays.fill(map, -1);
        int ai = 0;
        int bi = 0;
        for (Edit e : edits) {
            while (ai < e.getBeginA()) {
                map[ai++] = bi++;
            }
            ai = e.getEndA();
            bi = e.getEndB();
        }
        while (ai < a.size()) {
            map[ai++] = bi++;
        }
        return map;
    }

    private static RawText raw(List<String> lines) {
        StringBuilder s = new StringBuilder();
        lines.forEach(l -> s.append(l).append('\n'));
        return new RawText(s.toString().getBytes(StandardCharsets.UTF_8));
    }
}
