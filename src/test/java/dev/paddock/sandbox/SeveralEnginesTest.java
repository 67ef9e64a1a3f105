package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.paddock.Wiring;
import dev.paddock.container.EngineEntry;
import dev.paddock.container.EngineRegistry;
import dev.paddock.container.EngineWatch;
import dev.paddock.container.ResourceLimits;
import dev.paddock.events.Event;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.container.ContainerEngines;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.PrivateDockerd;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Docker engines at once: the machine's main one ({@code local}) and a TLS engine of the test's own in its own
 * network namespace ({@link PrivateDockerd#startTls()}), registered as {@code far}. A sandbox pinned there runs there
 * with its limits and its figures; losing {@code far} makes its sandbox unknown and leaves the local one alone; its
 * return reconciles it; placement picks the engine with room.
 */
class SeveralEnginesTest {
    private static final String IMAGE = "paddock-test:busybox";
    private static final String FILLER_HOME = "several-engines-test-filler";

    @TempDir
    Path tmp;

    TempRepo repo;
    PrivateDockerd far;
    Wiring wiring;

    @BeforeEach
    void open() throws Exception {
        DockerTests.requireEngineWithGitImage();
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("src/app.txt", "version 1\n", "Add the app");
        far = PrivateDockerd.startTls();
        far.load(IMAGE);
        Path home = tmp.resolve("home");
        EngineRegistry.in(home).add(new EngineEntry("far", far.host(), far.tlsDir(), null, Map.of("zone", "far")));
        wiring = Wiring.open(PaddockHome.resolve(home, Map.of()));
        wiring.setApiUrl("http://127.0.0.1:1");
        wiring.repoService().setContainerImage(repo.dir(), IMAGE);
        wiring.environment().engineWatch().start(Duration.ofHours(1)); // watching, as a panel does
        wiring.engines().watchAll(Duration.ofHours(1));
        assertThat(wiring.environment().engineWatch().checkNow().status().reachable())
                .isTrue();
        assertThat(farWatch().checkNow().status().reachable())
                .as("far answers: %s", far.log())
                .isTrue();
    }

    @AfterEach
    void close() {
        DockerTests.removeAll("paddock.home=" + FILLER_HOME);
        if (wiring != null) {
            try {
                DockerTests.removeAll("paddock.home=" + wiring.home().id());
            } catch (Exception e) {
                // nothing left to remove
            }
            wiring.close();
        }
        if (far != null) {
            far.close();
        }
    }

    EngineWatch farWatch() {
        return wiring.engines().engine("far").watch();
    }

    SandboxRecord run(String task, String command, String engine) throws Exception {
        long t0 = System.nanoTime();
        SandboxRecord s = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, command)
                        .tier(Tier.CONTAINER)
                        .engine(engine)
                        .limits(ResourceLimits.DEFAULTS
                                .withNanoCpus(ResourceLimits.ONE_CPU / 2)
                                .withMemoryBytes(256 * ResourceLimits.MIB))
                        .leaseMs(120_000L)
                        .maxRetries(0)
                        .build());
        SandboxRecord r = tickUntil(s.id(), SandboxState.RUNNING);
        System.out.printf(
                "BENCH sandbox on %s: created to running in %d ms%n",
                (r.spec().engine() == null ? "local" : r.spec().engine()) + (engine == null ? " (placed)" : ""),
                (System.nanoTime() - t0) / 1_000_000);
        return r;
    }

    SandboxRecord tickUntil(String id, SandboxState until) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        SandboxRecord r = wiring.sandboxService().find(id);
        while (r.state() != until) {
            assertThat(System.nanoTime())
                    .as(
                            "%s reaches %s; now %s (%s)",
                            id, until.id(), r.state().id(), r.run().lastError())
                    .isLessThan(deadline);
            wiring.supervisor().tick();
            Thread.sleep(50);
            r = wiring.sandboxService().find(id);
        }
        return r;
    }

    List<String> kinds(String id) throws Exception {
        return wiring.sandboxService().history(id).stream().map(Event::kind).toList();
    }

    boolean shownUnknown(String id) throws Exception {
        return wiring.workspace().statusOf(repo.dir()).sandboxes().stream()
                .filter(s -> s.id().equals(id))
                .findFirst()
                .orElseThrow()
                .engineUnreachable();
    }

    @Test
    void aSandboxPinnedToTheTlsEngineRunsThereAndOnlyItsOutageConcernsIt() throws Exception {
        SandboxRecord there = run("Runs far away", "echo hello-from-far; sleep 600", "far");
        SandboxRecord here = run("Runs here", "sleep 600", "local"); // pinned: placement might pick far

        assertThat(there.spec().engine()).isEqualTo("far");
        assertThat(here.spec().engine()).isNull();
        String cid = there.runRef().engineId();
        DockerTests.Result inspect = far.docker("inspect", cid);
        assertThat(inspect.code()).as(inspect.out()).isZero();
        JsonNode hc = new ObjectMapper().readTree(inspect.out()).get(0).get("HostConfig");
        assertThat(hc.get("NanoCpus").asLong()).isEqualTo(ResourceLimits.ONE_CPU / 2);
        assertThat(hc.get("Memory").asLong()).isEqualTo(256 * ResourceLimits.MIB);
        assertThat(DockerTests.docker("inspect", cid).code())
                .as("not on the local engine")
                .isNotZero();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Path log = wiring.supervisor().logFile(there.id());
        while (!(Files.exists(log) && Files.readString(log).contains("hello-from-far"))
                || !wiring.containers().metrics().latest().containsKey(there.id())) {
            assertThat(System.nanoTime())
                    .as(
                            "output and figures of the far sandbox; figures %s",
                            wiring.containers().metrics().latest())
                    .isLessThan(deadline);
            wiring.supervisor().tick();
            Thread.sleep(200);
        }
        assertThat(wiring.containers().metrics().latest().get(there.id()).memoryLimitBytes())
                .isEqualTo(256 * ResourceLimits.MIB);

        far.kill(true);
        assertThat(farWatch().checkNow().away()).isTrue();
        for (int i = 0; i < 3; i++) {
            wiring.supervisor().tick();
        }
        assertThat(wiring.sandboxService().find(there.id()).state()).isEqualTo(SandboxState.RUNNING);
        assertThat(shownUnknown(there.id())).isTrue();
        assertThat(shownUnknown(here.id())).isFalse();
        assertThat(kinds(there.id())).endsWith("sandbox.engine_unreachable");
        assertThat(kinds(here.id())).doesNotContain("sandbox.engine_unreachable");
        String table = dev.paddock.api.CliText.sandboxTable(
                List.of(
                        dev.paddock.api.SandboxView.of(wiring.sandboxService().find(there.id()), true),
                        dev.paddock.api.SandboxView.of(wiring.sandboxService().find(here.id()), false)),
                java.util.Locale.ROOT,
                repo.dir());
        assertThat(table)
                .contains("container@far")
                .contains("the Docker engine far does not answer; last known running");
        assertThat(dev.paddock.api.SandboxView.of(wiring.sandboxService().find(here.id()))
                        .engine())
                .isEqualTo("local");

        far.restart(); // without --live-restore its containers stopped with it
        assertThat(farWatch().checkNow().status().reachable()).isTrue();
        SandboxRecord after = wiring.sandboxService().find(there.id());
        assertThat(after.state()).isEqualTo(SandboxState.FAILED);
        assertThat(after.run().lastError()).endsWith("while the engine was away");
        assertThat(shownUnknown(here.id())).isFalse();
        assertThat(wiring.sandboxService().find(here.id()).state()).isEqualTo(SandboxState.RUNNING);
        wiring.sandboxService().stop(here.id(), "test");
    }

    @Test
    void placementPicksTheEngineWithRoomAmongThoseWithTheLabels() throws Exception {
        ContainerEngines engines = wiring.engines();
        ResourceLimits limits = ResourceLimits.DEFAULTS;
        // far made full: a Paddock container there whose memory limit is four times the engine's memory (the local
        // engine is shared with other tests, whose containers may over-commit it too, but not by that much)
        long farMemory = Long.parseLong(
                far.docker("info", "--format", "{{.MemTotal}}").out().strip());
        fill(far.docker(
                "run",
                "-d",
                "--label",
                "paddock.sandbox=filler",
                "--label",
                "paddock.home=" + FILLER_HOME,
                "--memory",
                String.valueOf(4 * farMemory),
                IMAGE,
                "sleep",
                "600"));
        assertThat(engines.place(null, Map.of(), limits))
                .as("local has room, far none")
                .isNull();

        far.docker(
                "rm",
                "-f",
                far.docker("ps", "-q", "--filter", "label=paddock.home=" + FILLER_HOME)
                        .out()
                        .strip());
        long localMemory = Long.parseLong(
                DockerTests.docker("info", "--format", "{{.MemTotal}}").out().strip());
        fill(DockerTests.docker(
                "run",
                "-d",
                "--label",
                "paddock.sandbox=filler",
                "--label",
                "paddock.home=" + FILLER_HOME,
                "--memory",
                String.valueOf(4 * localMemory),
                IMAGE,
                "sleep",
                "600"));
        assertThat(engines.place(null, Map.of(), limits))
                .as("far has room, local none")
                .isEqualTo("far");

        assertThat(engines.place(null, Map.of("zone", "far"), limits)).isEqualTo("far");
        assertThat(engines.place("local", Map.of(), limits)).isNull();
        assertThatThrownBy(() -> engines.place(null, Map.of("zone", "moon"), limits))
                .isInstanceOf(IsolationException.class)
                .hasMessageContaining("No Docker engine has the labels {zone=moon}");
        assertThatThrownBy(() -> engines.place("nowhere", Map.of(), limits))
                .hasMessageContaining("No Docker engine named nowhere; known: local, far.");
        assertThatThrownBy(() -> wiring.sandboxService()
                        .create(NewSandbox.custom(repo.dir(), "Not here", "true")
                                .engine("nowhere")
                                .tier(Tier.CONTAINER)
                                .build()))
                .hasMessage("Cannot place the container sandbox: No Docker engine named nowhere; known: local, far.");
        assertThatThrownBy(() -> wiring.sandboxService()
                        .create(NewSandbox.custom(repo.dir(), "Not a container", "true")
                                .engine("far")
                                .build()))
                .hasMessage("--engine and --engine-label are for the container tier; this sandbox's tier is worktree.");

        // A labelled container on far that no sandbox names is found as an orphan, saying on which engine.
        String ghost = far.docker(
                        "create",
                        "--label",
                        "paddock.sandbox=ghost-20261208-001",
                        "--label",
                        "paddock.repo=" + repo.dir(),
                        "--label",
                        "paddock.home=" + wiring.home().id(),
                        IMAGE,
                        "true")
                .out()
                .strip();
        try (Reconciler reconciler = new Reconciler(
                wiring.sandboxes(),
                wiring.repoStore(),
                new dev.paddock.worktree.RepositoryLocator(new dev.paddock.worktree.GitCli()),
                new dev.paddock.worktree.WorktreeManager(new dev.paddock.worktree.GitCli()),
                new OrphanScanner(java.time.Clock.systemUTC(), Duration.ZERO),
                wiring.reclaimer(),
                wiring.events(),
                wiring.settings(),
                wiring.runtimes(),
                java.time.Clock.systemUTC())) {
            assertThat(reconciler.lookForOrphanContainers()).anySatisfy(f -> {
                assertThat(f.container().id()).isEqualTo(ghost);
                assertThat(f.container().engine()).isEqualTo("far");
            });
        }
        far.docker("rm", "-f", ghost);

        // The sandbox made without --engine goes where placement says, and its record says where.
        SandboxRecord placed = run("Placed", "sleep 600", null);
        assertThat(placed.spec().engine()).isEqualTo("far");
        assertThat(far.docker("inspect", placed.runRef().engineId()).code()).isZero();
        wiring.sandboxService().stop(placed.id(), "test");
    }

    private static void fill(DockerTests.Result run) {
        assertThat(run.code()).as("filler container: %s", run.out()).isZero();
    }
}
