package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.EngineEntry;
import dev.paddock.container.EngineRegistry;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.PrivateDockerd;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A container sandbox on the TLS test engine ({@link PrivateDockerd#startTls()}, a remote engine: workspace delivered
 * into a volume, programs installed, broker channel opened) against one on the local engine (bind mounts), same
 * image, through a running Paddock: created to its container running on its engine, and created to the sandbox
 * RUNNING. Then the time from the agent's commit (read from {@code /proc/uptime} inside, the same kernel) to that
 * commit on the local sandbox branch (the agent exits right after it; the bring-back runs at its end).
 */
class RemoteSandboxBench {
    static final int RUNS = 3;

    @TempDir
    Path tmp;

    @Test
    void remoteAgainstLocalStartAndCommitToLocalBranch() throws Exception {
        DockerTests.requireEngineWithGitImage();
        try (PrivateDockerd far = PrivateDockerd.startTls()) {
            far.load(DockerTests.GIT_IMAGE);
            try (BrokerRig rig = BrokerRig.start(tmp.resolve("home"))) {
                EngineRegistry.in(rig.home().dir())
                        .add(new EngineEntry("far", far.host(), far.tlsDir(), null, Map.of()));
                TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
                repo.commitFile("README.md", "hello\n", "Start");
                String command = "sleep 2 && echo x > made.txt && git add made.txt"
                        + " && git -c user.name=A -c user.email=a@x.invalid commit -qm 'agent commit'"
                        + " && cut -d' ' -f1 /proc/uptime > committed-at";
                List<long[]> local = new ArrayList<>();
                List<long[]> remote = new ArrayList<>();
                List<Long> back = new ArrayList<>();
                for (int i = 0; i < RUNS; i++) {
                    local.add(start(rig, repo, "Local " + i, command, "local", null)
                            .times());
                    Run r = start(rig, repo, "Remote " + i, command, "far", far);
                    remote.add(r.times());
                    back.add(commitToLocalBranch(rig, r.sandbox()));
                }
                BenchSupport.report(line("local engine (bind mounts)", local));
                BenchSupport.report(line("remote TLS engine (volume + channel)", remote));
                BenchSupport.report(String.format(
                        Locale.ROOT,
                        "remote sandbox: agent's commit to the commit on the local branch (the agent exits right"
                                + " after it, bring-back at its end): %s ms",
                        back));
            }
        }
    }

    private record Run(SandboxRecord sandbox, long[] times) {}

    private static String line(String where, List<long[]> runs) {
        return String.format(
                Locale.ROOT,
                "container sandbox on %s, busybox+git: created to container running %s ms; created to RUNNING %s"
                        + " ms (%d runs)",
                where,
                runs.stream().map(t -> t[0]).toList(),
                runs.stream().map(t -> t[1]).toList(),
                runs.size());
    }

    private static Run start(
            BrokerRig rig, TempRepo repo, String task, String command, String engine, PrivateDockerd far)
            throws Exception {
        long t0 = System.nanoTime();
        SandboxRecord s = rig.host()
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, command)
                        .tier(Tier.CONTAINER)
                        .engine(engine)
                        .image(DockerTests.GIT_IMAGE)
                        .leaseMs(600_000L)
                        .maxRetries(0)
                        .build());
        long[] times = new long[2];
        BrokerRig.await(task + " container", () -> {
            String label = "label=paddock.sandbox=" + s.id();
            String out = far != null
                    ? far.docker("ps", "-aq", "--filter", label).out()
                    : DockerTests.docker("ps", "-aq", "--filter", label).out();
            return !out.isBlank();
        });
        times[0] = (System.nanoTime() - t0) / 1_000_000;
        BrokerRig.await(task + " running", () -> state(rig, s.id()) != SandboxState.PENDING);
        times[1] = (System.nanoTime() - t0) / 1_000_000;
        return new Run(s, times);
    }

    /** Waits for the sandbox's commit on its local branch; ms from the agent's commit (its uptime) to then. */
    private static long commitToLocalBranch(BrokerRig rig, SandboxRecord s) throws Exception {
        Path wt = rig.host()
                .wiring()
                .sandboxes()
                .find(s.id())
                .orElseThrow()
                .workspace()
                .worktree();
        String branch = TempRepo.git(wt, "rev-parse", "--abbrev-ref", "HEAD").strip();
        Path common = Path.of(TempRepo.git(wt, "rev-parse", "--git-common-dir").strip());
        Path ref = (common.isAbsolute() ? common : wt.resolve(common)).resolve("refs/heads/" + branch);
        String before = Files.readString(ref).strip();
        long deadline = System.nanoTime() + 60_000_000_000L;
        double seenAt;
        while (true) {
            String now = Files.isRegularFile(ref) ? Files.readString(ref).strip() : before;
            if (!now.equals(before)) {
                seenAt = uptime();
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the commit of " + s.id() + " never reached " + branch);
            }
            Thread.sleep(5);
        }
        BrokerRig.await(s.id() + " ended", () -> {
            SandboxState st = state(rig, s.id());
            return st != SandboxState.RUNNING && st != SandboxState.PENDING;
        });
        assertThat(TempRepo.git(wt, "log", "-1", "--format=%s").strip()).isEqualTo("agent commit");
        double committedAt =
                Double.parseDouble(Files.readString(wt.resolve("committed-at")).strip());
        return Math.round((seenAt - committedAt) * 1000);
    }

    private static double uptime() throws Exception {
        return Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
    }

    private static SandboxState state(BrokerRig rig, String id) {
        try {
            return rig.host()
                    .wiring()
                    .sandboxes()
                    .find(id)
                    .map(SandboxRecord::state)
                    .orElse(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
