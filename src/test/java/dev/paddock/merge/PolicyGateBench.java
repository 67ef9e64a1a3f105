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
 * What the policy gate adds to every merge: its two checks (the branch's configuration files since its merge bases,
 * before the attempt; the candidate's against base, before base moves) on the 2,000-file repository of
 * {@link MergeQueueBench}, whose branch changes 5 files and no configuration. Reported, no target: compare with the
 * queue's own median there.
 */
class PolicyGateBench {
    private static final int FILES = 2_000;
    private static final int RUNS = 51;

    @TempDir
    Path tmp;

    @Test
    void bothChecksOfACleanBranch() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
        for (int i = 0; i < FILES; i++) {
            Path f = repo.dir().resolve("src/pkg" + (i / 100) + "/File" + i + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, "class File" + i + " {\n    int value = " + i + ";\n}\n");
        }
        repo.commitFile(".paddock/policy.json", "{}\n", FILES + " files and a policy");
        repo.git("checkout", "-q", "-b", "agent/bench");
        for (int i = 0; i < 5; i++) {
            repo.write(
                    "src/pkg" + i + "/File" + (i * 100) + ".java", "class File" + (i * 100) + " { int value = -1; }\n");
        }
        String theirs = repo.commitAll("agent: 5 files");
        repo.git("checkout", "-q", "main");
        String ours = repo.commitFile("src/other.txt", "base moved on\n", "base moves on");
        String candidate = repo.git(
                        "commit-tree",
                        repo.git("merge-tree", "--write-tree", ours, theirs)
                                .lines()
                                .findFirst()
                                .orElseThrow()
                                .strip(),
                        "-p",
                        ours,
                        "-p",
                        theirs,
                        "-m",
                        "merge")
                .strip();

        List<Long> micros = new ArrayList<>();
        try (MergeRig rig = new MergeRig(tmp.resolve("rig"), repo.dir())) {
            PolicyGate gate = rig.queue.policyGate();
            for (int i = -5; i < RUNS; i++) { // the first runs warm up (JIT, page cache)
                long t0 = System.nanoTime();
                List<String> before = gate.branchChanges(repo.dir(), ours, theirs);
                List<String> after = gate.changes(repo.dir(), ours, candidate);
                long us = (System.nanoTime() - t0) / 1_000;
                if (!before.isEmpty() || !after.isEmpty()) {
                    throw new IllegalStateException("the branch changes no configuration: " + before + after);
                }
                if (i >= 0) {
                    micros.add(us);
                }
            }
        }
        micros.sort(null);
        BenchSupport.report("policy gate, both checks of a clean branch (2,000 files, 5 changed), us: "
                + BenchSupport.summary(micros));
    }
}
