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
 * Conflict classification speed (target: well under 200 ms for a 5,000-line file with 50 conflict hunks):
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
        BenchSupport.report(String.format(
                "conflict classify, 5,000-line file, 50 hunks (%s): cold %d ms, warm wall %s ms,"
                        + " thread CPU %s ms (target well under 200 ms), load %s",
                classes,
                coldMs,
                BenchSupport.summary(wallMs),
                BenchSupport.summary(cpuMs),
                PolicyThroughputBench.load()));
    }

    /**
     * The classification itself against {@code git merge-tree --write-tree} on the same merge (the target: at most
     * twice git's time), for an ordinary merge (the 5,000-line file above), a conflict in a 3 MB lockfile, and a
     * conflict next to a 5,000-file rename. Medians of 5 runs in this JVM (git is a process) after warm-up runs: 10,
     * as in {@link #fiveThousandLinesWithFiftyHunks} and as the long-running app is warm, or 2 when a run takes
     * over a second (JIT compilation is then a small part of it). The first (cold) run is reported too.
     */
    @Test
    void classificationAgainstGitMergeTree() throws Exception {
        record Case(String name, MergeScenario m) {}
        List<Case> cases = List.of(
                new Case("ordinary merge (5,000-line file, 50 hunks)", scenario()),
                new Case("3 MB lockfile conflict", lockfile(tmp.resolve("lock"))),
                new Case("conflict next to a 5,000-file rename", rename(tmp.resolve("rename"))));
        ConflictClassifier classifier = new ConflictClassifier();
        StringBuilder report =
                new StringBuilder("conflict classify against git merge-tree --write-tree (median of 5):");
        List<String> over = new ArrayList<>();
        for (Case c : cases) {
            List<Long> ours = new ArrayList<>();
            List<Long> git = new ArrayList<>();
            long cold = -1;
            int warmUps = 10;
            for (int i = 0; i < warmUps + 5; i++) {
                long s = System.nanoTime();
                ConflictReport r = classifier.classify(c.m().dir(), "main", MergeScenario.THEIRS);
                long classify = (System.nanoTime() - s) / 1_000_000;
                assertThat(r.files()).as(c.name()).isNotEmpty();
                if (i == 0) {
                    cold = classify;
                    warmUps = classify > 1000 ? 2 : warmUps;
                }
                s = System.nanoTime();
                dev.paddock.testing.TempRepo.Result g = dev.paddock.testing.TempRepo.run(
                        c.m().dir(), "merge-tree", "--write-tree", "main", MergeScenario.THEIRS);
                long mergeTree = (System.nanoTime() - s) / 1_000_000;
                assertThat(g.exitCode())
                        .as("git merge-tree finds the conflict: " + g.stderr())
                        .isEqualTo(1);
                if (i >= warmUps) {
                    ours.add(classify);
                    git.add(mergeTree);
                }
            }
            long o = median(ours);
            long g = median(git);
            report.append(String.format(
                    "%n  %s: classify %d ms (runs %s, cold %d ms), git merge-tree %d ms (runs %s)," + " ratio %.2f",
                    c.name(), o, ours, cold, g, git, (double) o / Math.max(1, g)));
            if (o > 2 * Math.max(g, 1)) {
                over.add(c.name());
            }
        }
        report.append(String.format("%n  load %s", PolicyThroughputBench.load()));
        BenchSupport.report(report.toString());
        assertThat(over).as("cases over twice git merge-tree's time").isEmpty();
    }

    private static long median(List<Long> xs) {
        List<Long> sorted = new ArrayList<>(xs);
        java.util.Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    /**
     * A package-lock.json of about 3 MB where ours bumps every third package and theirs every fourth (as two
     * regenerations do): every twelfth package conflicts, about 1,000 hunks.
     */
    private static MergeScenario lockfile(Path dir) {
        StringBuilder base =
                new StringBuilder("{\n  \"name\": \"shop\",\n  \"lockfileVersion\": 3,\n" + "  \"packages\": {\n");
        StringBuilder ours = new StringBuilder(base);
        StringBuilder theirs = new StringBuilder(base);
        for (int i = 0; base.length() < 3_000_000; i++) {
            String entry = "    \"node_modules/pkg-" + i + "\": {\n      \"version\": \"1.0." + i + "\",\n"
                    + "      \"resolved\": \"https://registry.example/pkg-" + i + "/-/pkg-" + i + "-1.0." + i
                    + ".tgz\",\n"
                    + "      \"integrity\": \"sha512-" + Integer.toHexString(i * 7919)
                    + "abcdefghijklmnopqrstuvwxyz0123456789\",\n"
                    + "      \"license\": \"MIT\"\n    },\n";
            base.append(entry);
            ours.append(i % 3 == 0 ? entry.replace("1.0." + i, "2.0." + i) : entry);
            theirs.append(i % 4 == 0 ? entry.replace("1.0." + i, "1.1." + i) : entry);
        }
        for (StringBuilder b : List.of(base, ours, theirs)) {
            b.append("    \"\": {}\n  }\n}\n");
        }
        return MergeScenario.in(dir)
                .file("package-lock.json", base.toString(), ours.toString(), theirs.toString())
                .build();
    }

    /** Ours moves 5,000 files from a/ to b/; both sides change one line of README.md. */
    private static MergeScenario rename(Path dir) {
        MergeScenario m = MergeScenario.in(dir);
        for (int i = 0; i < 5000; i++) {
            String text = "file " + i + "\n" + "line of file " + i + "\n";
            m.file("a/f" + i + ".txt", text, null, text);
            m.file("b/f" + i + ".txt", null, text, null);
        }
        return m.file("README.md", "title\nbody\n", "title\nours\n", "title\ntheirs\n")
                .build();
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
        return MergeScenario.in(tmp)
                .file("src/Totals.java", base.toString(), ours.toString(), theirs.toString())
                .build();
    }
}
