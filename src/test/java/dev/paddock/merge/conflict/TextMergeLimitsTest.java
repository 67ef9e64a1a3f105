package dev.paddock.merge.conflict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.MergeScenario;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lockfiles and files over {@link TextMergeLimits#LARGE_BYTES} are not merged as text in the JVM: git's own merge
 * ({@code git merge-tree}) says whether they conflict, a large file's conflict is one whole-file hunk, and the
 * repository is left as it was. Real repositories, real git.
 */
class TextMergeLimitsTest {
    @TempDir
    Path tmp;

    private final ConflictClassifier classifier = new ConflictClassifier();

    /** A file of about {@code bytes} bytes: numbered lines, with {@code edit} applied to line {@code at}. */
    private static String big(int bytes, int at, String edit) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; s.length() < bytes; i++) {
            s.append(i == at ? edit : "line " + i + " of a long generated listing")
                    .append('\n');
        }
        return s.toString();
    }

    @Test
    void aLockfileBothSidesChangedApartIsCleanAsGitMergesIt() throws Exception {
        String base = "a 1\nb 1\nc 1\nd 1\ne 1\n";
        MergeScenario m = MergeScenario.in(tmp)
                .file("yarn.lock", base, "a 2\nb 1\nc 1\nd 1\ne 1\n", "a 1\nb 1\nc 1\nd 1\ne 2\n")
                .build();

        assertThat(classifier.classify(m.dir(), "main", MergeScenario.THEIRS).files())
                .isEmpty();
    }

    @Test
    void aConflictingLockfileKeepsItsHunksAndIsRegenerated() throws Exception {
        MergeScenario m = MergeScenario.in(tmp)
                .file(
                        "Cargo.lock",
                        "name = \"a\"\nversion = \"1\"\n",
                        "name = \"a\"\nversion = \"2\"\n",
                        "name = \"a\"\nversion = \"3\"\n")
                .build();

        ConflictReport r = classifier.classify(m.dir(), "main", MergeScenario.THEIRS);

        assertThat(r.files()).hasSize(1);
        ConflictHunk h = r.files().get(0).hunks().get(0);
        assertThat(h.hunkClass()).isEqualTo(HunkClass.LOCKFILE);
        assertThat(h.ours()).isEqualTo(new LineRange(1, 2));
        assertThat(h.oursLines()).containsExactly("version = \"2\"");
    }

    @Test
    void aLargeFileConflictIsOneWholeFileHunkForAPerson() throws Exception {
        int size = (int) TextMergeLimits.LARGE_BYTES + 100_000;
        MergeScenario m = MergeScenario.in(tmp)
                .file("data/listing.txt", big(size, -1, ""), big(size, 500, "ours"), big(size, 500, "theirs"))
                .build();
        long objectsBefore = looseObjects(m);

        ConflictReport r = classifier.classify(m.dir(), "main", MergeScenario.THEIRS);

        assertThat(r.files()).hasSize(1);
        List<ConflictHunk> hunks = r.files().get(0).hunks();
        assertThat(hunks).hasSize(1);
        ConflictHunk h = hunks.get(0);
        assertThat(h.hunkClass()).isEqualTo(HunkClass.HUMAN);
        assertThat(h.ours().start()).isZero();
        assertThat(h.ours().end()).isEqualTo(h.oursLines().size()).isGreaterThan(20_000);
        assertThat(h.why()).contains("too large to compare line by line");
        assertThat(h.suggested()).isNull();
        assertThat(looseObjects(m))
                .as("git's merge wrote nothing into the repository")
                .isEqualTo(objectsBefore);
    }

    @Test
    void aLargeFileBothSidesChangedApartIsCleanAsGitMergesIt() throws Exception {
        int size = (int) TextMergeLimits.LARGE_BYTES + 100_000;
        String base = big(size, -1, "");
        String ours = base.replace("line 100 of", "line 100 (ours) of");
        String theirs = base.replace("line 20000 of", "line 20000 (theirs) of");
        MergeScenario m = MergeScenario.in(tmp)
                .file("data/listing.txt", base, ours, theirs)
                .build();

        assertThat(classifier.classify(m.dir(), "main", MergeScenario.THEIRS).files())
                .isEmpty();
    }

    private static long looseObjects(MergeScenario m) {
        String out = TempRepo.run(m.dir(), "count-objects", "-v").stdout();
        return out.lines()
                .filter(l -> l.startsWith("count:") || l.startsWith("in-pack:"))
                .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).strip()))
                .sum();
    }
}
