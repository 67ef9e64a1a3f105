package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.DockerEngine;
import dev.paddock.events.EventDraft;
import dev.paddock.isolation.container.ContainerAgents;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A container sandbox's merge test runs in a container like its agent's, against the real Docker engine (CI sets
 * {@code PADDOCK_REQUIRE_DOCKER=1}: then a missing engine fails these tests instead of skipping them): the
 * sandbox's image and limits, the merge worktree at {@code /workspace}, output in the entry's test log, and no
 * container left afterwards, whether the test passed, ran past its timeout, or a killed Paddock left it running.
 */
class MergeTestContainerTest {
    static final long MEMORY = 96L << 20;

    @TempDir
    Path tmp;

    MergeRig rig;
    ContainerAgents containers;

    @BeforeEach
    void open() throws Exception {
        DockerTests.requireEngineWithGitImage();
        containers = new ContainerAgents(() -> new DockerContainers(new DockerEngine(Clock.systemUTC())));
        Path repoDir = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir().dir();
        rig = new MergeRig(tmp, repoDir, containers);
        rig.repo.commitFile("app.txt", "version 1\n", "Add the app");
    }

    @AfterEach
    void close() {
        if (rig != null) {
            DockerTests.removeAll("paddock.repo=" + rig.repo.dir());
            rig.close();
        }
        if (containers != null) {
            containers.close();
        }
    }

    List<String> printed(MergeEntry e) throws Exception {
        return Files.readAllLines(rig.queue.logFile(e.id())).stream()
                .filter(l -> !l.startsWith("=== "))
                .toList();
    }

    List<String> leftovers() {
        return DockerTests.containers("paddock.repo=" + rig.repo.dir());
    }

    @Test
    void theTestSeesItIsInTheSandboxsContainerWithItsMemoryLimitAndTheEntryMerges() throws Exception {
        rig.branch("agent/box", "b.txt", "from the box\n");
        SandboxRecords.done(rig, "box-001", "agent/box", Tier.CONTAINER, false, MEMORY, DockerTests.GIT_IMAGE);
        rig.settings(
                "set -e; test -f /.dockerenv; echo IN-CONTAINER; echo PWD=$(pwd) WT=$PADDOCK_MERGE_WORKTREE;"
                        + " echo MEM:$(cat /sys/fs/cgroup/memory.max 2>/dev/null"
                        + " || cat /sys/fs/cgroup/memory/memory.limit_in_bytes); cat b.txt; echo built > build.out;"
                        + " git status --porcelain | sed 's/^/STATUS:/'; git log -1 --format=LOG:%s HEAD^2;"
                        + " cut -d: -f1 /proc/net/dev | tail -n +3 | tr -d ' ' | sed 's/^/NET:/'",
                60_000, 1);
        String before = rig.main();

        MergeEntry e = rig.service.enqueueSandbox("box-001", "tester");
        rig.drain();

        MergeEntry after = rig.entry(e.id());
        List<String> out = printed(after);
        assertThat(after.state())
                .as("%s; log: %s", after.attempt().result(), out)
                .isEqualTo(MergeState.MERGED);
        assertThat(out)
                .contains(
                        "IN-CONTAINER",
                        "PWD=/workspace WT=/workspace",
                        "MEM:" + MEMORY,
                        "from the box",
                        "STATUS:?? build.out",
                        "LOG:edit b.txt on agent/box");
        assertThat(out.stream().filter(l -> l.startsWith("NET:")))
                .as("no network but loopback")
                .containsExactly("NET:lo");
        assertThat(rig.repo.git("rev-parse", "main^1").strip()).isEqualTo(before);
        assertThat(rig.repo.git("show", "main:b.txt")).isEqualTo("from the box\n");
        assertThat(after.testRun().engineId()).isNull();
        assertThat(leftovers()).as("the test's container is removed").isEmpty();
        assertThat(rig.recent())
                .anySatisfy(ev -> assertThat(ev.message())
                        .contains("running the test command in a" + " container of " + DockerTests.GIT_IMAGE
                                + " (2 CPUs, 96 MiB, 512 processes, no network)"));
    }

    @Test
    void aHangingTestInAContainerIsKilledAtItsTimeoutAndNoContainerRemains() throws Exception {
        rig.branch("agent/hang", "h.txt", "h\n");
        SandboxRecords.done(rig, "box-002", "agent/hang", Tier.CONTAINER, false, MEMORY, DockerTests.GIT_IMAGE);
        rig.settings("echo STARTED; sleep 300", 4_000, 1);
        String before = rig.main();
        MergeEntry e = rig.service.enqueueSandbox("box-002", "tester");
        Thread worker = new Thread(
                () -> {
                    try {
                        rig.drain();
                    } catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                },
                "test-merge-worker");
        worker.start();

        String recorded = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (recorded == null && System.nanoTime() < deadline) {
            recorded = rig.entry(e.id()).testRun().engineId();
            Thread.sleep(50);
        }
        assertThat(recorded)
                .as("the running container is recorded on the entry")
                .isNotNull();
        JsonNode c = DockerTests.inspect(recorded);
        assertThat(c.get("Config")
                        .get("Labels")
                        .get(DockerContainers.MERGE_LABEL)
                        .asText())
                .isEqualTo(Long.toString(e.id()));
        assertThat(c.get("Config").get("Labels").has(DockerContainers.SANDBOX_LABEL))
                .isFalse();
        assertThat(c.get("HostConfig").get("Memory").asLong()).isEqualTo(MEMORY);
        assertThat(c.get("HostConfig").get("NetworkMode").asText()).isEqualTo("none");
        worker.join(60_000);

        assertThat(worker.isAlive()).isFalse();
        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.FAILED);
        assertThat(after.attempt().result()).contains("ran past its timeout of 4 s and was killed");
        assertThat(after.testRun().engineId()).isNull();
        assertThat(rig.main()).isEqualTo(before);
        assertThat(leftovers()).as("no container remains").isEmpty();
        assertThat(Files.readString(rig.queue.logFile(e.id()))).contains("STARTED", "killed after the timeout");
    }

    @Test
    void cancellingAnEntryWhoseTestRunsInAContainerKillsAndRemovesTheContainer() throws Exception {
        rig.branch("agent/stop", "s.txt", "s\n");
        SandboxRecords.done(rig, "box-004", "agent/stop", Tier.CONTAINER, false, MEMORY, DockerTests.GIT_IMAGE);
        rig.settings("sleep 300", 120_000, 3);
        String before = rig.main();
        MergeEntry e = rig.service.enqueueSandbox("box-004", "tester");
        Thread worker = new Thread(
                () -> {
                    try {
                        rig.queue.runNext(rig.repoId);
                    } catch (Exception ex) {
                        throw new IllegalStateException(ex);
                    }
                },
                "test-merge-worker");
        worker.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (rig.entry(e.id()).testRun().engineId() == null && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(leftovers()).hasSize(1);

        rig.service.cancel(e.id(), "dave");
        worker.join(30_000);

        assertThat(worker.isAlive()).isFalse();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.CANCELLED);
        assertThat(rig.main()).isEqualTo(before);
        assertThat(leftovers()).as("the cancelled test's container is removed").isEmpty();
    }

    @Test
    void aTestContainerAKilledPaddockLeftRunningIsRemovedWhenTheQueueRecovers() throws Exception {
        rig.branch("agent/left", "l.txt", "l\n");
        SandboxRecords.done(rig, "box-003", "agent/left", Tier.CONTAINER, false, MEMORY, DockerTests.GIT_IMAGE);
        MergeEntry e = rig.service.enqueueSandbox("box-003", "tester");
        // What a Paddock killed during the testing step leaves: the entry running, its container recorded and alive.
        DockerTests.Result run = DockerTests.docker(
                "run",
                "-d",
                "--label",
                DockerContainers.MERGE_LABEL + "=" + e.id(),
                "--label",
                DockerContainers.REPO_LABEL + "=" + rig.repo.dir(),
                DockerTests.GIT_IMAGE,
                "sleep",
                "300");
        assertThat(run.code()).as(run.out()).isZero();
        String id = run.out().strip();
        assertThat(rig.store.move(
                        e.id(),
                        MergeState.QUEUED,
                        MergeState.RUNNING,
                        MergeChange.of(MergeChange.STEP, MergeStep.TESTING).set(MergeChange.TEST_CONTAINER, id),
                        EventDraft.of(rig.repoId, "box-003", "merge.testing", "testing", java.util.Map.of())))
                .isTrue();

        rig.queue.recover();

        assertThat(leftovers()).as("the leftover test container is removed").isEmpty();
        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.QUEUED);
        assertThat(after.attempt().attempts()).isZero();
    }
}
