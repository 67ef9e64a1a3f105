package dev.paddock.diff;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.diff.RawText;
import org.eclipse.jgit.lib.Repository;

/**
 * One file's hunks as values: the same hunks, headers and lines as the patch text ({@link GitPatchFormatter}), caught
 * as the formatter writes them instead of parsed back.
 */
final class HunkCollector extends GitPatchFormatter {
    private final ByteArrayOutputStream out;
    private final List<Hunk> hunks = new ArrayList<>();
    private int oldStart;
    private int oldCount;
    private int newStart;
    private int newCount;
    private String header;
    private List<DiffLine> lines;
    private int oldLine;
    private int newLine;

    private HunkCollector(ByteArrayOutputStream out, Repository repo, boolean ignoreWhitespace) {
        super(out, repo, ignoreWhitespace);
        this.out = out;
    }

    /** One entry's hunks, and whether it is binary (then it has none). */
    record Result(List<Hunk> hunks, boolean binary) {
        int added() {
            return count(DiffLine.Kind.ADDED);
        }

        int deleted() {
            return count(DiffLine.Kind.DELETED);
        }

        private int count(DiffLine.Kind kind) {
            int n = 0;
            for (Hunk h : hunks) {
                for (DiffLine l : h.lines()) {
                    n += l.kind() == kind ? 1 : 0;
                }
            }
            return n;
        }
    }

    /** The hunks of one entry (its text read and diffed once). */
    static Result hunks(Repository repo, DiffEntry entry, boolean ignoreWhitespace) throws IOException {
        try (HunkCollector c = new HunkCollector(new ByteArrayOutputStream(), repo, ignoreWhitespace)) {
            c.format(entry);
            c.flush();
            c.finish();
            boolean binary = c.hunks.isEmpty()
                    && c.out.toString(StandardCharsets.ISO_8859_1).endsWith("\nBinary files differ\n");
            return new Result(c.hunks, binary);
        }
    }

    @Override
    protected void writeHunkHeader(int aStartLine, int aEndLine, int bStartLine, int bEndLine, String funcName)
            throws IOException {
        finish();
        out.reset();
        super.writeHunkHeader(aStartLine, aEndLine, bStartLine, bEndLine, funcName);
        flush();
        header = out.toString(StandardCharsets.UTF_8).stripTrailing();
        oldCount = aEndLine - aStartLine;
        newCount = bEndLine - bStartLine;
        oldStart = oldCount == 0 ? aStartLine : aStartLine + 1;
        newStart = newCount == 0 ? bStartLine : bStartLine + 1;
        oldLine = aStartLine + 1;
        newLine = bStartLine + 1;
        lines = new ArrayList<>();
    }

    @Override
    protected void writeContextLine(RawText text, int line) {
        lines.add(new DiffLine(DiffLine.Kind.CONTEXT, oldLine++, newLine++, text.getString(line)));
    }

    @Override
    protected void writeAddedLine(RawText text, int line) {
        lines.add(new DiffLine(DiffLine.Kind.ADDED, 0, newLine++, text.getString(line)));
    }

    @Override
    protected void writeRemovedLine(RawText text, int line) {
        lines.add(new DiffLine(DiffLine.Kind.DELETED, oldLine++, 0, text.getString(line)));
    }

    private void finish() {
        if (lines != null) {
            hunks.add(new Hunk(oldStart, oldCount, newStart, newCount, header, lines));
            lines = null;
        }
    }
}
