package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.merge.conflict.ConflictClassifier;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.HunkClass;
import dev.paddock.testing.MergeScenario;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conflict classification speed (issue 6: well under 200 ms for a 5,000-line file with 50 conflict hunks):
 * {@link ConflictClassifier#classify} end to end (open the repository, in-core recursive merge, rename
 * detection, hunks, classes), in this JVM, on a real repository. The 50 hunks cycle through human, whitespace,
 * non-overlapping (adjacent lines), import and signature cases. Reports the first (cold) call and the median
 * of 30 calls after 10 warm-up calls.
 */
class ConflictClassifierBench {
    @TempDir
    Path tmp;

    @Test
    void fiveThousandLinesWithFiftyHunks() throws Exception {
        MergeScenario m = scenario();
        ConflictClassifier classifier = new ConflictClassifier();

        long t0 = System.nanoTime();
        ConflictReport first = classifier.classify(m.dir(), "main", MergeScenario.THEIRS);
        long coldMs = (System.nanoTime() - t0) / 1_000_000;
        List<ConflictHunk> hunks = first.files().get(0).hunks();
        assertThat(hunks).hasSize(50);
        Map<HunkClass, Integer> classes = new EnumMap<>(HunkClass.class);
        hunks.forEach(h -> classes.merge(h.hunkClass(), 1, Integer::sum));
        for (int i = 0; i < 10; i++) {
            classifier.classify(m.dir(), "main", MergeScenario.THEIRS);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<Long> wallMs = new ArrayList<>();
        List<Long> cpuMs = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            long cpu = threads.getCurrentThreadCpuTime();
            long s = System.nanoTime();
            classifier.classify(m.dir(), "main", MergeScenario.THEIRS);
            wallMs.add((System.nanoTime() - s) / 1_000_000);
            cpuMs.add((threads.getCurrentThreadCpuTime() - cpu) / 1_000_000);
        }
        BenchSupport.report(String.format("conflict classify, 5,000-line file, 50 hunks (%s): cold %d ms, warm wall %s ms,"
                + " thread CPU %s ms (target well under 200 ms), load %s", classes, coldMs, BenchSupport.summary(wallMs),
                BenchSupport.summary(cpuMs), PolicyThroughputBench.load()));
    }

    private MergeScenario scenario() {
        StringBuilder base = new StringBuilder();
        StringBuilder ours = new StringBuilder();
        StringBuilder theirs = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            String line = "        total += item" + i + ".price() * " + (i % 7) + ";";
            String o = line;
            String t = line;
            int hunk = i / 100;
            if (i % 100 == 50) {
                switch (hunk % 5) {
                    case 0 -> {
                        o = line.replace("* ", "* 2 * ");
                        t = line.replace("* ", "* 3 * ");
                    }
                    case 1 -> {
                        o = line.replace("        ", "\t\t");
                        t = line.replace(" += ", "  +=  ");
                    }
                    case 2 -> o = line + " // ours";
                    case 3 -> {
                        line = "import shop.item.Item" + i + ";";
                        o = line + "\nimport shop.ours.Ours" + i + ";";
                        t = line + "\nimport shop.theirs.Theirs" + i + ";";
                    }
                    default -> {
                        line = "    int price" + i + "(int qty) {";
                        o = "    long price" + i + "(int qty) {";
                        t = line + " // theirs";
                    }
                }
            } else if (i % 100 == 51 && hunk % 5 == 2) {
                t = line + " // theirs";
            }
            base.append(line).append('\n');
            ours.append(o).append('\n');
            theirs.append(t).append('\n');
        }
        return MergeScenario.in(tmp).file("src/Totals.java", base.toString(), ours.toString(), theirs.toString())
                .build();
    }
}
