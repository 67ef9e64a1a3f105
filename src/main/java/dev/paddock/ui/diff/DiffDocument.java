package dev.paddock.ui.diff;

import dev.paddock.diff.DiffLine;
import dev.paddock.diff.FilePatch;
import dev.paddock.diff.Hunk;
import dev.paddock.ui.theme.Style;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.fxmisc.richtext.model.ReadOnlyStyledDocument;
import org.fxmisc.richtext.model.ReadOnlyStyledDocumentBuilder;
import org.fxmisc.richtext.model.SegmentOps;
import org.fxmisc.richtext.model.StyledSegment;

/**
 * What one pane of the diff view shows of a file: a paragraph per row (a hunk's header, a line, a filler that keeps
 * the two sides of the side-by-side mode level, a comment), each row's line numbers, and the styled document of
 * them all. Pure and immutable: built off the FX thread (syntax colouring a 3 MB file takes a while), shown by
 * {@link DiffArea}.
 */
final class DiffDocument {
    /** What a row is. */
    enum Kind {
        HUNK,
        CONTEXT,
        ADDED,
        DELETED,
        FILLER,
        COMMENT,
        NOTE
    }

    /**
     * One paragraph.
     *
     * @param oldLine the line's number in the old file, 0 when it has none
     * @param newLine the line's number in the new file, 0 when it has none
     */
    record Row(Kind kind, int oldLine, int newLine, String text) {}

    /** A comment shown under the line it is about. */
    record Note(boolean oldSide, int line, String text) {}

    private final List<Row> rows;
    private final ReadOnlyStyledDocument<Collection<String>, String, Collection<String>> doc;

    private DiffDocument(List<Row> rows, List<List<Syntax.Span>> spans) {
        this.rows = List.copyOf(rows);
        Collection<String> none = List.of();
        ReadOnlyStyledDocumentBuilder<Collection<String>, String, Collection<String>> b =
                new ReadOnlyStyledDocumentBuilder<>(SegmentOps.styledTextOps(), none);
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            List<StyledSegment<String, Collection<String>>> segs = new ArrayList<>();
            int at = 0;
            for (Syntax.Span s : spans.get(i)) {
                segs.add(new StyledSegment<>(
                        r.text().substring(at, at + s.length()), s.style() == null ? none : List.of(s.style())));
                at += s.length();
            }
            if (segs.isEmpty()) {
                segs.add(new StyledSegment<>("", none));
            }
            b.addParagraph(segs, List.of(paragraphStyle(r.kind())));
        }
        if (rows.isEmpty()) {
            b.addParagraph("", none, none);
        }
        this.doc = b.build();
    }

    List<Row> rows() {
        return rows;
    }

    ReadOnlyStyledDocument<Collection<String>, String, Collection<String>> document() {
        return doc;
    }

    /** The paragraph style class of a kind of row. */
    static String paragraphStyle(Kind k) {
        return switch (k) {
            case HUNK -> Style.DIFF_HUNK;
            case CONTEXT -> Style.DIFF_CONTEXT;
            case ADDED -> Style.DIFF_ADDED;
            case DELETED -> Style.DIFF_DELETED;
            case FILLER -> Style.DIFF_FILLER;
            case COMMENT -> Style.DIFF_COMMENT;
            case NOTE -> Style.DIFF_NOTE;
        };
    }

    /** A document of one note alone ("Binary file", "Loading …"). */
    static DiffDocument note(String text) {
        return new Builder(null).note(text).build();
    }

    /** What the file's patch has nothing to show of, or null when it has lines. */
    static String emptyReason(FilePatch p) {
        if (p.file().binary()) {
            return "Binary file: no text to show.";
        }
        if (p.tooLarge()) {
            return "Too large to show here ("
                    + String.format(java.util.Locale.ROOT, "%.1f", p.file().newSize() / 1e6)
                    + " MB): open it in your editor.";
        }
        if (p.hunks().isEmpty()) {
            return switch (p.file().kind()) {
                case RENAMED -> "Renamed from " + p.file().oldPath() + ", content unchanged.";
                case COPIED -> "Copied from " + p.file().oldPath() + ", content unchanged.";
                default -> "No change in its text (only its mode, or whitespace that is ignored).";
            };
        }
        return null;
    }

    /** The unified view of {@code p}: each hunk's lines in order, comments under the lines they are about. */
    static DiffDocument unified(FilePatch p, List<Note> notes) {
        String empty = emptyReason(p);
        if (empty != null) {
            return note(empty);
        }
        Syntax syntax = Syntax.of(p.file().path());
        Builder b = new Builder(syntax);
        for (Hunk h : p.hunks()) {
            b.hunk(h);
            for (DiffLine l : h.lines()) {
                Kind k = kindOf(l);
                b.line(k, l.oldLine(), l.newLine(), l.text());
                b.comments(notes, k == Kind.DELETED, k == Kind.DELETED ? l.oldLine() : l.newLine());
            }
        }
        return b.build();
    }

    /**
     * The side-by-side view of {@code p}: the old file's lines left, the new file's right, a run of deleted lines
     * beside the run of added lines that replaces it, fillers where one side has fewer.
     *
     * @return the left and the right document, with as many rows each
     */
    static DiffDocument[] sideBySide(FilePatch p, List<Note> notes) {
        String empty = emptyReason(p);
        if (empty != null) {
            return new DiffDocument[] {note(empty), note("")};
        }
        Syntax syntax = Syntax.of(p.file().path());
        Builder left = new Builder(syntax);
        Builder right = new Builder(syntax);
        for (Hunk h : p.hunks()) {
            left.hunk(h);
            right.hunk(h);
            List<DiffLine> lines = h.lines();
            int i = 0;
            while (i < lines.size()) {
                DiffLine l = lines.get(i);
                if (l.kind() == DiffLine.Kind.CONTEXT) {
                    left.line(Kind.CONTEXT, l.oldLine(), 0, l.text());
                    right.line(Kind.CONTEXT, 0, l.newLine(), l.text());
                    level(left, right, notes, l.oldLine(), l.newLine());
                    i++;
                    continue;
                }
                int d = i;
                while (d < lines.size() && lines.get(d).kind() == DiffLine.Kind.DELETED) {
                    d++;
                }
                int a = d;
                while (a < lines.size() && lines.get(a).kind() == DiffLine.Kind.ADDED) {
                    a++;
                }
                List<DiffLine> deleted = lines.subList(i, d);
                List<DiffLine> added = lines.subList(d, a);
                for (int r = 0; r < Math.max(deleted.size(), added.size()); r++) {
                    DiffLine o = r < deleted.size() ? deleted.get(r) : null;
                    DiffLine n = r < added.size() ? added.get(r) : null;
                    if (o != null) {
                        left.line(Kind.DELETED, o.oldLine(), 0, o.text());
                    } else {
                        left.filler();
                    }
                    if (n != null) {
                        right.line(Kind.ADDED, 0, n.newLine(), n.text());
                    } else {
                        right.filler();
                    }
                    level(left, right, notes, o == null ? 0 : o.oldLine(), n == null ? 0 : n.newLine());
                }
                i = Math.max(a, i + 1);
            }
        }
        return new DiffDocument[] {left.build(), right.build()};
    }

    /** Comments of the row just added on each side, then fillers so both sides stay level. */
    private static void level(Builder left, Builder right, List<Note> notes, int oldLine, int newLine) {
        int l = oldLine == 0 ? 0 : left.comments(notes, true, oldLine);
        int r = newLine == 0 ? 0 : right.comments(notes, false, newLine);
        for (int k = l; k < r; k++) {
            left.filler();
        }
        for (int k = r; k < l; k++) {
            right.filler();
        }
    }

    private static Kind kindOf(DiffLine l) {
        return switch (l.kind()) {
            case ADDED -> Kind.ADDED;
            case DELETED -> Kind.DELETED;
            case CONTEXT -> Kind.CONTEXT;
        };
    }

    /** Rows one after another, each line coloured by the scanner of its side. */
    private static final class Builder {
        private final List<Row> rows = new ArrayList<>();
        private final List<List<Syntax.Span>> spans = new ArrayList<>();
        private final Syntax.Scanner oldSide;
        private final Syntax.Scanner newSide;

        Builder(Syntax syntax) {
            this.oldSide = syntax == null ? null : syntax.scanner();
            this.newSide = syntax == null ? null : syntax.scanner();
        }

        Builder hunk(Hunk h) {
            // The hunk's header is the whole "@@ -a,b +c,d @@ function" line; only its numbers when there is none.
            String header = h.header() == null ? "" : h.header().strip();
            String text = header.startsWith("@@")
                    ? header
                    : "@@ -" + h.oldStart() + "," + h.oldCount() + " +" + h.newStart() + "," + h.newCount() + " @@"
                            + (header.isEmpty() ? "" : " " + header);
            plain(new Row(Kind.HUNK, 0, 0, text));
            oldSide.reset();
            newSide.reset();
            return this;
        }

        void line(Kind k, int oldLine, int newLine, String text) {
            String t = text == null ? "" : text.replace("\r", "");
            rows.add(new Row(k, oldLine, newLine, t));
            List<Syntax.Span> s;
            if (k == Kind.DELETED) {
                s = oldSide.line(t);
            } else if (k == Kind.ADDED) {
                s = newSide.line(t);
            } else {
                oldSide.line(t);
                s = newSide.line(t);
            }
            spans.add(s);
        }

        void filler() {
            plain(new Row(Kind.FILLER, 0, 0, ""));
        }

        Builder note(String text) {
            plain(new Row(Kind.NOTE, 0, 0, text));
            return this;
        }

        /** Adds the comments on {@code line} of a side, and says how many. */
        int comments(List<Note> notes, boolean oldSide, int line) {
            int n = 0;
            for (Note c : notes) {
                if (c.oldSide() == oldSide && c.line() == line) {
                    for (String l : c.text().split("\n", -1)) {
                        plain(new Row(Kind.COMMENT, 0, 0, "    " + l));
                        n++;
                    }
                }
            }
            return n;
        }

        private void plain(Row r) {
            rows.add(r);
            spans.add(
                    r.text().isEmpty()
                            ? List.of()
                            : List.of(new Syntax.Span(r.text().length(), null)));
        }

        DiffDocument build() {
            return new DiffDocument(rows, spans);
        }
    }
}
