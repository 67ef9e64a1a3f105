package dev.paddock.ui.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.diff.ChangeKind;
import dev.paddock.diff.DiffLine;
import dev.paddock.diff.FileChange;
import dev.paddock.diff.FilePatch;
import dev.paddock.diff.Hunk;
import dev.paddock.ui.theme.Style;
import java.util.List;
import org.junit.jupiter.api.Test;

class DiffDocumentTest {
    private static DiffLine ctx(int o, int n, String t) {
        return new DiffLine(DiffLine.Kind.CONTEXT, o, n, t);
    }

    private static DiffLine del(int o, String t) {
        return new DiffLine(DiffLine.Kind.DELETED, o, 0, t);
    }

    private static DiffLine add(int n, String t) {
        return new DiffLine(DiffLine.Kind.ADDED, 0, n, t);
    }

    /** A.java: line 2 replaced by two lines, line 4 deleted. */
    private static FilePatch patch() {
        FileChange f = new FileChange("src/A.java", null, ChangeKind.MODIFIED, 2, 2, false, 100);
        Hunk h = new Hunk(
                1,
                5,
                1,
                5,
                "@@ -1,5 +1,5 @@ class A",
                List.of(
                        ctx(1, 1, "class A {"),
                        del(2, "  int x = 1;"),
                        add(2, "  int x = 2; // two"),
                        add(3, "  String s = \"s\";"),
                        ctx(3, 4, "  void f() {}"),
                        del(4, "  void g() {}"),
                        ctx(5, 5, "}")));
        return new FilePatch(f, List.of(h), false);
    }

    @Test
    void unifiedShowsEachLineOnceWithBothNumbers() {
        DiffDocument d = DiffDocument.unified(patch(), List.of());
        assertThat(d.rows())
                .extracting(DiffDocument.Row::kind)
                .containsExactly(
                        DiffDocument.Kind.HUNK,
                        DiffDocument.Kind.CONTEXT,
                        DiffDocument.Kind.DELETED,
                        DiffDocument.Kind.ADDED,
                        DiffDocument.Kind.ADDED,
                        DiffDocument.Kind.CONTEXT,
                        DiffDocument.Kind.DELETED,
                        DiffDocument.Kind.CONTEXT);
        assertThat(d.rows().get(0).text()).isEqualTo("@@ -1,5 +1,5 @@ class A");
        assertThat(d.rows().get(5)).isEqualTo(new DiffDocument.Row(DiffDocument.Kind.CONTEXT, 3, 4, "  void f() {}"));
        assertThat(d.document().getParagraphs()).hasSize(8);
        assertThat(d.document().getParagraph(2).getParagraphStyle()).containsExactly(Style.DIFF_DELETED);
        assertThat(d.document().getParagraph(3).getText()).isEqualTo("  int x = 2; // two");
    }

    @Test
    void javaLinesGetSyntaxColours() {
        DiffDocument d = DiffDocument.unified(patch(), List.of());
        var styles = d.document()
                .getParagraph(3)
                .getStyleSpans(0, d.document().getParagraph(3).length());
        List<String> seen = new java.util.ArrayList<>();
        styles.forEach(s -> seen.addAll(s.getStyle()));
        assertThat(seen).contains(Style.SYN_TYPE, Style.SYN_NUMBER, Style.SYN_COMMENT);
    }

    @Test
    void sideBySideKeepsBothSidesLevel() {
        DiffDocument[] sides = DiffDocument.sideBySide(patch(), List.of());
        DiffDocument left = sides[0];
        DiffDocument right = sides[1];
        assertThat(left.rows()).hasSameSizeAs(right.rows());
        // the deleted line beside the first added line, a filler beside the second
        assertThat(left.rows().get(2)).isEqualTo(new DiffDocument.Row(DiffDocument.Kind.DELETED, 2, 0, "  int x = 1;"));
        assertThat(right.rows().get(2).text()).isEqualTo("  int x = 2; // two");
        assertThat(left.rows().get(3).kind()).isEqualTo(DiffDocument.Kind.FILLER);
        assertThat(right.rows().get(3).text()).isEqualTo("  String s = \"s\";");
        // a deleted line alone: a filler on the right
        assertThat(left.rows().get(5).text()).isEqualTo("  void g() {}");
        assertThat(right.rows().get(5).kind()).isEqualTo(DiffDocument.Kind.FILLER);
        for (int i = 0; i < left.rows().size(); i++) {
            DiffDocument.Row l = left.rows().get(i);
            DiffDocument.Row r = right.rows().get(i);
            if (l.kind() == DiffDocument.Kind.CONTEXT) {
                assertThat(r.text()).as("row %d", i).isEqualTo(l.text());
            }
        }
    }

    @Test
    void commentsShowUnderTheirLinesAndSidesStayLevel() {
        List<DiffDocument.Note> notes = List.of(
                new DiffDocument.Note(false, 3, "» me: use a constant"),
                new DiffDocument.Note(true, 4, "» me: why remove g?\nit is used"));
        DiffDocument u = DiffDocument.unified(patch(), notes);
        int at = u.rows().indexOf(new DiffDocument.Row(DiffDocument.Kind.ADDED, 0, 3, "  String s = \"s\";"));
        assertThat(u.rows().get(at + 1).kind()).isEqualTo(DiffDocument.Kind.COMMENT);
        assertThat(u.rows().get(at + 1).text()).contains("use a constant");
        assertThat(u.rows())
                .filteredOn(r -> r.kind() == DiffDocument.Kind.COMMENT)
                .hasSize(3);

        DiffDocument[] sides = DiffDocument.sideBySide(patch(), notes);
        assertThat(sides[0].rows()).hasSameSizeAs(sides[1].rows());
        assertThat(sides[0].rows())
                .filteredOn(r -> r.kind() == DiffDocument.Kind.COMMENT)
                .hasSize(2);
        assertThat(sides[1].rows())
                .filteredOn(r -> r.kind() == DiffDocument.Kind.COMMENT)
                .hasSize(1);
    }

    @Test
    void binaryLargeAndPureRenamesSaySo() {
        FileChange bin = new FileChange("logo.png", null, ChangeKind.ADDED, 0, 0, true, 10);
        assertThat(DiffDocument.unified(new FilePatch(bin, List.of(), false), List.of())
                        .rows()
                        .get(0)
                        .text())
                .startsWith("Binary file");
        FileChange big = new FileChange("package-lock.json", null, ChangeKind.MODIFIED, 9, 9, false, 6_000_000);
        assertThat(DiffDocument.unified(new FilePatch(big, List.of(), true), List.of())
                        .rows()
                        .get(0)
                        .text())
                .contains("Too large", "6.0 MB");
        FileChange moved = new FileChange("b/x.txt", "a/x.txt", ChangeKind.RENAMED, 0, 0, false, 3);
        DiffDocument[] sides = DiffDocument.sideBySide(new FilePatch(moved, List.of(), false), List.of());
        assertThat(sides[0].rows().get(0).text()).isEqualTo("Renamed from a/x.txt, content unchanged.");
    }
}
