package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.LabelledContainer;
import dev.paddock.events.Event;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.RepositoryLocator;
import dev.paddock.worktree.WorktreeManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Paddock homes on one real Docker engine, each running a container sandbox: each labels its containers with
 * its home's id ({@code paddock.home}), never calls the other's an orphan nor removes the other's merge test
 * container, and reports a container an older Paddock left without a home label apart, without telling anyone to
 * remove it.
 */
class ContainerHomesTest {
    @TempDir
    Path tmp;

    private Side a;
    private Side b;

    /** One Paddock: its home, repository and services. */
    private static final class Side implements AutoCloseable {
        final Path home;
        final TempRepo repo;
        final Wiring wiring;
        final Reconciler reconciler;

        Side(Path dir) throws Exception {
            home = dir.resolve("home");
            repo = TempRepo.init(dir.resolve("repo"));
            wiring = Wiring.open(PaddockHome.resolve(home, Map.of()));
            wiring.setApiUrl("http://127.0.0.1:1");
            wiring.repoService().setContainerImage(repo.dir(), DockerTests.GIT_IMAGE);
            GitCli git = new GitCli();
            reconciler = new Reconciler(
                    wiring.sandboxes(),
                    wiring.repoStore(),
                    new RepositoryLocator(git),
                    new WorktreeManager(git),
                    new OrphanScanner(Clock.systemUTC(), Duration.ZERO),
                    wiring.reclaimer(),
                    wiring.events(),
                    wiring.settings(),
                    wiring.runtimes(),
                    Clock.systemUTC());
        }

        String homeId() throws Exception {
            return Files.readString(home.resolve("home-id")).strip();
        }

        SandboxRecord running(String task) throws Exception {
            SandboxRecord s = wiring.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), task, "sleep 120")
                            .tier(Tier.CONTAINER)
                            .leaseMs(120_000L)
                            .maxRetries(0)
                            .build());
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (wiring.sandboxService().find(s.id()).state() != SandboxState.RUNNING) {
                assertThat(System.nanoTime()).as("%s runs", s.id()).isLessThan(deadline);
                wiring.supervisor().tick();
                Thread.sleep(100);
            }
            return wiring.sandboxService().find(s.id());
        }

        List<Event> events() throws Exception {
            return wiring.events()
                    .recent(
                            wiring.repoStore()
                                    .findByPath(repo.dir())
                                    .orElseThrow()
                                    .id(),
                            200);
        }

        @Override
        public void close() {
            reconciler.close();
            wiring.close();
            DockerTests.removeAll("paddock.repo=" + repo.dir());
        }
    }

    @BeforeEach
    void open() throws Exception {
        DockerTests.requireEngineWithGitImage();
        a = new Side(tmp.resolve("a"));
        b = new Side(tmp.resolve("b"));
    }

    @AfterEach
    void close() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        DockerTests.removeAll("paddock.sandbox=old-20261130-001");
    }

    @Test
    void eachHomeLooksAfterItsOwnContainersOnly() throws Exception {
        SandboxRecord inA = a.running("Work of home A");
        SandboxRecord inB = b.running("Work of home B");

        Reconciler.Report fromA = a.reconciler.reconcile();
        Reconciler.Report fromB = b.reconciler.reconcile();

        assertThat(fromA.orphanContainers())
                .extracting(LabelledContainer::id)
                .doesNotContain(inB.runRef().engineId())
                .isEmpty();
        assertThat(fromB.orphanContainers())
                .extracting(LabelledContainer::id)
                .doesNotContain(inA.runRef().engineId())
                .isEmpty();
        assertThat(a.events()).extracting(Event::kind).doesNotContain("sandbox.orphan_container_found");
        assertThat(b.events()).extracting(Event::kind).doesNotContain("sandbox.orphan_container_found");
        assertThat(DockerTests.containers("paddock.sandbox=" + inB.id()))
                .containsExactly(inB.runRef().engineId());
        assertThat(a.homeId()).isNotEqualTo(b.homeId());
        assertThat(DockerTests.inspect(inA.runRef().engineId())
                        .at("/Config/Labels/paddock.home")
                        .asText())
                .isEqualTo(a.homeId());
        assertThat(DockerTests.inspect(inB.runRef().engineId())
                        .at("/Config/Labels/paddock.home")
                        .asText())
                .isEqualTo(b.homeId());
    }

    @Test
    void twoHomesRunSandboxesOfTheSameIdSideBySide() throws Exception {
        // Ids are made of the task's words and the day: two homes given the same task name their sandboxes alike.
        SandboxRecord inA = a.running("Fix the flaky checkout test");
        SandboxRecord inB = b.running("Fix the flaky checkout test");

        assertThat(inB.id()).isEqualTo(inA.id());
        assertThat(inB.runRef().engineId()).isNotEqualTo(inA.runRef().engineId());
        assertThat(DockerTests.inspect(inA.runRef().engineId()).at("/Name").asText())
                .contains(inA.id())
                .endsWith(a.homeId().substring(0, 8));
        assertThat(DockerTests.inspect(inB.runRef().engineId()).at("/Name").asText())
                .contains(inB.id())
                .endsWith(b.homeId().substring(0, 8));
    }

    @Test
    void anUnlabelledContainerOfAnOlderPaddockIsReportedApartWithoutAdviceToRemoveIt() throws Exception {
        DockerTests.Result old = DockerTests.docker(
                "create",
                "--label",
                "paddock.sandbox=old-20261130-001",
                "--label",
                "paddock.repo=" + a.repo.dir(),
                DockerTests.GIT_IMAGE,
                "true");
        assertThat(old.code()).as(old.out()).isZero();
        String oldId = old.out().strip();
        a.running("Something of our own"); // connects A to the engine

        Reconciler.Report report = a.reconciler.reconcile();
        a.reconciler.reconcile(); // once, not once per pass

        assertThat(report.orphanContainers()).extracting(LabelledContainer::id).doesNotContain(oldId);
        // (Other Paddocks on this engine may have left unlabelled containers too: only this one is looked at.)
        List<Event> seen = a.events().stream()
                .filter(e -> e.kind().equals("sandbox.unlabelled_container_found")
                        && e.message().contains(oldId.substring(0, 12)))
                .toList();
        assertThat(seen)
                .singleElement()
                .satisfies(e -> assertThat(e.message())
                        .contains(oldId.substring(0, 12))
                        .contains("maybe another Paddock home's")
                        .doesNotContain("docker rm"));
        assertThat(DockerTests.containers("paddock.sandbox=old-20261130-001")).containsExactly(oldId);
    }

    @Test
    void aMergeTestContainerOfAnotherHomeIsNotRemovedByRecovery() throws Exception {
        a.running("Connect A"); // connects A to the engine
        // Both homes have a merge entry 1 on the same repository: only A's test container is A's to end.
        String theirs = mergeContainer(a.repo.dir(), b.homeId());
        String ours = mergeContainer(a.repo.dir(), a.homeId());

        int removed = a.wiring
                .containers()
                .removeLabelled(DockerContainers.MERGE_LABEL, "1", a.repo.dir().toString(), Duration.ofSeconds(1));

        assertThat(removed).isEqualTo(1);
        assertThat(DockerTests.containers("paddock.merge=1")).contains(theirs).doesNotContain(ours);
    }

    private static String mergeContainer(Path repo, String home) {
        DockerTests.Result r = DockerTests.docker(
                "run",
                "-d",
                "--label",
                "paddock.merge=1",
                "--label",
                "paddock.repo=" + repo,
                "--label",
                "paddock.home=" + home,
                DockerTests.GIT_IMAGE,
                "sleep",
                "60");
        assertThat(r.code()).as(r.out()).isZero();
        return r.out().strip();
    }
}
