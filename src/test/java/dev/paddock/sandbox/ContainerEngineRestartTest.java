package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.container.DockerEndpoint;
import dev.paddock.container.EngineWatch;
import dev.paddock.container.LabelledContainer;
import dev.paddock.events.Event;
import dev.paddock.isolation.RunExit;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.PrivateDockerd;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine stopped mid-run and started again, against a private {@code dockerd} of the test's own (the
 * machine's main engine, which other tests use, is never touched). Paddock is pointed at it the way
 * {@code DOCKER_HOST} would, runs container sandboxes on it, loses the engine, and must then show them as
 * unknown (not failed, not timed out), and reconcile them with what the engine says when it is back.
 */
class ContainerEngineRestartTest {
    private static final String IMAGE = "paddock-test:busybox";

    @TempDir
    Path tmp;

    TempRepo repo;
    PrivateDockerd dockerd;
    Wiring wiring;
    EngineWatch watch;

    @BeforeEach
    void open() throws Exception {
        DockerTests.requireEngineWithGitImage(); // the busybox image comes from the main engine
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("src/app.txt", "version 1\n", "Add the app");
    }

    private void startPaddock(boolean liveRestore) throws Exception {
        dockerd = PrivateDockerd.start(liveRestore);
        dockerd.load(IMAGE);
        wiring = Wiring.open(
                PaddockHome.resolve(tmp.resolve("home"), Map.of()),
                new DockerEndpoint(dockerd.host(), "DOCKER_HOST", null, null));
        wiring.setApiUrl("http://127.0.0.1:1");
        wiring.repoService().setContainerImage(repo.dir(), IMAGE);
        watch = wiring.environment().engineWatch();
        watch.start(Duration.ofHours(1)); // watching, as a panel does; the test asks at the moments it chooses
        assertThat(watch.checkNow().status().reachable())
                .as("the private engine answers: %s", dockerd.log())
                .isTrue();
    }

    @AfterEach
    void close() {
        if (wiring != null) {
            wiring.close();
        }
        if (dockerd != null) {
            dockerd.close();
        }
    }

    SandboxRecord runContainer(String task, String command) throws Exception {
        SandboxRecord s = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, command)
                        .tier(Tier.CONTAINER)
                        .leaseMs(120_000L)
                        .maxRetries(0)
                        .build());
        return tickUntil(s.id(), SandboxState.RUNNING);
    }

    SandboxRecord tickUntil(String id, SandboxState until) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        SandboxRecord r = find(id);
        while (r.state() != until) {
            assertThat(System.nanoTime())
                    .as(
                            "%s reaches %s; now %s (%s)",
                            id, until.id(), r.state().id(), r.run().lastError())
                    .isLessThan(deadline);
            wiring.supervisor().tick();
            Thread.sleep(100);
            r = find(id);
        }
        return r;
    }

    SandboxRecord find(String id) throws Exception {
        return wiring.sandboxService().find(id);
    }

    RepositoryStatus.Sandbox row(String id) throws Exception {
        return wiring.workspace().statusOf(repo.dir()).sandboxes().stream()
                .filter(s -> s.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    List<String> kinds(String id) throws Exception {
        return wiring.sandboxService().history(id).stream().map(Event::kind).toList();
    }

    @Test
    void theEngineStoppedMidRunAndStartedAgainIsReconciled() throws Exception {
        startPaddock(false);
        SandboxRecord exits = runContainer("Runs into the outage", "sleep 600");
        SandboxRecord vanishes = runContainer("Loses its container", "sleep 600");
        String ghost = dockerd.docker(
                        "create",
                        "--label",
                        "paddock.sandbox=ghost-20261130-009",
                        "--label",
                        "paddock.repo=" + repo.dir(),
                        "--label",
                        "paddock.home=" + wiring.home().id(),
                        IMAGE,
                        "true")
                .out()
                .strip();

        dockerd.kill(true);
        EngineWatch.State away = watch.checkNow();

        assertThat(away.away()).isTrue();
        assertThat(away.awaySince()).isNotNull();
        assertThat(away.status().endpointText()).isEqualTo(dockerd.host() + " (DOCKER_HOST)");
        assertThat(away.status().error()).isNotBlank();
        // Its lease runs out while the engine is away: that is not the agent's fault, and nothing is decided.
        wiring.sandboxes().renewLease(exits.id(), Instant.now().minusSeconds(1));
        for (int i = 0; i < 5; i++) {
            wiring.supervisor().tick();
            Thread.sleep(100);
        }
        assertThat(find(exits.id()).state()).isEqualTo(SandboxState.RUNNING);
        assertThat(find(vanishes.id()).state()).isEqualTo(SandboxState.RUNNING);
        RepositoryStatus.Sandbox shown = row(exits.id());
        assertThat(shown.engineUnreachable()).isTrue();
        assertThat(shown.shownState()).isEqualTo("unknown");
        assertThat(shown.state()).isEqualTo("running");
        assertThat(wiring.workspace()
                        .statusOf(repo.dir())
                        .environment()
                        .docker()
                        .awaySince())
                .isEqualTo(away.awaySince());
        assertThat(wiring.environment().snapshot().docker().reachable()).isFalse();
        assertThat(kinds(exits.id())).endsWith("sandbox.engine_unreachable");
        assertThat(kinds(vanishes.id())).endsWith("sandbox.engine_unreachable");

        dockerd.restart(); // without --live-restore the engine stopped the containers when it came back
        assertThat(dockerd.docker("rm", "-f", vanishes.runRef().engineId()).code())
                .isZero();
        EngineWatch.State back = watch.checkNow();

        assertThat(back.away()).isFalse();
        assertThat(back.status().reachable()).isTrue();
        SandboxRecord exited = find(exits.id());
        assertThat(exited.state()).isEqualTo(SandboxState.FAILED);
        assertThat(exited.run().exitCode())
                .as("SIGTERM or SIGKILL from the engine's restart")
                .isIn(137, 143);
        assertThat(exited.run().lastError())
                .isEqualTo("the agent " + RunExit.of(exited.run().exitCode()).explanation()
                        + " while the engine was away");
        SandboxRecord lost = find(vanishes.id());
        assertThat(lost.state()).isEqualTo(SandboxState.FAILED);
        assertThat(lost.run().lastError()).isEqualTo(ContainerEngineLifecycle.VANISHED);
        assertThat(lost.run().exitCode()).isNull();
        assertThat(row(exits.id()).engineUnreachable()).isFalse();
        assertThat(kinds(vanishes.id())).endsWith("sandbox.engine_unreachable", "sandbox.failed");

        // The labelled container without a record is an orphan (the reconciler's settle time set to zero here).
        GitCli git = new GitCli();
        try (Reconciler reconciler = new Reconciler(
                wiring.sandboxes(),
                wiring.repoStore(),
                new dev.paddock.worktree.RepositoryLocator(git),
                new dev.paddock.worktree.WorktreeManager(git),
                new OrphanScanner(Clock.systemUTC(), Duration.ZERO),
                wiring.reclaimer(),
                wiring.events(),
                wiring.settings(),
                wiring.runtimes(),
                Clock.systemUTC())) {
            assertThat(reconciler.reconcile().orphanContainers())
                    .extracting(LabelledContainer::id)
                    .containsExactly(ghost);
        }
        // With no retries left both wait for a person, and their containers are removed.
        tickUntil(exits.id(), SandboxState.AWAITING_HUMAN);
        tickUntil(vanishes.id(), SandboxState.AWAITING_HUMAN);
        SandboxRig.await(
                "the exited container is removed",
                () -> dockerd.docker("ps", "-aq", "--filter", "label=paddock.sandbox=" + exits.id())
                        .out()
                        .isBlank(),
                Duration.ofSeconds(30));
    }

    @Test
    void aContainerThatOutlivesTheEngineIsWatchedAgainAndEndsAsItWould() throws Exception {
        startPaddock(true); // --live-restore: the container runs on while its engine is down
        SandboxRecord s = runContainer("Outlives its engine", "sleep 15; exit 5");

        dockerd.kill(true);
        assertThat(watch.checkNow().away()).isTrue();
        wiring.supervisor().tick();
        assertThat(row(s.id()).shownState()).isEqualTo("unknown");
        dockerd.restart();
        assertThat(watch.checkNow().status().reachable()).isTrue();

        assertThat(find(s.id()).state()).as("the container runs on").isEqualTo(SandboxState.RUNNING);
        assertThat(find(s.id()).lease().expiresAt()).isAfter(Instant.now().plusSeconds(60));
        assertThat(kinds(s.id())).endsWith("sandbox.engine_unreachable", "sandbox.engine_back");
        SandboxRecord ended = tickUntil(s.id(), SandboxState.FAILED);
        assertThat(ended.run().exitCode()).isEqualTo(5);
        assertThat(ended.run().lastError()).isEqualTo("the agent exited with 5");
    }
}
