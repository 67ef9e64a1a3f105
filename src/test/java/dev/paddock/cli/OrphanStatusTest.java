package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Host;
import dev.paddock.Wiring;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Orphans in {@code paddock status} (text and {@code --json}, the shape of {@code GET /v1/status}): from the
 * store directly, and through the API of a running Paddock.
 */
class OrphanStatusTest {
    @TempDir
    Path tmp;

    private Path home;
    private TempRepo repo;
    private Path stray;

    @BeforeEach
    void setUp() throws Exception {
        home = tmp.resolve("home");
        repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
        try (Wiring w = Wiring.open(PaddockHome.resolve(home, Map.of()))) {
            w.repoService().open(repo.dir());
        }
        stray = repo.addWorktree(repo.dir().resolve(".worktrees/stray-001/feature/stray"), "feature/stray");
        Files.setLastModifiedTime(
                stray.getParent().getParent(), FileTime.from(Instant.now().minus(Duration.ofHours(1))));
        // Just made: it may be a sandbox being created, whose record follows in a moment.
        repo.addWorktree(repo.dir().resolve(".worktrees/young-001/feature/young"), "feature/young");
    }

    @Test
    void statusJsonListsOrphansWithWhatCanBeDoneAboutThem() throws Exception {
        StatusCommandTest.Run run = StatusCommandTest.paddock(
                "--home", home.toString(), "status", "--repo", repo.dir().toString(), "--json");

        assertThat(run.exit()).as(run.describe()).isZero();
        assertOrphans(run.json());
    }

    @Test
    void statusTextListsOrphans() {
        StatusCommandTest.Run run = StatusCommandTest.paddock(
                "--home", home.toString(), "status", "--repo", repo.dir().toString());

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.out())
                .contains("Orphans (1)\n  .worktrees/stray-001/feature/stray: worktree on feature/stray;"
                        + " no open sandbox owns it [adopt, remove]\n");
    }

    @Test
    void statusThroughTheApiOfARunningPaddockListsThemToo() throws Exception {
        try (Host host = Host.start(PaddockHome.resolve(home, Map.of()), "serve")) {
            StatusCommandTest.Run run = StatusCommandTest.paddock(
                    "--home", home.toString(), "status", "--repo", repo.dir().toString(), "--json");

            assertThat(run.exit()).as(run.describe()).isZero();
            assertOrphans(run.json());
        }
    }

    private void assertOrphans(JsonNode status) {
        assertThat(status.get("orphans")).hasSize(1);
        JsonNode o = status.get("orphans").get(0);
        assertThat(o.get("path").asText()).isEqualTo(stray.toString());
        assertThat(o.get("kind").asText()).isEqualTo("worktree");
        assertThat(o.get("name").asText()).isEqualTo("stray-001");
        assertThat(o.get("branch").asText()).isEqualTo("feature/stray");
        assertThat(o.get("head").asText()).isEqualTo(repo.head());
        assertThat(o.get("locked").asBoolean()).isFalse();
        assertThat(o.get("prunable").asBoolean()).isFalse();
        assertThat(o.get("actions")).extracting(JsonNode::asText).containsExactly("adopt", "remove");
        assertThat(o.get("description").asText())
                .isEqualTo(
                        ".worktrees/stray-001/feature/stray: worktree on" + " feature/stray; no open sandbox owns it");
        assertThat(status.get("worktrees"))
                .as("orphans stay in the worktree list too")
                .hasSize(3);
    }
}
