package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.EngineEntry;
import dev.paddock.container.EngineRegistry;
import dev.paddock.container.ResourceLimits;
import dev.paddock.isolation.SandboxApi;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.HookRun;
import dev.paddock.testing.PrivateDockerd;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A container sandbox pinned to an engine reached only over TCP with TLS ({@link PrivateDockerd#startTls()}), end to
 * end through a running Paddock: its workspace is delivered into a volume, its container has no bind mount of this
 * machine, its hook reaches the API through the broker channel, and when its agent ends its commit is on the local
 * sandbox branch and its files in the local worktree. See docs/decisions/0030-remote-workspace-and-broker-channel.md.
 */
class RemoteEngineSandboxTest {
    private static final String HOOK = SandboxApi.BIN + "/paddock-hook-claude";

    @TempDir
    Path tmp;

    private PrivateDockerd far;
    private BrokerRig rig;

    @BeforeEach
    void open() throws Exception {
        DockerTests.requireEngineWithGitImage();
        far = PrivateDockerd.startTls();
        far.load(DockerTests.GIT_IMAGE);
        rig = BrokerRig.start(tmp.resolve("home"));
        EngineRegistry.in(rig.home().dir()).add(new EngineEntry("far", far.host(), far.tlsDir(), null, Map.of()));
    }

    @AfterEach
    void close() {
        if (rig != null) {
            rig.close();
        }
        if (far != null) {
            far.close();
        }
    }

    @Test
    void anAgentOnTheTlsEngineCommitsCallsItsHookAndItsWorkComesBack() throws Exception {
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "Start");
        String payload = HookRun.payload(Path.of("/workspace"), "git status").replace("'", "'\\''");
        // A hook call as the agent starts (its socket is there by then), then one after a quiet while.
        String command = "printf '%s' '" + payload + "' | " + HOOK
                + " --timeout 660 > hook.out 2>&1 || echo rc=$? >> hook.out;"
                + " set -e; echo made > made.txt; git add made.txt;"
                + " git -c user.name=Agent -c user.email=agent@x.invalid commit -qm 'agent commit';"
                + " echo draft > draft.txt;"
                + " sleep 4;" // the channel stays up while it is quiet
                + " printf '%s' '" + payload + "' | " + HOOK
                + " --timeout 660 >> hook.out 2>&1 || echo rc=$? >> hook.out;"
                + " sleep 3";
        long t0 = System.nanoTime();
        SandboxRecord s = rig.host()
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Remote agent", command)
                        .tier(Tier.CONTAINER)
                        .engine("far")
                        .image(DockerTests.GIT_IMAGE)
                        .limits(ResourceLimits.DEFAULTS
                                .withNanoCpus(ResourceLimits.ONE_CPU / 2)
                                .withMemoryBytes(256 * ResourceLimits.MIB))
                        .leaseMs(600_000L)
                        .maxRetries(0)
                        .build());
        assertThat(s.spec().engine()).isEqualTo("far");
        String[] cid = new String[1];
        BrokerRig.await("a container on far", () -> {
            String out = far.docker("ps", "-q", "--no-trunc", "--filter", "label=paddock.sandbox=" + s.id())
                    .out()
                    .strip();
            cid[0] = out.isEmpty() ? null : out;
            return cid[0] != null;
        });
        System.out.println("BENCH remote sandbox: created to container running in "
                + (System.nanoTime() - t0) / 1_000_000 + " ms");

        DockerTests.Result inspect = far.docker(
                "inspect",
                "--format",
                "{{.HostConfig.NanoCpus}} {{.HostConfig.Memory}} {{.Config.User}} {{.Config.WorkingDir}}"
                        + " readonly-root={{.HostConfig.ReadonlyRootfs}} {{range .Mounts}}[{{.Type}} {{.Name}} {{.Destination}} {{.RW}}]{{end}}",
                cid[0]);
        assertThat(inspect.code()).as(inspect.out()).isZero();
        String seen = inspect.out().strip();
        assertThat(seen).startsWith((ResourceLimits.ONE_CPU / 2) + " " + (256 * ResourceLimits.MIB) + " 1000:1000");
        assertThat(seen).doesNotContain("[bind");
        // The agent cannot move /run/paddock aside and put a socket of its own there (AgentAsRootTakesTheSocketTest).
        assertThat(seen).contains("readonly-root=true");
        assertThat(seen).contains("[volume paddock-ws-" + s.id(), "/workspace true]");
        assertThat(seen).contains("[volume paddock-bin-" + s.id(), SandboxApi.BIN + " false]");
        assertThat(seen).doesNotContain(tmp.toString());

        BrokerRig.await(s.id() + " ended", () -> {
            SandboxState st = state(s.id());
            return st != SandboxState.PENDING && st != SandboxState.RUNNING && st != SandboxState.RETRYING;
        });
        Path wt = rig.host()
                .wiring()
                .sandboxes()
                .find(s.id())
                .orElseThrow()
                .workspace()
                .worktree();
        assertThat(TempRepo.git(wt, "log", "-1", "--format=%s").strip()).isEqualTo("agent commit");
        String branch = TempRepo.git(wt, "rev-parse", "--abbrev-ref", "HEAD").strip();
        assertThat(TempRepo.git(repo.dir(), "log", "-1", "--format=%s", branch).strip())
                .isEqualTo("agent commit");
        assertThat(Files.readString(wt.resolve("made.txt"))).isEqualTo("made\n");
        assertThat(Files.readString(wt.resolve("draft.txt"))).isEqualTo("draft\n");
        String hook = Files.readString(wt.resolve("hook.out"));
        assertThat(hook).contains("\"permissionDecision\":\"allow\"").doesNotContain("rc=");
        assertThat(TempRepo.git(wt, "status", "--porcelain").lines().toList())
                .containsExactlyInAnyOrder("?? draft.txt", "?? hook.out");

        rig.host().wiring().sandboxService().remove(s.id(), dev.paddock.sandbox.RemoveMode.FORCE, false, "test");
        BrokerRig.await(
                "its volumes gone",
                () -> !far.docker("volume", "ls", "-q").out().contains(s.id()));
    }

    @Test
    void aCheckpointWhileTheAgentRunsAndAStopBringTheWorkBack() throws Exception {
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "Start");
        String command = "git -c user.name=Agent -c user.email=agent@x.invalid commit -q --allow-empty -m 'early';"
                + " sleep 4; echo late > late.txt; sleep 300";
        SandboxRecord s = rig.host()
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Remote sleeper", command)
                        .tier(Tier.CONTAINER)
                        .engine("far")
                        .image(DockerTests.GIT_IMAGE)
                        .leaseMs(600_000L)
                        .maxRetries(0)
                        .build());
        BrokerRig.await(s.id() + " running", () -> state(s.id()) == SandboxState.RUNNING);
        Path wt = rig.host()
                .wiring()
                .sandboxes()
                .find(s.id())
                .orElseThrow()
                .workspace()
                .worktree();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!TempRepo.git(wt, "log", "-1", "--format=%s").strip().equals("early")) {
            assertThat(System.nanoTime()).as("the early commit never came back").isLessThan(deadline);
            rig.host().wiring().checkpoints().checkpoint(s.id(), "look", null, "test");
            Thread.sleep(200);
        }
        assertThat(rig.host().wiring().checkpoints().list(s.id())).isNotEmpty();

        BrokerRig.await(
                "late.txt written in the container",
                () -> far.docker(
                                        "exec",
                                        far.docker("ps", "-q", "--filter", "label=paddock.sandbox=" + s.id())
                                                .out()
                                                .strip(),
                                        "test",
                                        "-f",
                                        "/workspace/late.txt")
                                .code()
                        == 0);
        rig.host().wiring().sandboxService().stop(s.id(), "test");
        BrokerRig.await("late.txt back after the stop", () -> Files.exists(wt.resolve("late.txt")));
    }

    @Test
    void aRestartedPaddockReopensTheChannelAndBringsTheWorkBackAtTheEnd() throws Exception {
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "Start");
        String payload = HookRun.payload(Path.of("/workspace"), "git status").replace("'", "'\\''");
        String command = "sleep 6; echo after > after.txt; git add after.txt;"
                + " git -c user.name=Agent -c user.email=agent@x.invalid commit -qm 'after the restart';"
                + " i=0; while [ ! -S \"$PADDOCK_API_SOCKET\" ] && [ $i -lt 150 ]; do sleep 0.2; i=$((i+1)); done;"
                + " printf '%s' '" + payload + "' | " + HOOK
                + " --timeout 660 > hook.out 2>&1 || echo rc=$? >> hook.out";
        SandboxRecord s = rig.host()
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Remote across a restart", command)
                        .tier(Tier.CONTAINER)
                        .engine("far")
                        .image(DockerTests.GIT_IMAGE)
                        .leaseMs(600_000L)
                        .maxRetries(0)
                        .build());
        BrokerRig.await(s.id() + " running", () -> state(s.id()) == SandboxState.RUNNING);
        rig.restart(); // the container runs on; the relay ends with the old Paddock's stream

        BrokerRig.await(s.id() + " ended", () -> {
            SandboxState st = state(s.id());
            return st != SandboxState.PENDING && st != SandboxState.RUNNING && st != SandboxState.RETRYING;
        });
        Path wt = rig.host()
                .wiring()
                .sandboxes()
                .find(s.id())
                .orElseThrow()
                .workspace()
                .worktree();
        assertThat(TempRepo.git(wt, "log", "-1", "--format=%s").strip()).isEqualTo("after the restart");
        assertThat(Files.readString(wt.resolve("hook.out")))
                .contains("\"permissionDecision\":\"allow\"")
                .doesNotContain("rc=");
    }

    @Test
    void workLeftOnAnEngineThatWentAwayComesBackWhenItAnswersAndAStrictRemovalWaits() throws Exception {
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "Start");
        // No identity given: the delivered clone has the sandbox's own.
        String command = "echo made > made.txt; git add made.txt; git commit -qm 'before the outage'; sleep 600";
        SandboxRecord s = rig.host()
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Remote outage", command)
                        .tier(Tier.CONTAINER)
                        .engine("far")
                        .image(DockerTests.GIT_IMAGE)
                        .leaseMs(600_000L)
                        .maxRetries(0)
                        .build());
        BrokerRig.await(s.id() + " committed on far", () -> {
            String cid = far.docker("ps", "-q", "--no-trunc", "--filter", "label=paddock.sandbox=" + s.id())
                    .out()
                    .strip();
            return !cid.isEmpty()
                    && far.docker("exec", cid, "git", "log", "-1", "--format=%s")
                            .out()
                            .strip()
                            .equals("before the outage");
        });
        Path wt = rig.host()
                .wiring()
                .sandboxes()
                .find(s.id())
                .orElseThrow()
                .workspace()
                .worktree();
        far.kill(true);

        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> rig.host()
                .wiring()
                .sandboxService()
                .remove(s.id(), dev.paddock.sandbox.RemoveMode.STRICT, false, "test"));
        assertThat(refused).as("a strict removal while the engine is away").isNotNull();
        System.out.println("strict removal while away: " + refused.getMessage());
        assertThat(state(s.id())).isNotNull().isNotEqualTo(SandboxState.CLOSED);

        far.restart();
        // The branch moves first, then the files are mirrored: wait for both.
        BrokerRig.await("the work brought back", () -> {
            try {
                return Files.exists(wt.resolve("made.txt"))
                        && Files.readString(wt.resolve("made.txt")).equals("made\n")
                        && TempRepo.git(wt, "log", "-1", "--format=%s|%an <%ae>")
                                .strip()
                                .startsWith("before the outage|Paddock agent " + s.id() + " <");
            } catch (RuntimeException | java.io.IOException e) {
                return false; // not mirrored yet
            }
        });
        assertThat(Files.readString(wt.resolve("made.txt"))).isEqualTo("made\n");
        Path owed = repo.dir()
                .resolve(dev.paddock.sandbox.SandboxLayout.ROOT)
                .resolve(s.id())
                .resolve(dev.paddock.sandbox.SandboxLayout.CONTROL)
                .resolve(dev.paddock.isolation.RunId.WORKSPACE_OWED);
        BrokerRig.await("nothing owed", () -> !Files.exists(owed));

        // Owed while the engine is away: a strict removal says so and keeps everything; force discards it.
        far.kill(true);
        Files.writeString(owed, "The workspace on the remote engine could not be brought back (a test).\n");
        Throwable waits = org.assertj.core.api.Assertions.catchThrowable(() -> rig.host()
                .wiring()
                .sandboxService()
                .remove(s.id(), dev.paddock.sandbox.RemoveMode.STRICT, false, "test"));
        assertThat(waits)
                .isInstanceOf(dev.paddock.sandbox.RemovalRefusedException.class)
                .hasMessageContaining("not brought back")
                .hasMessageContaining("force");
        assertThat(wt).exists();
        far.restart();
        rig.host().wiring().sandboxService().remove(s.id(), dev.paddock.sandbox.RemoveMode.FORCE, false, "test");
    }

    @Test
    void aDivergedHistoryChangesNothingLocalAndKeepsTheRemoteCommits() throws Exception {
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "Start");
        String command = "sleep 3; echo remote > remote.txt; git add remote.txt;"
                + " git -c user.name=Agent -c user.email=agent@x.invalid commit -qm 'remote work'";
        SandboxRecord s = rig.host()
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Remote diverging", command)
                        .tier(Tier.CONTAINER)
                        .engine("far")
                        .image(DockerTests.GIT_IMAGE)
                        .leaseMs(600_000L)
                        .maxRetries(0)
                        .build());
        BrokerRig.await(s.id() + " running", () -> state(s.id()) == SandboxState.RUNNING);
        Path wt = rig.host()
                .wiring()
                .sandboxes()
                .find(s.id())
                .orElseThrow()
                .workspace()
                .worktree();
        TempRepo.write(wt, "local.txt", "local\n");
        TempRepo.commitAll(wt, "local work");
        String local = TempRepo.revParse(wt, "HEAD");

        BrokerRig.await(s.id() + " ended", () -> {
            SandboxState st = state(s.id());
            return st != SandboxState.PENDING && st != SandboxState.RUNNING && st != SandboxState.RETRYING;
        });
        assertThat(TempRepo.revParse(wt, "HEAD")).isEqualTo(local);
        assertThat(wt.resolve("remote.txt")).doesNotExist();
        assertThat(TempRepo.git(wt, "log", "-1", "--format=%s", "refs/paddock/remote/" + s.id())
                        .strip())
                .isEqualTo("remote work");
        assertThat(Files.readString(rig.host().wiring().sandboxService().logFile(s.id())))
                .contains("diverged", "refs/paddock/remote/" + s.id());
    }

    private SandboxState state(String id) {
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
