package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.DockerEndpoint;
import dev.paddock.container.DockerEngine;
import dev.paddock.container.WorkspaceVolumes;
import dev.paddock.isolation.BrokerChannel;
import dev.paddock.isolation.SandboxApi;
import dev.paddock.isolation.container.RemoteBroker;
import dev.paddock.isolation.container.RemoteWorkspace;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.HookRun;
import dev.paddock.testing.PrivateDockerd;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.WorkspaceReturn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sandbox on an engine reached only over TCP with TLS client certificates, from a network namespace of its own
 * ({@link PrivateDockerd#startTls()}): nothing of this machine can be mounted there. Its workspace is delivered and
 * brought back through the archive API ({@link RemoteWorkspace}), and the hook in its container reaches this
 * Paddock's API through the broker channel over that same connection ({@link RemoteBroker}); with the channel down
 * it denies.
 */
class RemoteEngineOverTlsTest {
    private static final String HOOK = SandboxApi.BIN + "/paddock-hook-claude";

    @TempDir
    static Path shared;

    private static PrivateDockerd dockerd;
    private static DockerEngine engine;
    private static BrokerRig rig;
    private static SandboxRecord a;

    @BeforeAll
    static void start() throws Exception {
        DockerTests.requireEngineWithGitImage();
        dockerd = PrivateDockerd.startTls();
        dockerd.load(DockerTests.GIT_IMAGE);
        engine =
                new DockerEngine(Clock.systemUTC(), new DockerEndpoint(dockerd.host(), "test", dockerd.tlsDir(), null));
        assertThat(engine.check().reachable()).as(engine.check().error()).isTrue();
        rig = BrokerRig.start(shared.resolve("home"));
        TempRepo repo = BrokerRig.repoWithPolicy(shared.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "Start");
        a = rig.host()
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Remote agent", "sleep 300")
                        .tier(Tier.WORKTREE)
                        .leaseMs(600_000L)
                        .maxRetries(0)
                        .build());
        BrokerRig.await(a.id() + " running", () -> {
            try {
                return rig.host()
                                .wiring()
                                .sandboxes()
                                .find(a.id())
                                .orElseThrow()
                                .state()
                        == SandboxState.RUNNING;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        a = rig.host().wiring().sandboxes().find(a.id()).orElseThrow();
    }

    @AfterAll
    static void stop() {
        if (engine != null) {
            engine.close();
        }
        if (dockerd != null) {
            dockerd.close();
        }
        if (rig != null) {
            rig.close();
        }
    }

    @Test
    void aSandboxOnTheTlsEngineWorksCommitsAndIsBroughtBackAndItsHookReachesPaddock() throws Exception {
        Path wt = a.workspace().worktree();
        String branch = TempRepo.git(wt, "rev-parse", "--abbrev-ref", "HEAD").strip();
        TempRepo.write(wt, "draft.txt", "uncommitted\n");
        WorkspaceVolumes volumes = new WorkspaceVolumes(engine);
        RemoteWorkspace workspace =
                new RemoteWorkspace(volumes, new GitCli(), RemoteWorkspace.DEFAULT_MAX_BYTES, 100_000);
        String ws = "paddock-ws-" + a.id();
        String bin = "paddock-bin-" + a.id();

        RemoteWorkspace.Delivered d =
                workspace.deliver(ws, DockerTests.GIT_IMAGE, wt, branch, 1000, 1000, Map.of("paddock.sandbox", a.id()));
        System.out.println("BENCH remote-workspace deliver over TCP+TLS (small repo): "
                + d.took().toMillis() + " ms");
        RemoteBroker.installPrograms(
                volumes,
                bin,
                DockerTests.GIT_IMAGE,
                List.of(HookScript.path(rig.home().dir())),
                Map.of());
        DockerTests.Result run = dockerd.docker(
                "run",
                "-d",
                "--network",
                "none",
                "--user",
                "1000:1000",
                "--read-only",
                "--cap-drop",
                "ALL",
                "--security-opt",
                "no-new-privileges",
                "-e",
                "HOME=/tmp",
                "--tmpfs",
                "/tmp",
                "--tmpfs",
                SandboxApi.SOCKET_DIR + ":" + RemoteBroker.SOCKET_DIR_TMPFS_OPTIONS,
                "--mount",
                "type=volume,source=" + bin + ",target=" + SandboxApi.BIN + ",readonly",
                "--mount",
                "type=volume,source=" + ws + ",target=/work",
                "-w",
                "/work",
                DockerTests.GIT_IMAGE,
                "sleep",
                "600");
        assertThat(run.code()).as(run.out()).isZero();
        String container = run.out().strip();
        try {
            BrokerChannel channel = RemoteBroker.open(
                    engine, container, a.id(), rig.host().wiring().apiRelays());
            String allowed;
            try {
                allowed = hook(container, "git status");
                assertThat(allowed).contains("rc=0").contains("\"permissionDecision\":\"allow\"");
                assertThat(hook(container, "rm -rf build")).contains("rc=2").contains("deny");
                // Asked: the person decides after longer than the TLS connection's read timeout (about 2 s).
                assertThat(askedAndDecided(container, "approve"))
                        .contains("rc=0")
                        .contains("\"permissionDecision\":\"allow\"")
                        .contains("approved by ann");
                assertThat(askedAndDecided(container, "deny"))
                        .contains("rc=2")
                        .contains("\"permissionDecision\":\"deny\"")
                        .contains("ann")
                        .doesNotContain("without an answer");
                assertThat(channel.isOpen()).isTrue();
            } finally {
                channel.close();
            }
            long t0 = System.nanoTime();
            String down = hook(container, "git status");
            assertThat(down).contains("rc=2").contains("\"permissionDecision\":\"deny\"");
            assertThat(Duration.ofNanos(System.nanoTime() - t0))
                    .isLessThan(Duration.ofSeconds(HookScript.ANSWER_S + 5));

            DockerTests.Result work = dockerd.docker(
                    "exec",
                    "-u",
                    "1000:1000",
                    container,
                    "/bin/sh",
                    "-c",
                    "echo remote >> README.md && git add README.md draft.txt"
                            + " && git -c user.name=Agent -c user.email=a@x.invalid commit -qm 'remote commit'"
                            + " && echo later > later.txt");
            assertThat(work.code()).as(work.out()).isZero();
            // The container may be stopped by then: the archive API reads its volume all the same.
            assertThat(dockerd.docker("stop", "-t", "1", container).code()).isZero();
            long t1 = System.nanoTime();
            WorkspaceReturn.Outcome o = workspace.bringBack(ws, DockerTests.GIT_IMAGE, wt, branch, a.id());
            System.out.println("BENCH remote-workspace commit arrives locally over TCP+TLS (bring-back): "
                    + (System.nanoTime() - t1) / 1_000_000 + " ms");

            assertThat(o.moved()).isTrue();
            assertThat(TempRepo.git(wt, "log", "-1", "--format=%s").strip()).isEqualTo("remote commit");
            assertThat(TempRepo.git(wt, "show", "HEAD:draft.txt")).isEqualTo("uncommitted\n");
            assertThat(Files.readString(wt.resolve("later.txt"))).isEqualTo("later\n");
            assertThat(TempRepo.git(wt, "status", "--porcelain").strip()).isEqualTo("?? later.txt");
        } finally {
            dockerd.docker("rm", "-f", container);
        }
    }

    @Test
    void deliveringThisRepositoryOverTls() throws Exception {
        Path self = Path.of("").toAbsolutePath();
        String branch = TempRepo.git(self, "rev-parse", "--abbrev-ref", "HEAD").strip();
        RemoteWorkspace workspace = new RemoteWorkspace(
                new WorkspaceVolumes(engine), new GitCli(), RemoteWorkspace.DEFAULT_MAX_BYTES, 100_000);
        RemoteWorkspace.Delivered d =
                workspace.deliver("paddock-ws-self", DockerTests.GIT_IMAGE, self, branch, 1000, 1000, Map.of());
        System.out.println("BENCH remote-workspace deliver over TCP+TLS (this repository: " + d.files() + " files, tar "
                + (d.tarBytes() >> 20) + " MiB): " + d.took().toMillis() + " ms");
        DockerTests.Result log = dockerd.docker(
                "run",
                "--rm",
                "--user",
                "1000:1000",
                "--mount",
                "type=volume,source=paddock-ws-self,target=/work",
                "-w",
                "/work",
                DockerTests.GIT_IMAGE,
                "/bin/sh",
                "-c",
                "git log --oneline | wc -l");
        assertThat(log.code()).as(log.out()).isZero();
        assertThat(Integer.parseInt(log.out().strip())).isGreaterThan(1);
    }

    /** A call the policy asks about, decided by a person with {@code verb} (approve or deny) after 3.5 s. */
    private static String askedAndDecided(String container, String verb) throws Exception {
        CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> hook(container, "git push origin main"));
        long id = rig.awaitPending(a.id());
        Thread.sleep(3500);
        assertThat(call).as("the asked call still waits for a person").isNotDone();
        rig.decide(id, verb);
        return call.get(60, TimeUnit.SECONDS);
    }

    private static String hook(String container, String command) {
        String payload = HookRun.payload(a.workspace().worktree(), command);
        return dockerd.docker(
                        "exec",
                        "-u",
                        "1000:1000",
                        "-e",
                        SandboxApi.SOCKET_VARIABLE + "=" + SandboxApi.SOCKET,
                        "-e",
                        "PADDOCK_SANDBOX_ID=" + a.id(),
                        "-e",
                        "PADDOCK_HOOK_KEY=" + rig.hookKeyOf(a.id()),
                        container,
                        "/bin/sh",
                        "-c",
                        "printf '%s' '" + payload.replace("'", "'\\''") + "' | " + HOOK
                                + " --timeout 660; r=$?; echo; echo \"rc=$r\"")
                .out();
    }
}
