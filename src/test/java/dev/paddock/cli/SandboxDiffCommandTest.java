package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.cli.StatusCommandTest.Run;
import dev.paddock.diff.DiffRig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock sandbox diff} with no Paddock running (the command opens the store itself), on a real sandbox's
 * worktree; its patch is git's.
 */
class SandboxDiffCommandTest {
    @TempDir
    Path tmp;

    @Test
    void printsThePatchTheStatAndTheJsonOfASandboxsWholeChange() throws Exception {
        String gitPatch;
        String commit;
        try (DiffRig rig = DiffRig.open(tmp, "cli-001", repo -> {
            repo.write("lib/a.txt", "a\n".repeat(20));
            repo.write("keep.txt", "one two\n");
        })) {
            rig.git("mv", "lib", "src");
            commit = rig.commit("Move lib to src");
            rig.write("keep.txt", "one  two\nthree\n");
            rig.write("notes.md", "untracked\n");
            gitPatch = rig.gitDiff();
        }
        String home = tmp.resolve("home").toString();

        Run patch = paddock("--home", home, "sandbox", "diff", "cli-001");
        Run stat = paddock("--home", home, "sandbox", "diff", "cli-001", "--stat");
        Run statW = paddock("--home", home, "sandbox", "diff", "cli-001", "--stat", "--ignore-whitespace");
        Run json = paddock("--home", home, "sandbox", "diff", "cli-001", "--json", "--commit", commit);
        Run unknown = paddock("--home", home, "sandbox", "diff", "nope-001");

        assertThat(patch.exit()).as(patch.describe()).isZero();
        assertThat(patch.out()).isEqualTo(gitPatch).contains("rename from lib/a.txt");
        assertThat(stat.out())
                .isEqualTo(" keep.txt           | 3 ++-\n"
                        + " notes.md           | 1 +\n"
                        + " {lib => src}/a.txt | 0\n"
                        + " 3 files changed, 3 insertions(+), 1 deletion(-)\n");
        assertThat(statW.out()).contains(" keep.txt           | 1 +\n");
        JsonNode d = json.json();
        assertThat(d.at("/files/0/kind").asText()).isEqualTo("RENAMED");
        assertThat(d.at("/files/0/oldPath").asText()).isEqualTo("lib/a.txt");
        assertThat(d.at("/commits/0/id").asText()).isEqualTo(commit);
        assertThat(unknown.exit()).isNotZero();
        assertThat(unknown.err()).contains("No sandbox nope-001");
    }

    @Test
    void printsACheckpointsChangeAgainstTheOneBeforeOrAnother() throws Exception {
        try (DiffRig rig = DiffRig.open(tmp, "cli-002", repo -> repo.write("a.txt", "one\n"))) {
            rig.write("a.txt", "one\ntwo\n");
            rig.wiring.checkpoints().checkpoint("cli-002", "first", null, "test");
            rig.write("b.txt", "bee\n");
            rig.wiring.checkpoints().checkpoint("cli-002", "second", null, "test");
        }
        String home = tmp.resolve("home").toString();

        Run first = paddock("--home", home, "sandbox", "diff", "cli-002", "--checkpoint", "1");
        Run between = paddock("--home", home, "sandbox", "diff", "cli-002", "--checkpoint", "1", "--to", "2", "--stat");
        Run alone = paddock("--home", home, "sandbox", "diff", "cli-002", "--to", "2");

        assertThat(first.exit()).as(first.describe()).isZero();
        assertThat(first.out()).contains("a/a.txt").contains("+two").doesNotContain("b.txt");
        assertThat(between.out()).contains(" b.txt | 1 +").doesNotContain("a.txt");
        assertThat(alone.exit()).isNotZero();
        assertThat(alone.err()).contains("--to M needs --checkpoint N");
    }
}
