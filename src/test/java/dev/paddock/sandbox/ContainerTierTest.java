package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Wiring;
import dev.paddock.container.ResourceLimits;
import dev.paddock.events.Event;
import dev.paddock.isolation.LinkedWorktree;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container tier for real, against the Docker engine (CI starts one and sets
 * {@code PADDOCK_REQUIRE_DOCKER=1}: then a missing engine fails these tests instead of skipping them). Agents
 * run in {@code paddock-test:git} (busybox and git), with the limits, mounts and user of {@link ContainerPlan}.
 */
class ContainerTierTest {
    @TempDir
    Path tmp;

    TempRepo repo;
    Wiring wiring;

    @BeforeEach
    void open() throws Exception {
        DockerTests.requireEngineWithGitImage();
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("src/app.txt", "version 1\n", "Add the app");
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        wiring.setApiUrl("http://127.0.0.1:1");
        wiring.repoService().setContainerImage(repo.dir(), DockerTests.GIT_IMAGE);
    }

    @AfterEach
    void close() {
        if (wiring != null) {
            wiring.close();
        }
        if (repo != null) {
            DockerTests.removeAll("paddock.repo=" + repo.dir());
        }
    }

    SandboxRecord create(String task, String command, ResourceLimits limits) throws Exception {
        return wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, command)
                        .tier(Tier.CONTAINER)
                        .leaseMs(120_000L)
                        .maxRetries(0)
                        .limits(limits)
                        .build());
    }

    SandboxRecord run(String task, String command, SandboxState until) throws Exception {
        return tickUntil(create(task, command, null).id(), until);
    }

    SandboxRecord tickUntil(String id, SandboxState until) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        SandboxRecord r = wiring.sandboxService().find(id);
        while (r.state() != until) {
            assertThat(System.nanoTime())
                    .as(
                            "%s reaches %s; now %s (%s), log:%n%s",
                            id,
                            until.id(),
                            r.state().id(),
                            r.run().lastError(),
                            wiring.sandboxService().logTail(id))
                    .isLessThan(deadline);
            wiring.supervisor().tick();
            Thread.sleep(100);
            r = wiring.sandboxService().find(id);
        }
        return r;
    }

    /** What the agent printed: the log without Paddock's header lines. */
    List<String> printed(String id) throws Exception {
        return wiring.sandboxService()
                .logTail(id)
                .lines()
                .filter(l -> !l.startsWith("=== "))
                .toList();
    }

    void awaitNoContainer(String id) throws Exception {
        SandboxRig.await(
                "the container of " + id + " is removed",
                () -> DockerTests.containers("paddock.sandbox=" + id).isEmpty(),
                Duration.ofSeconds(30));
    }

    @Test
    void anAgentInAContainerCommitsInItsWorktreeAndTheCommitIsOnTheBranchOnTheHost() throws Exception {
        SandboxRecord s = run(
                "Write in a container",
                "echo inside > inside.txt && git add inside.txt"
                        + " && git commit -q -m 'Written in a container' && echo committed > \"$PADDOCK_HEARTBEAT_FILE\""
                        + " && echo WORKTREE=$PADDOCK_WORKTREE PWD=$(pwd)",
                SandboxState.DONE);

        assertThat(repo.git("log", "-1", "--format=%s %an", s.workspace().branch())
                        .strip())
                .isEqualTo("Written in a container " + SandboxCreator.agentName(s.id()));
        assertThat(Files.readString(s.workspace().worktree().resolve("inside.txt")))
                .isEqualTo("inside\n");
        assertThat(Files.getAttribute(
                        s.workspace().worktree().resolve("inside.txt"), "unix:uid", LinkOption.NOFOLLOW_LINKS))
                .as("the agent's files are the worktree owner's")
                .isEqualTo(Files.getAttribute(s.workspace().worktree(), "unix:uid", LinkOption.NOFOLLOW_LINKS));
        assertThat(repo.git("-C", s.workspace().worktree().toString(), "status", "--porcelain")
                        .strip())
                .isEmpty();
        assertThat(printed(s.id()))
                .contains("WORKTREE=" + s.workspace().worktree() + " PWD="
                        + s.workspace().worktree());
        assertThat(s.run().exitCode()).isZero();
        assertThat(wiring.sandboxService().history(s.id()))
                .extracting(Event::kind)
                .containsSubsequence("sandbox.created", "sandbox.running", "sandbox.done");
        awaitRemovedAfterTheRun(s.id());
    }

    @Test
    void gitWorksInAnInitialisedSubmoduleAndItsCommitsReachTheHost() throws Exception {
        TempRepo library = TempRepo.init(tmp.resolve("lib-origin"));
        repo.addSubmodule(library, "lib");
        SandboxRecord created = create(
                "Fix the library",
                "cd \"$PADDOCK_WORKTREE\" && git status --porcelain"
                        + " && echo fixed >> lib/README.md && git -C lib commit -q -a -m 'Fixed in a container'"
                        + " && git add lib && git commit -q -m 'Use the fixed library' && echo GIT-OK;"
                        + " echo WORKTREE=$PADDOCK_WORKTREE PWD=$(pwd)",
                null);
        TempRepo.initSubmodules(created.workspace().worktree()); // on the host, before the agent starts

        SandboxRecord s = tickUntil(created.id(), SandboxState.DONE);

        assertThat(printed(s.id()))
                .as(wiring.sandboxService().logTail(s.id()))
                .contains("GIT-OK")
                .contains("WORKTREE=" + s.workspace().worktree() + " PWD="
                        + s.workspace().worktree());
        assertThat(repo.git("log", "-1", "--format=%s", s.workspace().branch()).strip())
                .isEqualTo("Use the fixed library");
        Path lib = s.workspace().worktree().resolve("lib");
        assertThat(TempRepo.git(lib, "log", "-1", "--format=%s").strip()).isEqualTo("Fixed in a container");
        assertThat(repo.git("ls-tree", s.workspace().branch(), "lib")).contains(TempRepo.revParse(lib, "HEAD"));
        assertThat(TempRepo.git(s.workspace().worktree(), "status", "--porcelain")
                        .strip())
                .as("git on the host agrees")
                .isEmpty();
        awaitRemovedAfterTheRun(s.id());
    }

    private void awaitRemovedAfterTheRun(String id) throws Exception {
        awaitNoContainer(id);
        SandboxRig.await(
                "the record forgets the container",
                () -> {
                    try {
                        return wiring.sandboxService().find(id).runRef().engineId() == null;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                Duration.ofSeconds(10));
    }

    @Test
    void theLimitsUserLabelsAndIsolationShowInInspectAndStopPlusRemoveLeaveNoContainer() throws Exception {
        ResourceLimits limits = new ResourceLimits(1_500_000_000L, 256 * ResourceLimits.MIB, 100, 1000);
        SandboxRecord s = tickUntil(create("Sit still", "sleep 120", limits).id(), SandboxState.RUNNING);
        assertThat(s.runRef().engineId()).isNotBlank();
        assertThat(s.spec().image()).isEqualTo(DockerTests.GIT_IMAGE);

        JsonNode c = DockerTests.inspect(s.runRef().engineId());
        JsonNode host = c.get("HostConfig");
        assertThat(host.get("NanoCpus").asLong()).isEqualTo(1_500_000_000L);
        assertThat(host.get("Memory").asLong()).isEqualTo(256 * ResourceLimits.MIB);
        assertThat(host.get("MemorySwap").asLong()).as("memory = memory + swap").isEqualTo(256 * ResourceLimits.MIB);
        assertThat(host.get("PidsLimit").asLong()).isEqualTo(100);
        assertThat(host.get("Ulimits").get(0).get("Name").asText()).isEqualTo("nofile");
        assertThat(host.get("Ulimits").get(0).get("Soft").asLong()).isEqualTo(1000);
        assertThat(host.get("Ulimits").get(0).get("Hard").asLong()).isEqualTo(1000);
        assertThat(host.get("ReadonlyRootfs").asBoolean()).isTrue();
        assertThat(host.get("NetworkMode").asText()).isEqualTo("none");
        assertThat(host.get("Init").asBoolean()).isTrue();
        assertThat(host.get("Tmpfs").has("/tmp")).isTrue();
        assertThat(host.get("CapDrop").toString()).contains("ALL");
        assertThat(host.get("SecurityOpt").toString()).contains("no-new-privileges");
        JsonNode config = c.get("Config");
        assertThat(config.get("Labels").get("paddock.sandbox").asText()).isEqualTo(s.id());
        assertThat(config.get("Labels").get("paddock.repo").asText())
                .isEqualTo(repo.dir().toString());
        assertThat(config.get("User").asText())
                .isEqualTo(Files.getAttribute(s.workspace().worktree(), "unix:uid") + ":"
                        + Files.getAttribute(s.workspace().worktree(), "unix:gid"));
        assertThat(config.get("Image").asText()).isEqualTo(DockerTests.GIT_IMAGE);
        assertThat(config.get("Env").toString())
                .contains(
                        "PADDOCK_SANDBOX_ID=" + s.id(),
                        "PADDOCK_HEARTBEAT_FILE=/paddock/heartbeat",
                        "PADDOCK_WORKTREE=" + s.workspace().worktree(),
                        "HOME=/tmp");
        // Read-write: only the worktree (twice), what a commit writes, and the control directory.
        Path common = repo.dir().resolve(".git");
        List<String> writable = new java.util.ArrayList<>();
        for (JsonNode m : c.get("Mounts")) {
            if (m.get("RW").asBoolean()) {
                writable.add(m.get("Destination").asText());
            }
        }
        assertThat(writable)
                .containsExactlyInAnyOrder(
                        "/workspace",
                        s.workspace().worktree().toString(),
                        "/paddock",
                        common.resolve("objects").toString(),
                        common.resolve("refs").toString(),
                        common.resolve("logs").toString(),
                        LinkedWorktree.adminDirOf(s.workspace().worktree()).toString());

        wiring.sandboxService().stop(s.id(), "the test");
        assertThat(DockerTests.containers("paddock.sandbox=" + s.id()))
                .as("stop removes the container")
                .isEmpty();
        assertThat(wiring.sandboxService().find(s.id()).runRef().engineId()).isNull();

        SandboxRecord removed = wiring.sandboxService().remove(s.id(), RemoveMode.FORCE, true, "the test");
        assertThat(removed.state()).isEqualTo(SandboxState.CLOSED);
        assertThat(DockerTests.containers("paddock.sandbox=" + s.id())).isEmpty();
    }

    @Test
    void paddockHeartbeatWorksWithoutNetworkAndASilentAgentTimesOutAndLosesItsContainer() throws Exception {
        SandboxRecord created = wiring.sandboxService()
                .create(NewSandbox.custom(
                                repo.dir(), "Beat once", "sleep 1;" + " paddock heartbeat half way; sleep 120")
                        .tier(Tier.CONTAINER)
                        .leaseMs(3_000L)
                        .maxRetries(0)
                        .build());
        SandboxRecord running = tickUntil(created.id(), SandboxState.RUNNING);
        SandboxRig.await(
                "the heartbeat from inside",
                () -> {
                    try {
                        wiring.supervisor().tick();
                        return "half way"
                                .equals(wiring.sandboxService()
                                        .find(created.id())
                                        .lease()
                                        .progress());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                Duration.ofSeconds(20));

        SandboxRecord timedOut = tickUntil(created.id(), SandboxState.TIMEOUT);

        assertThat(timedOut.run().lastError()).contains("the lease of 3 s ran out");
        assertThat(timedOut.lease().lastHeartbeatAt()).isAfter(running.run().startedAt());
        awaitRemovedAfterTheRun(created.id());
    }

    @Test
    void removingARunningContainerSandboxRemovesItsContainer() throws Exception {
        SandboxRecord s = tickUntil(create("Sit still", "sleep 120", null).id(), SandboxState.RUNNING);
        assertThat(DockerTests.containers("paddock.sandbox=" + s.id()))
                .containsExactly(s.runRef().engineId());

        wiring.sandboxService().remove(s.id(), RemoveMode.FORCE, true, "the test");

        assertThat(DockerTests.containers("paddock.sandbox=" + s.id())).isEmpty();
        assertThat(Files.exists(s.workspace().worktree())).isFalse();
    }

    @Test
    void insideThereIsOnlyLoopbackNoHomeAReadOnlyRootAndAPrivateTmp() throws Exception {
        SandboxRecord s = run(
                "Look around",
                "cut -d: -f1 /proc/net/dev | tail -n +3 | tr -d ' ' | sed 's/^/NET:/';"
                        + " if touch /etc/written 2>/dev/null; then echo ROOT-WRITABLE; fi;"
                        + " echo private > /tmp/mine.txt && echo TMP-OK; echo HOME=$HOME; echo UID=$(id -u);"
                        + " if [ -e " + tmp.resolve("home") + " ]; then echo SEES-PADDOCK-HOME; fi",
                SandboxState.DONE);

        List<String> printed = printed(s.id());
        assertThat(printed.stream().filter(l -> l.startsWith("NET:"))).containsExactly("NET:lo");
        assertThat(printed).contains("TMP-OK", "HOME=/tmp").doesNotContain("ROOT-WRITABLE", "SEES-PADDOCK-HOME");
        assertThat(Files.exists(Path.of("/tmp/mine.txt")))
                .as("the agent's /tmp is its own")
                .isFalse();
    }

    @Test
    void aMemoryHogUnder64MibIsReportedOutOfMemory() throws Exception {
        SandboxRecord created = create(
                "Eat memory",
                "dd if=/dev/zero of=/dev/null bs=256M count=1",
                ResourceLimits.DEFAULTS.withMemoryBytes(64 * ResourceLimits.MIB));
        SandboxRecord s = tickUntil(created.id(), SandboxState.FAILED);

        assertThat(s.run().exitCode()).isEqualTo(137);
        assertThat(s.run().lastError()).isEqualTo("the agent was killed: out of memory (limit 64 MiB)");
        assertThat(wiring.sandboxService().history(s.id()))
                .extracting(Event::message)
                .anySatisfy(m -> assertThat(m).contains("out of memory (limit 64 MiB)"));
    }

    @Test
    void aChildKilledForMemoryIsReportedWhateverTheAgentsExitCode() throws Exception {
        // The agent's shell survives the child the kernel kills, and ends with its own code.
        SandboxRecord failed = tickUntil(
                create(
                                "Child eats memory",
                                "dd if=/dev/zero of=/dev/null bs=256M count=1;" + " echo the shell goes on; exit 3",
                                ResourceLimits.DEFAULTS.withMemoryBytes(64 * ResourceLimits.MIB))
                        .id(),
                SandboxState.FAILED);
        SandboxRecord done = tickUntil(
                create(
                                "Child eats memory, agent fine",
                                "dd if=/dev/zero of=/dev/null bs=256M" + " count=1; exit 0",
                                ResourceLimits.DEFAULTS.withMemoryBytes(64 * ResourceLimits.MIB))
                        .id(),
                SandboxState.DONE);

        assertThat(failed.run().exitCode()).isEqualTo(3);
        assertThat(failed.run().lastError())
                .isEqualTo(
                        "the agent exited with 3; a process in the sandbox was killed for" + " memory (limit 64 MiB)");
        assertThat(done.run().exitCode()).isZero();
        assertThat(wiring.sandboxService().history(done.id()))
                .extracting(Event::message)
                .anySatisfy(
                        m -> assertThat(m).contains("a process in the sandbox was killed for memory (limit 64 MiB)"));
    }

    @Test
    void gitGcAndWorktreePruneInsideLeaveTheHostsWorktreesAlone() throws Exception {
        Path other = repo.addWorktree(tmp.resolve("other"), "other");
        TempRepo.write(other, "theirs.txt", "work in progress\n");
        repo.git("-C", other.toString(), "add", "theirs.txt");
        SandboxRecord created = create(
                "Clean up git",
                "git gc --prune=now; echo GC=$?; git worktree prune;"
                        + " echo PRUNE=$?; git status --porcelain >/dev/null && echo STATUS-OK",
                null);
        String before = repo.git("worktree", "list", "--porcelain");
        List<String> adminDirs = SandboxRig.tree(repo.dir().resolve(".git/worktrees"));

        SandboxRecord s = tickUntil(created.id(), SandboxState.DONE);

        assertThat(printed(s.id())).contains("STATUS-OK");
        String after = repo.git("worktree", "list", "--porcelain");
        assertThat(after).isEqualTo(before);
        // Paddock's own file there (the index its checkpoints are written through; one is taken as the run ends).
        assertThat(SandboxRig.tree(repo.dir().resolve(".git/worktrees")).stream()
                        .filter(p -> !p.endsWith("/paddock-checkpoint-index"))
                        .toList())
                .isEqualTo(adminDirs);
        assertThat(after)
                .contains("worktree " + other, "worktree " + s.workspace().worktree());
        assertThat(after).doesNotContain("prunable");
        assertThat(repo.git("-C", other.toString(), "status", "--porcelain")).contains("A  theirs.txt");
        assertThat(repo.git("-C", s.workspace().worktree().toString(), "rev-parse", "--abbrev-ref", "HEAD")
                        .strip())
                .isEqualTo(s.workspace().branch());
    }

    @Test
    void aRestartedPaddockFollowsTheRunningContainerAgainAndLearnsHowItEnded() throws Exception {
        SandboxRecord created = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Outlive Paddock", "echo before; sleep 8; echo after; exit 3")
                        .tier(Tier.CONTAINER)
                        .leaseMs(60_000L)
                        .maxRetries(0)
                        .build());
        SandboxRecord s = tickUntil(created.id(), SandboxState.RUNNING);
        SandboxRig.await("the agent's first line", () -> logHas(s.id(), "before"), Duration.ofSeconds(20));
        wiring.close(); // the container runs on
        assertThat(DockerTests.containers("paddock.sandbox=" + s.id()))
                .containsExactly(s.runRef().engineId());
        Thread.sleep(2_000); // no Paddock runs for a while; the container's lease end stays as it was

        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        SandboxRecord ended = tickUntil(s.id(), SandboxState.FAILED);

        assertThat(ended.run().exitCode()).isEqualTo(3);
        assertThat(ended.run().lastError()).isEqualTo("the agent exited with 3");
        assertThat(printed(s.id())).as("each line once, none lost").containsExactly("before", "after");
        awaitRemovedAfterTheRun(s.id());
    }

    private boolean logHas(String id, String line) {
        try {
            return printed(id).contains(line);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aRunStartedByAPaddockThatDiedBeforeRecordingItIsAdoptedNotStartedTwice() throws Exception {
        SandboxRecord s = create("Started but not recorded", "echo started by this Paddock", null);
        // What a Paddock killed between "docker start" and its compare-and-set leaves: the run's container.
        DockerTests.Result left = DockerTests.docker(
                "run",
                "-d",
                "--label",
                "paddock.sandbox=" + s.id(),
                "--label",
                "paddock.repo=" + repo.dir(),
                "--label",
                "paddock.run=1",
                DockerTests.GIT_IMAGE,
                "sh",
                "-c",
                "sleep 1; echo started by the Paddock that died");
        assertThat(left.code()).as(left.out()).isZero();
        String leftId = left.out().strip();

        SandboxRecord done = tickUntil(s.id(), SandboxState.DONE);

        assertThat(wiring.sandboxService().history(s.id()))
                .filteredOn(e -> e.kind().equals("sandbox.running"))
                .singleElement()
                .satisfies(e -> assertThat(e.details()).contains(leftId));
        assertThat(printed(s.id())).containsExactly("started by the Paddock that died");
        assertThat(done.run().iteration()).isEqualTo(1);
        awaitRemovedAfterTheRun(s.id());
    }

    @Test
    void aLabelledContainerWithNoRecordIsAnOrphanForTheReconciler() throws Exception {
        SandboxRecord mine = tickUntil(create("Sit still", "sleep 120", null).id(), SandboxState.RUNNING);
        DockerTests.Result ghost = DockerTests.docker(
                "create",
                "--label",
                "paddock.sandbox=ghost-20261130-001",
                "--label",
                "paddock.repo=" + repo.dir(),
                "--label",
                "paddock.home=" + wiring.home().id(),
                DockerTests.GIT_IMAGE,
                "true");
        assertThat(ghost.code()).as(ghost.out()).isZero();
        String ghostId = ghost.out().strip();
        dev.paddock.worktree.GitCli git = new dev.paddock.worktree.GitCli();
        Reconciler reconciler = new Reconciler(
                wiring.sandboxes(),
                wiring.repoStore(),
                new dev.paddock.worktree.RepositoryLocator(git),
                new dev.paddock.worktree.WorktreeManager(git),
                new OrphanScanner(java.time.Clock.systemUTC(), Duration.ZERO),
                wiring.reclaimer(),
                wiring.events(),
                wiring.settings(),
                wiring.runtimes(),
                java.time.Clock.systemUTC());

        Reconciler.Report report = reconciler.reconcile();
        reconciler.reconcile(); // reported once, not once per pass

        assertThat(report.orphanContainers())
                .extracting(dev.paddock.container.LabelledContainer::id)
                .containsExactly(ghostId);
        assertThat(report.orphanContainers().get(0).sandboxId()).isEqualTo("ghost-20261130-001");
        assertThat(wiring
                        .events()
                        .recent(
                                wiring.repoStore()
                                        .findByPath(repo.dir())
                                        .orElseThrow()
                                        .id(),
                                100)
                        .stream()
                        .map(Event::kind)
                        .filter("sandbox.orphan_container_found"::equals)
                        .count())
                .isEqualTo(1);
        assertThat(DockerTests.containers("paddock.sandbox=" + mine.id()))
                .containsExactly(mine.runRef().engineId());
        reconciler.close();
    }

    @Test
    void noImageOrAMissingImageIsAClearErrorAndNothingIsLeftBehind() throws Exception {
        List<String> branches = List.of(repo.git("branch", "--list").split("\n"));

        assertThatThrownBy(() -> wiring.sandboxService()
                        .create(NewSandbox.custom(repo.dir(), "Missing image", "true")
                                .tier(Tier.CONTAINER)
                                .image("paddock-test:no-such-image")
                                .build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("paddock-test:no-such-image is not on the Docker engine")
                .hasMessageContaining("Paddock pulls nothing");
        wiring.repoService().setContainerImage(repo.dir(), null);
        assertThatThrownBy(() -> wiring.sandboxService()
                        .create(NewSandbox.custom(repo.dir(), "No image", "true")
                                .tier(Tier.CONTAINER)
                                .build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("no container image is set");

        assertThat(Files.exists(repo.dir().resolve(SandboxLayout.ROOT).resolve("missing-image-")))
                .isFalse();
        assertThat(SandboxRig.tree(repo.dir().resolve(SandboxLayout.ROOT))).isEmpty();
        assertThat(List.of(repo.git("branch", "--list").split("\n"))).isEqualTo(branches);
        assertThat(wiring.sandboxService().list(repo.dir())).isEmpty();
        assertThat(DockerTests.containers("paddock.repo=" + repo.dir())).isEmpty();
    }
}
