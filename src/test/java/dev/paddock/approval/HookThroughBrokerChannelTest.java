package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.DockerEngine;
import dev.paddock.container.WorkspaceVolumes;
import dev.paddock.isolation.BrokerChannel;
import dev.paddock.isolation.SandboxApi;
import dev.paddock.isolation.container.RemoteBroker;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.HookRun;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hook program inside a container that shares no disk with Paddock (no bind mount at all: the programs come
 * through a volume filled by the archive API) reaches the running Paddock's API through the sandbox's broker channel
 * ({@link RemoteBroker}, {@link BrokerChannel}): it speaks for its own sandbox alone, the agent cannot replace the
 * socket, and with the channel down the hook denies within its deadline. See
 * docs/decisions/0030-remote-workspace-and-broker-channel.md.
 */
class HookThroughBrokerChannelTest {
    private static final String HOOK = SandboxApi.BIN + "/paddock-hook-claude";

    @TempDir
    static Path shared;

    private static BrokerRig rig;
    private static SandboxRecord a;
    private static SandboxRecord b;
    private static DockerEngine engine;
    private static String container;
    private static String binVolume;

    @BeforeAll
    static void start() throws Exception {
        DockerTests.requireEngineWithGitImage();
        rig = BrokerRig.start(shared.resolve("home"));
        TempRepo repo = BrokerRig.repoWithPolicy(shared.resolve("repo"));
        repo.commitFile("README.md", "hello\n", "Start");
        a = running(repo, "Agent A");
        b = running(repo, "Agent B");
        engine = new DockerEngine(Clock.systemUTC());
        String image = System.getenv().getOrDefault("PADDOCK_TEST_IMAGE", "paddock-test:busybox");
        binVolume = "paddock-test-bin-" + UUID.randomUUID().toString().substring(0, 8);
        RemoteBroker.installPrograms(
                new WorkspaceVolumes(engine),
                binVolume,
                image,
                List.of(HookScript.path(rig.home().dir())),
                Map.of("paddock.test", "1"));
        DockerTests.Result run = DockerTests.docker(
                "run",
                "-d",
                "--rm",
                "--network",
                "none",
                "--user",
                "1000:1000",
                "--read-only",
                "--cap-drop",
                "ALL",
                "--security-opt",
                "no-new-privileges",
                "--label",
                "paddock.test.broker=1",
                "--tmpfs",
                SandboxApi.SOCKET_DIR + ":" + RemoteBroker.SOCKET_DIR_TMPFS_OPTIONS,
                "--mount",
                "type=volume,source=" + binVolume + ",target=" + SandboxApi.BIN + ",readonly",
                image,
                "sleep",
                "600");
        assertThat(run.code()).as(run.out()).isZero();
        container = run.out().strip();
    }

    @AfterAll
    static void stop() {
        if (container != null) {
            DockerTests.docker("rm", "-f", container);
        }
        if (binVolume != null) {
            DockerTests.docker("volume", "rm", "-f", binVolume);
        }
        if (engine != null) {
            engine.close();
        }
        if (rig != null) {
            rig.close();
        }
    }

    private static SandboxRecord running(TempRepo repo, String task) throws Exception {
        SandboxRecord s = rig.host()
                .wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, "sleep 300")
                        .tier(Tier.WORKTREE)
                        .leaseMs(600_000L)
                        .maxRetries(0)
                        .build());
        BrokerRig.await(s.id() + " running", () -> {
            try {
                return rig.host()
                                .wiring()
                                .sandboxes()
                                .find(s.id())
                                .orElseThrow()
                                .state()
                        == SandboxState.RUNNING;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return rig.host().wiring().sandboxes().find(s.id()).orElseThrow();
    }

    /** Runs the hook in the container as the agent's user, for sandbox {@code id} with {@code key}. */
    private static HookAnswer hook(String id, String key, String command) {
        String payload = HookRun.payload(a.workspace().worktree(), command);
        long t0 = System.nanoTime();
        DockerTests.Result r = DockerTests.docker(
                "exec",
                "-u",
                "1000:1000",
                "-e",
                SandboxApi.SOCKET_VARIABLE + "=" + SandboxApi.SOCKET,
                "-e",
                "PADDOCK_SANDBOX_ID=" + id,
                "-e",
                "PADDOCK_HOOK_KEY=" + key,
                container,
                "/bin/sh",
                "-c",
                "printf '%s' '" + payload.replace("'", "'\\''") + "' | " + HOOK
                        + " --timeout 660; r=$?; echo; echo \"rc=$r\"");
        return new HookAnswer(r.out(), Duration.ofNanos(System.nanoTime() - t0));
    }

    /**
     * A call the policy asks about, waiting longer than the engine connection's read timeout (about 2 s over TLS)
     * before a person decides it with {@code verb} (approve or deny) through the API.
     */
    private static HookAnswer askedAndDecided(String verb) throws Exception {
        CompletableFuture<HookAnswer> call =
                CompletableFuture.supplyAsync(() -> hook(a.id(), rig.hookKeyOf(a.id()), "git push origin main"));
        long id = rig.awaitPending(a.id());
        Thread.sleep(3500);
        assertThat(call).as("the asked call still waits for a person").isNotDone();
        rig.decide(id, verb);
        return call.get(60, TimeUnit.SECONDS);
    }

    private record HookAnswer(String out, Duration took) {
        int rc() {
            return out.lines()
                    .filter(l -> l.startsWith("rc="))
                    .map(l -> Integer.parseInt(l.substring(3).strip()))
                    .findFirst()
                    .orElse(-1);
        }
    }

    @Test
    void theHookInTheContainerSpeaksForItsSandboxAloneAndDeniesWhenTheChannelIsDown() throws Exception {
        BrokerChannel channel =
                RemoteBroker.open(engine, container, a.id(), rig.host().wiring().apiRelays());
        try {
            HookAnswer allowed = hook(a.id(), rig.hookKeyOf(a.id()), "git status");
            assertThat(allowed.rc()).as(allowed.out()).isZero();
            assertThat(allowed.out()).contains("\"permissionDecision\":\"allow\"");
            System.out.println("BENCH broker-channel hook call (docker exec included): "
                    + allowed.took().toMillis() + " ms");

            HookAnswer denied = hook(a.id(), rig.hookKeyOf(a.id()), "rm -rf build");
            assertThat(denied.rc()).as(denied.out()).isEqualTo(2);
            assertThat(denied.out()).contains("\"permissionDecision\":\"deny\"").doesNotContain("cannot be reached");

            HookAnswer approved = askedAndDecided("approve");
            assertThat(approved.rc()).as(approved.out()).isZero();
            assertThat(approved.out())
                    .contains("\"permissionDecision\":\"allow\"")
                    .contains("approved by ann");
            HookAnswer refused = askedAndDecided("deny");
            assertThat(refused.rc()).as(refused.out()).isEqualTo(2);
            assertThat(refused.out())
                    .contains("\"permissionDecision\":\"deny\"")
                    .contains("ann")
                    .doesNotContain("without an answer");

            HookAnswer otherKey = hook(b.id(), rig.hookKeyOf(b.id()), "git status");
            assertThat(otherKey.rc())
                    .as("B's key through A's channel: %s", otherKey.out())
                    .isEqualTo(2);
            HookAnswer mixed = hook(b.id(), rig.hookKeyOf(a.id()), "git status");
            assertThat(mixed.rc()).as("A's key for B: %s", mixed.out()).isEqualTo(2);
            HookAnswer install = hook(a.id(), rig.installToken(), "git status");
            assertThat(install.rc())
                    .as("the install token as key: %s", install.out())
                    .isEqualTo(2);

            DockerTests.Result replace = DockerTests.docker(
                    "exec",
                    "-u",
                    "1000:1000",
                    container,
                    "/bin/sh",
                    "-c",
                    "rm -f " + SandboxApi.SOCKET + " ; touch " + SandboxApi.BIN + "/x ; rm -f " + HOOK + " ; ls -ln "
                            + SandboxApi.SOCKET + " " + HOOK);
            assertThat(replace.out())
                    .as("the agent's user can neither remove the socket nor the hook")
                    .contains("api.sock")
                    .contains("paddock-hook-claude")
                    .contains("Permission denied")
                    .contains("Read-only file system");
            assertThat(channel.isOpen()).isTrue();
        } finally {
            channel.close();
        }
        assertThat(channel.isOpen()).isFalse();

        HookAnswer down = hook(a.id(), rig.hookKeyOf(a.id()), "git status");
        assertThat(down.rc()).as("channel down: %s", down.out()).isEqualTo(2);
        assertThat(down.out()).contains("\"permissionDecision\":\"deny\"");
        assertThat(down.took()).isLessThan(Duration.ofSeconds(HookScript.ANSWER_S + 5));

        // Opened again (as a supervisor would), it carries again.
        BrokerChannel again =
                RemoteBroker.open(engine, container, a.id(), rig.host().wiring().apiRelays());
        try {
            assertThat(hook(a.id(), rig.hookKeyOf(a.id()), "git status").rc()).isZero();
        } finally {
            again.close();
        }
    }
}
