package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SandboxLifecycle}'s named operations on a real store: each is one compare-and-set from the state the
 * caller read, with its event (kind {@code sandbox.<to>}, the caller's message, {@code from}/{@code to} details).
 */
class SandboxLifecycleOperationsTest {
    @TempDir
    Path tmp;

    SandboxRig rig;
    SandboxLifecycle lifecycle;

    @BeforeEach
    void open() throws Exception {
        rig = new SandboxRig(tmp);
        lifecycle = new SandboxLifecycle(rig.store);
    }

    @AfterEach
    void close() {
        rig.close();
    }

    private String done(String id) throws Exception {
        rig.create(id, "agent/" + id);
        SandboxFixtures.runToDone(rig.store, id);
        assertThat(rig.find(id).state()).isEqualTo(SandboxState.DONE);
        return id;
    }

    @Test
    void aSandboxGoesThroughTheMergeQueueWithOneEventPerMove() throws Exception {
        String id = done("lc-001");

        assertThat(lifecycle.markMerging(id, SandboxState.DONE, id + " entered the merge queue"))
                .isTrue();
        assertThat(lifecycle.markMerged(id, SandboxState.MERGING, id + " is merged into main"))
                .isTrue();

        SandboxRecord s = rig.find(id);
        assertThat(s.state()).isEqualTo(SandboxState.MERGED);
        assertThat(rig.events.ofSandbox(id)).last().satisfies(e -> {
            assertThat(e.kind()).isEqualTo("sandbox.merged");
            assertThat(e.message()).isEqualTo(id + " is merged into main");
            assertThat(e.details()).contains("\"from\":\"merging\"").contains("\"to\":\"merged\"");
        });
    }

    @Test
    void eachOperationMovesToItsState() throws Exception {
        String a = done("lc-002");
        lifecycle.markMerging(a, SandboxState.DONE, "m");
        assertThat(lifecycle.markConflicted(a, SandboxState.MERGING, a + " conflicts"))
                .isTrue();
        assertThat(rig.find(a).state()).isEqualTo(SandboxState.CONFLICT);
        assertThat(lifecycle.needsHuman(a, SandboxState.CONFLICT, a + " needs a person"))
                .isTrue();
        assertThat(rig.find(a).state()).isEqualTo(SandboxState.AWAITING_HUMAN);
        assertThat(rig.events.ofSandbox(a)).last().extracting(e -> e.kind()).isEqualTo("sandbox.awaiting_human");

        String b = done("lc-003");
        lifecycle.markMerging(b, SandboxState.DONE, "m");
        assertThat(lifecycle.leaveMergeQueue(b, SandboxState.MERGING, b + " left the merge queue"))
                .isTrue();
        assertThat(rig.find(b).state()).isEqualTo(SandboxState.DONE);
        assertThat(rig.events.ofSandbox(b)).last().extracting(e -> e.message()).isEqualTo(b + " left the merge queue");
    }

    @Test
    void aSandboxThatMovedMeanwhileIsLeftAloneAndNothingIsRecorded() throws Exception {
        String id = done("lc-004");
        int events = rig.events.ofSandbox(id).size();

        assertThat(lifecycle.markMerged(id, SandboxState.MERGING, "stale")).isFalse();
        assertThat(lifecycle.needsHuman("no-such-sandbox", SandboxState.DONE, "gone"))
                .isFalse();

        assertThat(rig.find(id).state()).isEqualTo(SandboxState.DONE);
        assertThat(rig.events.ofSandbox(id)).hasSize(events);
    }

    @Test
    void aMoveThatIsNoEdgeOfTheLifecycleIsRefused() throws Exception {
        String id = done("lc-005");

        assertThatThrownBy(() -> lifecycle.markMerged(id, SandboxState.DONE, "skips merging"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("done → merged");
        assertThat(rig.find(id).state()).isEqualTo(SandboxState.DONE);
    }
}
