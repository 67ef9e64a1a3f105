package dev.paddock.ui.conflicts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.FileConflictKind;
import dev.paddock.merge.conflict.HunkClass;
import dev.paddock.testing.ConflictRepo;
import dev.paddock.testing.ConflictScenarios;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The three-way view's result model against real conflicts of a real repository, checked against JGit's merge. */
class FileResolutionTest {
    @TempDir
    Path temp;

    private ConflictFile service() {
        TempRepo repo = ConflictScenarios.serviceAndNotes(temp.resolve("repo"));
        ConflictReport r = ConflictRepo.report(repo);
        assertThat(r.files()).extracting(ConflictFile::path).containsExactly("notes.txt", "src/demo/Service.java");
        assertThat(r.files().get(0).kind()).isEqualTo(FileConflictKind.DELETE_MODIFY);
        return r.files().get(1);
    }

    @Test
    void theRealMergeHasFourHunksWithSafeAndHumanClasses() {
        ConflictFile f = service();
        assertThat(f.hunks())
                .extracting(h -> h.hunkClass())
                .containsExactly(HunkClass.IMPORT_BLOCK, HunkClass.HUMAN, HunkClass.WHITESPACE_ONLY, HunkClass.HUMAN);
    }

    @Test
    void takingOneSideEverywhereGivesWhatJGitsMergeGivesWithTheCleanEditsOfBothSides() {
        ConflictFile f = service();
        for (int side = 1; side <= 2; side++) {
            FileResolution r = new FileResolution(f);
            assertThat(r.unresolved()).isEqualTo(4);
            for (int h = 0; h < r.hunks(); h++) {
                r.choose(h, side == 1 ? HunkState.OURS : HunkState.THEIRS);
            }
            assertThat(r.unresolved()).isZero();
            assertThat(r.text())
                    .isEqualTo(ConflictRepo.resolvedTaking(f, side))
                    .contains("return 20;", "// agent B was here");
        }
    }

    @Test
    void bothInEitherOrderAndTheProposedResolutionReplaceTheHunksLines() {
        ConflictFile f = service();
        FileResolution r = new FileResolution(f);
        r.choose(0, HunkState.PROPOSED);
        r.choose(1, HunkState.THEIRS_THEN_OURS);
        r.choose(3, HunkState.OURS_THEN_THEIRS);
        assertThat(r.text())
                .contains(
                        "import java.util.List;\nimport java.util.Optional;\nimport java.util.Set;\n",
                        "        return \"Hi \" + name.strip();\n        return \"Hello, \" + name + \"!\";\n",
                        "        return \"Goodbye \" + name;\n        return \"See you \" + name;\n");
        assertThat(r.choice(2)).isEqualTo(HunkState.UNRESOLVED);
        assertThat(r.text().split("\n")[r.start(2)]).isEqualTo("    int retries = 3;"); // base's text until resolved
        assertThat(r.end(1) - r.start(1)).isEqualTo(2);
    }

    @Test
    void handEditsMoveLaterHunksAndResolveTheHunkTheyTouch() {
        ConflictFile f = service();
        FileResolution r = new FileResolution(f);
        int greet = r.start(1);
        int bye = r.start(3);
        // two lines inserted at the top of the file: every hunk moves down by two
        assertThat(r.edited(0, "", "// a\n// b\n")).isEmpty();
        assertThat(r.start(1)).isEqualTo(greet + 2);
        assertThat(r.start(3)).isEqualTo(bye + 2);
        // the greet hunk's line retyped by hand
        String text = r.text();
        int at = text.indexOf("        return \"Hello \" + name;");
        String old = "        return \"Hello \" + name;";
        assertThat(r.edited(at, old, "        return \"Hey \" + name;\n        // by hand"))
                .containsExactly(1);
        assertThat(r.choice(1)).isEqualTo(HunkState.EDITED);
        assertThat(r.end(1) - r.start(1)).isEqualTo(2);
        assertThat(r.start(3)).isEqualTo(bye + 3);
        assertThat(r.unresolved()).isEqualTo(3);
        // a later choice still replaces exactly its own lines
        r.choose(3, HunkState.THEIRS);
        assertThat(r.text())
                .contains("        return \"Hey \" + name;\n        // by hand\n    }\n")
                .contains("        return \"See you \" + name;\n    }\n")
                .doesNotContain("Bye \"");
    }

    @Test
    void aHunkAtTheEndOfAFileWithoutFinalLineBreakCanBeEmptied() {
        ConflictFile f = ConflictRepo.textFile(
                "a.txt", FileConflictKind.CONTENT, "one\ntwo\nthree", "one\ntwo\n3", "one\ntwo\nTHREE");
        FileResolution r = new FileResolution(f);
        assertThat(r.text()).isEqualTo("one\ntwo\nthree");
        assertThat(r.hunks()).isEqualTo(1);
        r.choose(0, HunkState.THEIRS);
        assertThat(r.text()).isEqualTo("one\ntwo\nTHREE");
        ConflictFile deleted = ConflictRepo.textFile("b.txt", FileConflictKind.CONTENT, "one\ntwo", "one", "one\n2");
        FileResolution d = new FileResolution(deleted);
        d.choose(0, HunkState.OURS);
        assertThat(d.text()).isEqualTo(ConflictRepo.resolvedTaking(deleted, 1).strip());
    }

    @Test
    void aReopenedResultFindsEachHunkBetweenTheLinesAroundItAndChoosingAgainReplacesExactlyThoseLines() {
        ConflictFile f = service();
        FileResolution before = new FileResolution(f);
        before.choose(0, HunkState.THEIRS);
        before.choose(1, HunkState.OURS_THEN_THEIRS);
        before.choose(3, HunkState.OURS);

        FileResolution r = FileResolution.reopened(f, before.text());

        assertThat(r.text()).isEqualTo(before.text());
        for (int h = 0; h < r.hunks(); h++) {
            assertThat(new int[] {r.start(h), r.end(h)})
                    .as("hunk " + h)
                    .containsExactly(before.start(h), before.end(h));
            assertThat(r.choice(h)).isEqualTo(HunkState.EDITED);
        }
        r.choose(1, HunkState.THEIRS);
        before.choose(1, HunkState.THEIRS);
        assertThat(r.text()).isEqualTo(before.text());
    }

    @Test
    void aReopenedResultEditedBetweenHunksGivesTheFirstHunkTheLinesThatDifferFromTheStartingResult() {
        ConflictFile f = service();
        FileResolution start = new FileResolution(f);
        String text = start.text().replace("class Service {", "final class Service {");
        int changed = (int) start.text()
                .substring(0, start.text().indexOf("class Service {"))
                .lines()
                .count();

        FileResolution r = FileResolution.reopened(f, text);

        assertThat(r.text()).isEqualTo(text);
        assertThat(new int[] {r.start(0), r.end(0)}).containsExactly(changed, changed + 1);
        for (int h = 1; h < r.hunks(); h++) {
            assertThat(r.start(h)).isEqualTo(r.end(h)).isEqualTo(changed + 1);
        }
        assertThat(r.unresolved()).isZero();
    }
}
