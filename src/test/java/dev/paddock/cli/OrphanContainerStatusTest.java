package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Wiring;
import dev.paddock.sandbox.OrphanScanner;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A container labelled as a sandbox's of this home that no sandbox names (a real one on the Docker engine) is
 * listed in {@code paddock status}, text and {@code --json} {@code orphans}, with its id, name and home label, not
 * only reported as an event. It must be older than the orphan settle time ({@link OrphanScanner#SETTLE}), so the
 * class makes it once and waits that long once.
 */
class OrphanContainerStatusTest {
    private static final String SANDBOX =
            "ghost-" + UUID.randomUUID().toString().substring(0, 8);

    @TempDir
    static Path tmp;

    private static Path home;
    private static TempRepo repo;
    private static String homeId;
    private static String ghostId;
    private static String ghostName;

    @BeforeAll
    static void makeAnOrphanContainer() throws Exception {
        DockerTests.requireEngineWithGitImage();
        home = tmp.resolve("home");
        repo = TempRepo.init(tmp.resolve("repo"));
        try (Wiring w = Wiring.open(PaddockHome.resolve(home, Map.of()))) {
            w.repoService().open(repo.dir());
            homeId = w.home().id();
        }
        ghostName = "paddock-" + SANDBOX;
        DockerTests.Result ghost = DockerTests.docker(
                "create",
                "--name",
                ghostName,
                "--label",
                "paddock.sandbox=" + SANDBOX,
                "--label",
                "paddock.repo=" + repo.dir(),
                "--label",
                "paddock.home=" + homeId,
                DockerTests.GIT_IMAGE,
                "true");
        assertThat(ghost.code()).as(ghost.out()).isZero();
        ghostId = ghost.out().strip();
        Instant settled = Instant.now().plus(OrphanScanner.SETTLE).plusSeconds(2);
        while (Instant.now().isBefore(settled)) {
            Thread.sleep(250);
        }
    }

    @AfterAll
    static void removeIt() {
        if (ghostId != null) {
            DockerTests.docker("rm", "-f", ghostId);
        }
    }

    @Test
    void statusJsonListsTheOrphanContainerWithItsIdNameAndHome() throws Exception {
        StatusCommandTest.Run run = StatusCommandTest.paddock(
                "--home", home.toString(), "status", "--repo", repo.dir().toString(), "--json");

        assertThat(run.exit()).as(run.describe()).isZero();
        JsonNode orphans = run.json().get("orphans");
        assertThat(orphans).as(run.out()).hasSize(1);
        JsonNode o = orphans.get(0);
        assertThat(o.get("kind").asText()).isEqualTo("container");
        assertThat(o.get("name").asText()).isEqualTo(SANDBOX);
        assertThat(o.get("containerId").asText()).isEqualTo(ghostId);
        assertThat(o.get("containerName").asText()).isEqualTo(ghostName);
        assertThat(o.get("containerState").asText()).isEqualTo("created");
        assertThat(o.get("home").asText()).isEqualTo(homeId);
        assertThat(o.get("description").asText()).contains("remove it with docker rm -f " + ghostId.substring(0, 12));
    }

    @Test
    void statusTextListsTheOrphanContainer() {
        StatusCommandTest.Run run = StatusCommandTest.paddock(
                "--home", home.toString(), "status", "--repo", repo.dir().toString());

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.out())
                .contains("Orphans (1)\n  container " + ghostId.substring(0, 12) + " " + ghostName
                        + " (created) labelled " + SANDBOX + ": no sandbox of that id; remove it with docker rm -f "
                        + ghostId.substring(0, 12) + "\n");
    }

    @Test
    void aRunningPaddockListsTheOrphanContainersItsReconcilerFound() throws Exception {
        try (Wiring w = Wiring.open(PaddockHome.resolve(home, Map.of()))) {
            w.containers().labelled(); // a Paddock with container sandboxes is connected to its engine
            assertThat(w.workspace().statusOf(repo.dir()).orphans())
                    .as("before any pass")
                    .isEmpty();

            w.reconciler().reconcile();
            RepositoryStatus status = w.workspace().statusOf(repo.dir());

            assertThat(status.orphans()).singleElement().satisfies(o -> {
                assertThat(o.kind()).isEqualTo("container");
                assertThat(o.containerId()).isEqualTo(ghostId);
                assertThat(o.home()).isEqualTo(homeId);
                assertThat(o.path()).isNull();
            });
        }
    }
}
