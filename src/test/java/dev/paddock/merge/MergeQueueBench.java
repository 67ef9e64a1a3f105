package dev.paddock.merge;

import dev.paddock.bench.BenchSupport;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark: a clean merge through the queue (no test command, so the test's own time is excluded:
 * enqueue, take, merge, compare-and-set of base, main checkout updated, entry recorded) against
 * {@code git merge --no-ff} of the same branch in the main checkout, each on a fresh copy of the same repository
 * (2,000 files; the branch changes 5 of them). Target: ratio of medians ≤ 1.5. Also reported: the same with a
 * test command of {@code true}, which takes the merge-worktree path (a checkout of the whole tree to test in).
 * A second case merges successive branches into one repository with a test command of {@code true}, as a running
 * Paddock does: the repository's kept merge worktree is reused from one entry to the next. Target: ≤ 3× {@code git
 * merge --no-ff} plus the test command's own time ({@code sh -c true} started as a process).
 */
class MergeQueueBench {
    private static final int FILES = 2_000;
    private static final int RUNS = 7;

    @TempDir
    Path tmp;

    @Test
    void queueAgainstPlainMergeNoFf() throws Exception {
        Path template = tmp.resolve("template");
        TempRepo repo = filesRepository(template);
        repo.git("checkout", "-q", "-b", "agent/bench");
        for (int i = 0; i < 5; i++) {
            repo.write(
                    "src/pkg" + i + "/File" + (i * 100) + ".java", "class File" + (i * 100) + " { int value = -1; }\n");
        }
        repo.commitAll("agent: 5 files");
        repo.git("checkout", "-q", "main");
        repo.commitFile("src/other.txt", "base moved on\n", "base moves on");

        List<Long> plain = new ArrayList<>();
        List<Long> queued = new ArrayList<>();
        List<Long> queuedWithWorktree = new ArrayList<>();
        // One store for all runs, as in a running Paddock; every run merges into a fresh copy of the repository.
        try (MergeRig rig = new MergeRig(tmp.resolve("rig"), copy(template, tmp.resolve("rig-repo")))) {
            for (int i = -2; i < RUNS; i++) { // runs -2 and -1 warm up (JIT, page cache, store)
                Path p = copy(template, tmp.resolve("plain" + i));
                long t0 = System.nanoTime();
                TempRepo.git(p, "merge", "--no-ff", "-q", "-m", "Merge agent/bench", "agent/bench");
                long tPlain = (System.nanoTime() - t0) / 1_000_000;
                long tQueue = throughQueue(rig, copy(template, tmp.resolve("queue" + i)), null);
                long tWt = throughQueue(rig, copy(template, tmp.resolve("wt" + i)), "true");
                if (i >= 0) {
                    plain.add(tPlain);
                    queued.add(tQueue);
                    queuedWithWorktree.add(tWt);
                }
            }
        }
        plain.sort(null);
        queued.sort(null);
        queuedWithWorktree.sort(null);
        BenchSupport.report("git merge --no-ff (2,000 files, 5 changed), ms: " + BenchSupport.summary(plain));
        BenchSupport.report("merge queue, no test command, ms: " + BenchSupport.summary(queued));
        BenchSupport.report(String.format(
                "merge queue / git merge --no-ff, ratio of medians: %.2f",
                queued.get(RUNS / 2) / (double) plain.get(RUNS / 2)));
        BenchSupport.report("merge queue with test command 'true' (merge worktree), ms: "
                + BenchSupport.summary(queuedWithWorktree));
        BenchSupport.report(String.format(
                "merge queue with 'true' / git merge --no-ff, ratio of medians: %.2f",
                queuedWithWorktree.get(RUNS / 2) / (double) plain.get(RUNS / 2)));
    }

    @Test
    void successiveEntriesWithATestCommandInOneRepository() throws Exception {
        Path template = tmp.resolve("template");
        TempRepo repo = filesRepository(template);
        int entries = RUNS + 3; // the first 3 warm up (JIT, page cache, store, the kept worktree's first checkout)
        for (int n = 0; n < entries; n++) {
            repo.git("checkout", "-q", "-b", "agent/bench-" + n, "main");
            for (int i = 0; i < 5; i++) {
                int file = n * 5 + i;
                repo.write(
                        "src/pkg" + (file / 100) + "/File" + file + ".java",
                        "class File" + file + " { int value = -" + n + "; }\n");
            }
            repo.commitAll("agent " + n + ": 5 files");
        }
        repo.git("checkout", "-q", "main");
        repo.commitFile("src/other.txt", "base moves on\n", "base moves on");

        List<Long> plain = new ArrayList<>();
        List<Long> queued = new ArrayList<>();
        List<Long> testOwn = new ArrayList<>();
        try (MergeRig rig = new MergeRig(tmp.resolve("rig2"), copy(template, tmp.resolve("rig2-repo")))) {
            Path one = copy(template, tmp.resolve("successive"));
            long repoId = rig.register(one);
            rig.service.configure(one, null, "true", 60_000L, 3);
            for (int n = 0; n < entries; n++) {
                Path p = copy(template, tmp.resolve("plain-s" + n));
                long t0 = System.nanoTime();
                TempRepo.git(p, "merge", "--no-ff", "-q", "-m", "Merge agent/bench-" + n, "agent/bench-" + n);
                long tPlain = (System.nanoTime() - t0) / 1_000_000;
                t0 = System.nanoTime();
                Process t = new ProcessBuilder("sh", "-c", "true").start();
                t.waitFor();
                long tTest = (System.nanoTime() - t0) / 1_000_000;
                t0 = System.nanoTime();
                MergeEntry e = rig.service.enqueueBranch(one, "agent/bench-" + n, "bench");
                rig.queue.runNext(repoId);
                long tQueue = (System.nanoTime() - t0) / 1_000_000;
                if (rig.entry(e.id()).state() != MergeState.MERGED) {
                    throw new IllegalStateException(
                            "not merged: " + rig.entry(e.id()).attempt().result());
                }
                if (n >= 3) {
                    plain.add(tPlain);
                    testOwn.add(tTest);
                    queued.add(tQueue);
                }
            }
        }
        plain.sort(null);
        queued.sort(null);
        testOwn.sort(null);
        long p = plain.get(RUNS / 2);
        long t = testOwn.get(RUNS / 2);
        BenchSupport.report(
                "successive entries: git merge --no-ff (2,000 files, 5 changed), ms: " + BenchSupport.summary(plain));
        BenchSupport.report("successive entries: the test's own time (sh -c true as a process), ms: "
                + BenchSupport.summary(testOwn));
        BenchSupport.report("successive entries through the queue with test command 'true', one repository, ms: "
                + BenchSupport.summary(queued));
        BenchSupport.report(String.format(
                "successive entries: (queue - test's own time) / git merge --no-ff, ratio of medians: %.2f"
                        + " (target <= 3)",
                (queued.get(RUNS / 2) - t) / (double) p));
    }

    /**
     * Time from enqueue to merged entry, ms (registering the copy is not timed). The rig's queue is not started:
     * {@code runNext} runs the entry on this thread at once, so no tick or poll interval is in the figure.
     */
    private static long throughQueue(MergeRig rig, Path repoCopy, String testCommand) throws Exception {
        long repoId = rig.register(repoCopy);
        rig.service.configure(repoCopy, null, testCommand == null ? "" : testCommand, 60_000L, 3);
        long t0 = System.nanoTime();
        MergeEntry e = rig.service.enqueueBranch(repoCopy, "agent/bench", "bench");
        rig.queue.runNext(repoId);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        if (rig.entry(e.id()).state() != MergeState.MERGED) {
            throw new IllegalStateException(
                    "not merged: " + rig.entry(e.id()).attempt().result());
        }
        return ms;
    }

    /** A repository of {@link #FILES} small files in 20 folders, committed on {@code main}. */
    private static TempRepo filesRepository(Path dir) throws Exception {
        TempRepo repo = TempRepo.init(dir).excludeWorktreesDir();
        for (int i = 0; i < FILES; i++) {
            Path f = repo.dir().resolve("src/pkg" + (i / 100) + "/File" + i + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, "class File" + i + " {\n    int value = " + i + ";\n}\n");
        }
        repo.commitAll(FILES + " files");
        return repo;
    }

    private static Path copy(Path from, Path to) throws Exception {
        Process p = new ProcessBuilder("cp", "-a", from.toString(), to.toString())
                .inheritIO()
                .start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("cp failed");
        }
        return to.toRealPath();
    }
}
