package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Wiring;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
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
 * Worktree folders deleted behind git's and Paddock's back show as missing in {@code paddock status} (text and
 * {@code --json}, the shape of {@code GET /v1/status}): the worktree row, the sandbox row and the orphan row.
 */
class MissingFolderStatusTest {
    @TempDir
    Path tmp;

    private Path home;
    private TempRepo repo;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
    }

    private StatusCommandTest.Run status(String... more) {
        String[] args = new String[4 + more.length];
        args[0] = "--home";
        args[1] = home.toString();
        args[2] = "status";
        args[3] = "--repo=" + repo.dir();
        System.arraycopy(more, 0, args, 4, more.length);
        return StatusCommandTest.paddock(args);
    }

    private static JsonNode byPath(JsonNode list, Path path) {
        for (JsonNode n : list) {
            if (n.get("path").asText().equals(path.toString())) {
                return n;
            }
        }
        throw new AssertionError(path + " not in " + list);
    }

    @Test
    void aLockedWorktreeWhoseFolderWasDeletedIsMissingNotUnknown() throws Exception {
        Path wt = repo.addWorktree(tmp.resolve("wt-locked"), "feature/locked");
        repo.lockWorktree(wt, "agent running");
        TempRepo.deleteTree(wt);

        StatusCommandTest.Run json = status("--json");
        StatusCommandTest.Run text = status();

        assertThat(json.exit()).as(json.describe()).isZero();
        JsonNode w = byPath(json.json().get("worktrees"), wt);
        assertThat(w.get("missing").asBoolean()).isTrue();
        assertThat(w.get("locked").asBoolean()).isTrue();
        assertThat(w.get("prunable").asBoolean())
                .as("git keeps a locked worktree")
                .isFalse();
        assertThat(w.get("dirty").isNull()).isTrue();
        assertThat(byPath(json.json().get("worktrees"), repo.dir())
                        .get("missing")
                        .asBoolean())
                .isFalse();
        assertThat(text.out()).containsPattern("feature/locked +[0-9a-f]{8} +folder missing, locked\n");
    }

    @Test
    void aSandboxWhoseWorktreeFolderIsGoneIsFlaggedInItsRowAndItsWorktreeRow() throws Exception {
        SandboxRecord s;
        try (Wiring w = Wiring.open(PaddockHome.resolve(home, Map.of()))) {
            s = w.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "Finish and vanish", "true")
                            .id("gone-001")
                            .build());
            w.fingerprints().await(s.id(), Duration.ofSeconds(30));
        }
        TempRepo.deleteTree(s.workspace().worktree());

        StatusCommandTest.Run json = status("--json");

        assertThat(json.exit()).as(json.describe()).isZero();
        JsonNode sandbox = json.json().get("sandboxes").get(0);
        assertThat(sandbox.get("id").asText()).isEqualTo("gone-001");
        assertThat(sandbox.get("worktreeMissing").asBoolean()).isTrue();
        assertThat(byPath(json.json().get("worktrees"), s.workspace().worktree())
                        .get("missing")
                        .asBoolean())
                .isTrue();
        assertThat(status().out()).contains("gone-001").contains("(worktree folder missing)");
    }

    @Test
    void anOrphanLockedWorktreeWhoseFolderWasDeletedIsAMissingOrphan() throws Exception {
        try (Wiring w = Wiring.open(PaddockHome.resolve(home, Map.of()))) {
            w.repoService().open(repo.dir());
        }
        Path stray = repo.addWorktree(repo.dir().resolve(".worktrees/stray-001/feature/stray"), "feature/stray");
        repo.lockWorktree(stray, "left behind");
        Files.setLastModifiedTime(
                stray.getParent().getParent(), FileTime.from(Instant.now().minus(Duration.ofHours(1))));
        TempRepo.deleteTree(stray);

        StatusCommandTest.Run json = status("--json");

        assertThat(json.exit()).as(json.describe()).isZero();
        JsonNode o = byPath(json.json().get("orphans"), stray);
        assertThat(o.get("missing").asBoolean()).isTrue();
        assertThat(o.get("prunable").asBoolean()).isFalse();
        assertThat(o.get("actions")).extracting(JsonNode::asText).containsExactly("remove");
        assertThat(o.get("description").asText())
                .isEqualTo(".worktrees/stray-001/feature/stray: worktree on"
                        + " feature/stray, locked (left behind), its folder is missing; no open sandbox owns it");
    }
}
