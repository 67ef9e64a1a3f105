package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.bench.corpus.CorpusReplay;
import dev.paddock.bench.corpus.CorpusRow;
import dev.paddock.bench.corpus.CorpusTexts;
import dev.paddock.merge.conflict.HunkClass;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Precision of the conflict classifier on real merges (docs/decisions/0010-what-safe-means-for-a-conflict-hunk.md):
 * every row of src/test/resources/conflict-corpus/hunks.tsv is re-done from the public repositories' mirrors and
 * replayed through the classifier, {@code kdiff3 --auto} and {@code git merge -X ignore-space-change}; each proposal
 * is compared, line for line, with what the person who made the merge committed. Reports per class, confidence,
 * language family and repository: proposals, correct, wrong, left to a person. Fails when the mirrors are missing
 * ({@code -Dpaddock.corpus.mirrors=DIR} or {@code PADDOCK_CORPUS_MIRRORS}, default {@code /work/.mirror}), when a
 * row is no longer found, when safe proposals are right less than 98% of the time, or when a class that applies
 * automatically is wrong even once. Needs {@code kdiff3} and {@code git} on the PATH. Per-row outcomes go to
 * target/bench/conflict-corpus-rows.tsv.
 */
class ConflictCorpusBench {
    private static final Path CORPUS = Path.of("src", "test", "resources", "conflict-corpus", "hunks.tsv");

    @Test
    void safeProposalsMatchWhatPeopleMerged() throws Exception {
        List<CorpusRow> rows = CorpusReplay.corpus(CORPUS);
        Path mirrors = CorpusTexts.mirrorsFolder();
        try (CorpusTexts texts = new CorpusTexts(mirrors)) {
            List<String> missing = texts.missing(rows);
            if (!missing.isEmpty()) {
                throw new IllegalStateException("The conflict corpus needs the mirrors of " + missing + " under "
                        + mirrors + " (each a bare git directory at " + mirrors + "/owner+name/repo): fetch them, or"
                        + " point -Dpaddock.corpus.mirrors (or PADDOCK_CORPUS_MIRRORS) at the folder that holds them");
            }
            Path work = Files.createTempDirectory("conflict-corpus");
            CorpusReplay.Result r = CorpusReplay.replay(rows, texts, true, work);
            String table = CorpusReplay.table(r, true);
            Path out = Path.of("target", "bench");
            Files.createDirectories(out);
            Files.write(out.resolve("conflict-corpus-rows.tsv"), CorpusReplay.rows(r), StandardCharsets.UTF_8);
            BenchSupport.report("conflict corpus (" + rows.size() + " hunks, "
                    + rows.stream().map(CorpusRow::repo).distinct().count() + " repositories):\n" + table);

            assertThat(r.unmatched())
                    .as("corpus rows the classifier no longer finds: build the corpus again")
                    .isEmpty();
            long safe = r.outcomes().stream()
                    .filter(o -> o.paddock() != CorpusReplay.Verdict.LEFT)
                    .count();
            long correct = r.outcomes().stream()
                    .filter(o -> o.paddock() == CorpusReplay.Verdict.CORRECT)
                    .count();
            assertThat(safe).as("safe proposals").isPositive();
            assertThat((double) correct / safe)
                    .as("precision of safe proposals")
                    .isGreaterThanOrEqualTo(0.98);
            for (HunkClass c : HunkClass.values()) {
                if (!c.appliesAutomatically()) {
                    continue;
                }
                List<CorpusReplay.Outcome> of = r.outcomes().stream()
                        .filter(o -> o.hunkClass().equals(c.id()) && o.paddock() != CorpusReplay.Verdict.LEFT)
                        .toList();
                assertThat(of)
                        .as(c.id().toLowerCase(Locale.ROOT) + " applies automatically: it needs corpus hunks")
                        .isNotEmpty();
                assertThat(of)
                        .as(c.id() + " applies automatically, so none of its proposals may be wrong")
                        .allMatch(o -> o.paddock() == CorpusReplay.Verdict.CORRECT);
            }
        }
    }
}
