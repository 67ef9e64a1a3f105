package dev.paddock.bench.corpus;

import java.util.ArrayList;
import java.util.List;

/**
 * One conflict hunk of the corpus: a real merge commit of a public repository, re-done by Paddock's classifier,
 * with the line ranges of the hunk in base, ours (first parent) and theirs (second parent), and the range of the
 * merge commit's file that the person who made the merge wrote in its place. Ranges are 0-based, end exclusive,
 * in lines as {@code merge.conflict} splits them. Only ids, paths and numbers: the texts come from the
 * repositories ({@link CorpusTexts}).
 *
 * @param repo   the repository, as its mirror folder is named ({@code owner+name})
 * @param merge  the merge commit
 * @param ours   its first parent
 * @param theirs its second parent
 * @param base   the (single) merge base of the parents
 * @param path   the file, at the same path on every side
 * @param hunk   the hunk's 0-based index in the file
 * @param ranges base start, base end, ours start, ours end, theirs start, theirs end, merged start, merged end
 */
public record CorpusRow(
        String repo, String merge, String ours, String theirs, String base, String path, int hunk, int[] ranges) {
    /** The header line of the corpus file. */
    public static final String HEADER = "repo\tmerge\tours\ttheirs\tbase\tpath\thunk\tbase_start\tbase_end"
            + "\tours_start\tours_end\ttheirs_start\ttheirs_end\tmerged_start\tmerged_end";

    /** A stable id: repository, short merge id, path and hunk. */
    public String id() {
        return repo + "@" + merge.substring(0, 12) + ":" + path + "#" + hunk;
    }

    public int baseStart() {
        return ranges[0];
    }

    public int baseEnd() {
        return ranges[1];
    }

    public int oursStart() {
        return ranges[2];
    }

    public int oursEnd() {
        return ranges[3];
    }

    public int theirsStart() {
        return ranges[4];
    }

    public int theirsEnd() {
        return ranges[5];
    }

    public int mergedStart() {
        return ranges[6];
    }

    public int mergedEnd() {
        return ranges[7];
    }

    /** The row as a line of the corpus file. */
    public String toLine() {
        StringBuilder s =
                new StringBuilder(String.join("\t", repo, merge, ours, theirs, base, path, Integer.toString(hunk)));
        for (int r : ranges) {
            s.append('\t').append(r);
        }
        return s.toString();
    }

    /** Parses a line of the corpus file. */
    public static CorpusRow parse(String line) {
        String[] f = line.split("\t");
        if (f.length != 15) {
            throw new IllegalArgumentException(
                    "a corpus row has 15 tab-separated fields, not " + f.length + ": " + line);
        }
        int[] r = new int[8];
        for (int i = 0; i < 8; i++) {
            r[i] = Integer.parseInt(f[7 + i]);
        }
        return new CorpusRow(f[0], f[1], f[2], f[3], f[4], f[5], Integer.parseInt(f[6]), r);
    }

    /** Parses a corpus file's lines (header and {@code #} comments skipped). */
    public static List<CorpusRow> parseAll(List<String> lines) {
        List<CorpusRow> out = new ArrayList<>();
        for (String l : lines) {
            if (l.isBlank() || l.startsWith("#") || l.startsWith("repo\t")) {
                continue;
            }
            out.add(parse(l));
        }
        return out;
    }

    /** The language or file family of the path, for the report. */
    public String family() {
        return Family.of(path);
    }
}
