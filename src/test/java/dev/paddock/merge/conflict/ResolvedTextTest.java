package dev.paddock.merge.conflict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.merge.conflict.HunkChoice.Take;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ResolvedText}: the whole merged file from per-hunk choices. */
class ResolvedTextTest {
    // base: a b c d e ; ours: a B1 c d E1 ; theirs: a B2 c d E2
    private static ConflictFile file(String oursText) {
        ConflictHunk h0 = hunk(0, 1, "b", "B1", "B2", HunkClass.HUMAN, null);
        ConflictHunk h1 = hunk(1, 4, "e", "E1", "E2", HunkClass.IDENTICAL, List.of("E"));
        return new ConflictFile(
                "f.txt", FileConflictKind.CONTENT, "a\nb\nc\nd\ne\n", oursText, "a\nB2\nc\nd\nE2\n", List.of(h0, h1));
    }

    private static ConflictHunk hunk(
            int index, int line, String base, String ours, String theirs, HunkClass c, List<String> proposed) {
        LineRange r = new LineRange(line, line + 1);
        return new ConflictHunk(index, r, r, r, List.of(base), List.of(ours), List.of(theirs), c, proposed, "test");
    }

    @Test
    void cleanEditsOfBothSidesOutsideTheHunksAreKept() {
        // Only line 1 conflicts; ours changed line 3 and theirs line 5 cleanly (git merged those).
        ConflictHunk h0 = hunk(0, 1, "b", "B1", "B2", HunkClass.HUMAN, null);
        ConflictFile f = new ConflictFile(
                "f.txt",
                FileConflictKind.CONTENT,
                "a\nb\nc\nd\ne\nf\n",
                "a\nB1\nc\nD-ours\ne\nf\n",
                "a\nB2\nc\nd\ne\nF-theirs\n",
                List.of(h0));

        assertThat(ResolvedText.resolve(f, Map.of(0, HunkChoice.of(Take.THEIRS))))
                .isEqualTo("a\nB2\nc\nD-ours\ne\nF-theirs\n");
    }

    @Test
    void eachChoiceReplacesItsHunkAndTheCleanLinesStayOutside() {
        ConflictFile f = file("a\nB1\nc\nd\nE1\n");

        assertThat(ResolvedText.resolve(f, Map.of(0, HunkChoice.of(Take.THEIRS), 1, HunkChoice.of(Take.OURS))))
                .isEqualTo("a\nB2\nc\nd\nE1\n");
        assertThat(ResolvedText.resolve(
                        f, Map.of(0, HunkChoice.of(Take.OURS_THEN_THEIRS), 1, HunkChoice.of(Take.THEIRS_THEN_OURS))))
                .isEqualTo("a\nB1\nB2\nc\nd\nE2\nE1\n");
        assertThat(ResolvedText.resolve(f, Map.of(0, HunkChoice.of(Take.BASE), 1, HunkChoice.of(Take.PROPOSED))))
                .isEqualTo("a\nb\nc\nd\nE\n");
        assertThat(ResolvedText.resolve(
                        f, Map.of(0, HunkChoice.custom(List.of("x", "y")), 1, HunkChoice.custom(List.of()))))
                .isEqualTo("a\nx\ny\nc\nd\n");
    }

    @Test
    void aHunkWithoutAChoiceGetsConflictMarkers() {
        assertThat(ResolvedText.resolveLines(file("a\nB1\nc\nd\nE1\n"), Map.of(1, HunkChoice.of(Take.OURS))))
                .containsExactly(
                        "a",
                        "<<<<<<< ours",
                        "B1",
                        "||||||| base",
                        "b",
                        "=======",
                        "B2",
                        ">>>>>>> theirs",
                        "c",
                        "d",
                        "E1");
    }

    @Test
    void crlfAndAMissingFinalNewlineFollowOurs() {
        assertThat(ResolvedText.resolve(
                        file("a\r\nB1\r\nc\r\nd\r\nE1"),
                        Map.of(0, HunkChoice.of(Take.THEIRS), 1, HunkChoice.of(Take.THEIRS))))
                .isEqualTo("a\r\nB2\r\nc\r\nd\r\nE2");
    }

    @Test
    void badChoicesAreRefusedWithAReason() {
        ConflictFile f = file("a\nB1\nc\nd\nE1\n");

        assertThatThrownBy(() -> ResolvedText.resolve(f, Map.of(0, HunkChoice.of(Take.PROPOSED))))
                .hasMessageContaining("hunk 0 has no proposed resolution (human)");
        assertThatThrownBy(() -> ResolvedText.resolve(f, Map.of(2, HunkChoice.of(Take.OURS))))
                .hasMessageContaining("has no hunk 2");
        assertThatThrownBy(() -> HunkChoice.of(Take.CUSTOM)).hasMessageContaining("required");
        ConflictFile deleted = new ConflictFile("g.txt", FileConflictKind.DELETE_MODIFY, "x\n", null, "y\n", List.of());
        assertThatThrownBy(() -> ResolvedText.resolve(deleted, Map.of())).hasMessageContaining("delete_modify");
    }
}
