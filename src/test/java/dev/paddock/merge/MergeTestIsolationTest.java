package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.DockerContainers;
import dev.paddock.container.DockerEngine;
import dev.paddock.isolation.container.ContainerAgents;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge queue runs an entry's test command in the tier of its sandbox, its output kept: for a namespace
 * sandbox inside bubblewrap with the agent's isolation (CI installs bubblewrap; without it these fail, as the tier
 * is part of the product), for a worktree sandbox as a host process. A container sandbox whose Docker engine does
 * not answer fails clearly (no engine needed here; the real container runs are in {@link MergeTestContainerTest}).
 */
class MergeTestIsolationTest {
    @TempDir
    Path tmp;

    MergeRig rig;
    ContainerAgents deadEngine;

    @AfterEach
    void close() {
        if (rig != null) {
            rig.close();
        }
        if (deadEngine != null) {
            deadEngine.close();
        }
    }

    void open() throws Exception {
        rig = new MergeRig(tmp);
        rig.repo.commitFile("app.txt", "version 1\n", "Add the app");
    }

    /** The test's output: the log without Paddock's own lines. */
    List<String> printed(MergeEntry e) throws Exception {
        return Files.readAllLines(rig.queue.logFile(e.id())).stream()
                .filter(l -> !l.startsWith("=== "))
                .toList();
    }

    @Test
    void aNamespaceSandboxsTestThatWritesIntoTheMainCheckoutFailsAndBaseAndTheFileStayAsTheyWere() throws Exception {
        open();
        rig.branch("agent/ns", "a.txt", "a\n");
        SandboxRecords.done(rig, "ns-001", "agent/ns", Tier.NAMESPACE, false, null, null);
        Path appFile = rig.repo.dir().resolve("app.txt");
        rig.settings("echo escaped >> " + appFile, 30_000, 1);
        String before = rig.main();

        MergeEntry e = rig.service.enqueueSandbox("ns-001", "tester");
        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.FAILED);
        assertThat(after.attempt().result()).contains("the test command failed with exit code");
        assertThat(after.attempt().lastTestPassed()).isFalse();
        assertThat(rig.main()).isEqualTo(before);
        assertThat(Files.readString(appFile)).isEqualTo("version 1\n");
        assertThat(rig.sandboxes.find("ns-001").orElseThrow().state()).isEqualTo(SandboxState.AWAITING_HUMAN);
        assertThat(rig.recent())
                .anySatisfy(ev ->
                        assertThat(ev.message()).contains("running the test command in bubblewrap without network"));
    }

    @Test
    void inBubblewrapTheTestReadsWritesAndRunsGitInTheMergeWorktreeButNotHomeNetworkOrRefs() throws Exception {
        open();
        rig.branch("agent/ns", "a.txt", "from the branch\n");
        SandboxRecords.done(rig, "ns-002", "agent/ns", Tier.NAMESPACE, false, null, null);
        Path realHome = Path.of(System.getProperty("user.home"));
        Path homeFile = realHome.resolve("paddock-merge-escape-" + UUID.randomUUID());
        rig.settings(
                "set -e; cat a.txt; echo built > build.out; test \"$(cat build.out)\" = built; echo WT-OK;"
                        + " git status --porcelain | sed 's/^/STATUS:/'; git log -1 --format=LOG:%s HEAD^2;"
                        + " if touch " + homeFile + " 2>/dev/null; then echo WROTE-HOME; fi;"
                        + " if git update-ref refs/heads/main HEAD^ 2>/dev/null; then echo MOVED-BASE; fi;"
                        + " echo HOME=$HOME WT=$PADDOCK_MERGE_WORKTREE;"
                        + " cut -d: -f1 /proc/net/dev | tail -n +3 | tr -d ' ' | sed 's/^/NET:/'",
                30_000,
                1);
        String before = rig.main();

        MergeEntry e = rig.service.enqueueSandbox("ns-002", "tester");
        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state())
                .as("%s; log: %s", after.attempt().result(), printed(after))
                .isEqualTo(MergeState.MERGED);
        List<String> out = printed(after);
        assertThat(out)
                .contains(
                        "from the branch",
                        "WT-OK",
                        "STATUS:?? build.out",
                        "LOG:edit a.txt on agent/ns",
                        "HOME=/tmp/home WT=" + KeptWorktree.of(rig.repo.dir()));
        assertThat(out).doesNotContain("WROTE-HOME", "MOVED-BASE");
        assertThat(out.stream().filter(l -> l.startsWith("NET:")))
                .as("no network but loopback")
                .containsExactly("NET:lo");
        assertThat(Files.exists(homeFile)).as("nothing reached the real home").isFalse();
        assertThat(rig.repo.git("rev-parse", "main^1").strip())
                .as("base moved once, by the queue")
                .isEqualTo(before);
        assertThat(rig.repo.git("show", "main:a.txt")).isEqualTo("from the branch\n");
        assertThat(after.testRun().pid()).isNull();
    }

    @Test
    void aHangingTestInBubblewrapIsKilledAtItsTimeoutWithItsWholeTree() throws Exception {
        open();
        rig.branch("agent/hang", "h.txt", "h\n");
        SandboxRecords.done(rig, "ns-004", "agent/hang", Tier.NAMESPACE, false, null, null);
        String marker = "hang-" + UUID.randomUUID();
        rig.settings("echo STARTED; sleep 300 & wait; echo " + marker, 3_000, 1);
        String before = rig.main();

        MergeEntry e = rig.service.enqueueSandbox("ns-004", "tester");
        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.FAILED);
        assertThat(after.attempt().result()).contains("ran past its timeout of 3 s and was killed");
        assertThat(rig.main()).isEqualTo(before);
        assertThat(after.testRun().pid()).isNull();
        assertThat(ProcessHandle.allProcesses()
                        .filter(h -> h.info()
                                .arguments()
                                .map(a -> String.join(" ", a).contains(marker))
                                .orElse(false))
                        .toList())
                .as("bwrap and the shell inside are gone")
                .isEmpty();
        assertThat(Files.readString(rig.queue.logFile(e.id()))).contains("STARTED", "killed after the timeout");
    }

    @Test
    void aNamespaceSandboxGrantedNetworkKeepsItInItsTest() throws Exception {
        open();
        rig.branch("agent/net", "n.txt", "n\n");
        SandboxRecords.done(rig, "ns-003", "agent/net", Tier.NAMESPACE, true, null, null);
        rig.settings("cut -d: -f1 /proc/net/dev | tail -n +3 | tr -d ' ' | sed 's/^/NET:/'", 30_000, 1);

        MergeEntry e = rig.service.enqueueSandbox("ns-003", "tester");
        rig.drain();

        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
        List<String> hostInterfaces = Files.readAllLines(Path.of("/proc/net/dev")).stream()
                .skip(2)
                .map(l -> "NET:" + l.substring(0, l.indexOf(':')).strip())
                .toList();
        assertThat(printed(rig.entry(e.id())).stream().filter(l -> l.startsWith("NET:")))
                .containsExactlyInAnyOrderElementsOf(hostInterfaces);
    }

    @Test
    void aWorktreeSandboxsTestRunsAsAHostProcessWithTheRealHome() throws Exception {
        open();
        rig.branch("agent/wt", "w.txt", "w\n");
        SandboxRecords.done(rig, "wt-001", "agent/wt", Tier.WORKTREE, false, null, null);
        rig.settings("echo HOME=$HOME; cat " + rig.repo.dir().resolve("app.txt"), 30_000, 1);

        MergeEntry e = rig.service.enqueueSandbox("wt-001", "tester");
        rig.drain();

        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(printed(rig.entry(e.id()))).contains("HOME=" + System.getenv("HOME"), "version 1");
    }

    @Test
    void aContainerSandboxsTestWithADeadDockerEngineFailsSayingSoAndBaseIsUntouched() throws Exception {
        String nowhere = "unix://" + tmp.resolve("no-engine.sock");
        deadEngine = new ContainerAgents(() -> new DockerContainers(new DockerEngine(Clock.systemUTC(), nowhere)));
        Path repoDir = dev.paddock.testing.TempRepo.init(tmp.resolve("repo"))
                .excludeWorktreesDir()
                .dir();
        rig = new MergeRig(tmp, repoDir, deadEngine);
        rig.branch("agent/box", "b.txt", "b\n");
        SandboxRecords.done(rig, "box-001", "agent/box", Tier.CONTAINER, false, 128L << 20, "paddock-test:git");
        rig.settings("true", 30_000, 1);
        String before = rig.main();

        MergeEntry e = rig.service.enqueueSandbox("box-001", "tester");
        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).isEqualTo(MergeState.FAILED);
        assertThat(after.attempt().result())
                .startsWith("Cannot run the test command in a container:")
                .contains("the Docker engine at " + nowhere + " does not answer");
        assertThat(rig.main()).isEqualTo(before);
        assertThat(after.testRun().engineId()).isNull();
        assertThat(MergeGit.mergeRoot(rig.repo.dir()).toFile().list())
                .as("no merge worktree of the entry left; the one the repository keeps is cleaned before it is used")
                .containsExactly("kept");
        assertThat(Files.readString(rig.queue.logFile(e.id()))).contains("does not answer");
    }
}
