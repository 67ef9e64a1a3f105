package dev.paddock.diff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.checkpoint.CheckpointService;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A checkpoint's change, against the one before it or another checkpoint, read from the checkpoint refs. */
class CheckpointDiffTest {
    @TempDir
    Path tmp;

    DiffRig rig;
    CheckpointService checkpoints;

    @BeforeEach
    void open() throws Exception {
        rig = DiffRig.open(tmp, "cpd-001", r -> r.write("a.txt", "one\n"));
        checkpoints = rig.wiring.checkpoints();
    }

    @AfterEach
    void close() {
        rig.close();
    }

    @Test
    void aCheckpointIsDiffedAgainstTheOneBeforeItOrTheBaseAndTwoAgainstEachOther() throws Exception {
        rig.write("a.txt", "one\ntwo\n");
        checkpoints.checkpoint("cpd-001", "first", null, "test");
        rig.write("b.txt", "bee\n");
        checkpoints.checkpoint("cpd-001", "second", 3, "test");
        rig.write("a.txt", "one\ntwo\nthree\n");
        rig.write("c.txt", "sea\n"); // after the last checkpoint: in no checkpoint's diff

        SandboxDiff first = rig.diffs().diff("cpd-001", DiffOptions.whole().checkpoints(1, null));
        assertThat(first.files()).extracting(FileChange::path).containsExactly("a.txt");
        assertThat(first.baseCommit()).isEqualTo(rig.base());
        assertThat(first.commits()).isEmpty();
        assertThat(first.headDescription()).contains("checkpoint 1").contains("its base");

        SandboxDiff second = rig.diffs().diff("cpd-001", DiffOptions.whole().checkpoints(2, null));
        assertThat(second.files()).extracting(FileChange::path).containsExactly("b.txt");
        assertThat(second.headDescription()).contains("against checkpoint 1");

        SandboxDiff both = rig.diffs().diff("cpd-001", DiffOptions.whole().checkpoints(1, 2));
        assertThat(both.files()).extracting(FileChange::path).containsExactly("b.txt");

        DiffOptions o = DiffOptions.whole().checkpoints(1, null);
        FilePatch a = rig.diffs().file("cpd-001", "a.txt", o.at(first.snapshot()));
        assertThat(a.hunks().get(0).lines())
                .extracting(DiffLine::text)
                .contains("two")
                .doesNotContain("three");
        assertThat(rig.diffs().patch("cpd-001", o)).contains("+two").doesNotContain("three");

        SandboxDiff back = rig.diffs().diff("cpd-001", DiffOptions.whole().checkpoints(2, 1));
        assertThat(back.files())
                .singleElement()
                .satisfies(f -> assertThat(f.kind()).isEqualTo(ChangeKind.DELETED));
        assertThat(List.of(
                        rig.diffs().diff("cpd-001", DiffOptions.whole()).files().size()))
                .as("the whole change is still the worktree's")
                .containsExactly(3);
    }

    @Test
    void aMissingCheckpointIsNotFound() {
        assertThatThrownBy(() -> rig.diffs().diff("cpd-001", DiffOptions.whole().checkpoints(7, null)))
                .isInstanceOf(DiffNotFoundException.class)
                .hasMessageContaining("no checkpoint 7");
    }
}
