package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock status --json} (the shape of {@code GET /v1/status}) end to end on a repository with two real
 * submodules: work inside them makes the worktree that holds them dirty, whether git sees it (an initialised
 * submodule edited) or not (a file in the folder of a submodule that is not initialised).
 */
class SubmoduleStatusJsonTest {
    @TempDir
    Path tmp;

    private Path home;
    private TempRepo repo;
    private Path wt;

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        TempRepo lib = TempRepo.init(tmp.resolve("lib-origin"));
        TempRepo docs = TempRepo.init(tmp.resolve("docs-origin"));
        repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
        repo.addSubmodule(lib, "lib");
        repo.addSubmodule(docs, "docs");
        wt = repo.addWorktree(tmp.resolve("wt"), "feature/sub");
    }

    private StatusCommandTest.Run statusJson() {
        return StatusCommandTest.paddock("--home", home.toString(), "status", "--repo=" + repo.dir(), "--json");
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
    void aCleanWorktreeWithSubmodulesIsClean() throws Exception {
        StatusCommandTest.Run run = statusJson();

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(byPath(run.json().get("worktrees"), wt).get("dirty").asBoolean())
                .isFalse();
    }

    @Test
    void anEditedInitialisedSubmoduleMakesTheWorktreeDirty() throws Exception {
        TempRepo.initSubmodules(wt);
        TempRepo.write(wt, "lib/README.md", "edited inside the submodule\n");

        StatusCommandTest.Run run = statusJson();

        assertThat(run.exit()).as(run.describe()).isZero();
        JsonNode w = byPath(run.json().get("worktrees"), wt);
        assertThat(w.get("dirty").asBoolean()).as(w.toString()).isTrue();
    }

    @Test
    void aFileInAnUninitialisedSubmoduleFolderMakesTheWorktreeDirty() throws Exception {
        TempRepo.write(wt, "docs/notes.md", "written where git does not look\n");

        StatusCommandTest.Run run = statusJson();

        assertThat(run.exit()).as(run.describe()).isZero();
        JsonNode w = byPath(run.json().get("worktrees"), wt);
        assertThat(w.get("dirty").asBoolean()).as(w.toString()).isTrue();
    }

    @Test
    void bothAtOnceInTheMainWorktree() throws Exception {
        git(repo.dir(), "-c", "protocol.file.allow=always", "submodule", "--quiet", "update", "--init", "lib");
        TempRepo.write(repo.dir(), "lib/README.md", "edited\n");
        TempRepo.write(repo.dir(), "docs/left.txt", "x\n");

        StatusCommandTest.Run run = statusJson();

        assertThat(run.exit()).as(run.describe()).isZero();
        JsonNode w = byPath(run.json().get("worktrees"), repo.dir());
        assertThat(w.get("dirty").asBoolean()).as(w.toString()).isTrue();
        assertThat(w.get("changedFiles").asInt()).as(w.toString()).isEqualTo(2);
    }

    private static void git(Path dir, String... args) {
        TempRepo.git(dir, args);
    }
}
