package dev.paddock.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one place an event kind gets its severity. */
class EventSeverityTest {
    @Test
    void failuresRefusalsAndAnUnreachableEngineAreErrorsWaitsAreWarningsAndGoodEndsSuccesses() {
        assertThat(EventSeverity.of(EventKinds.APPROVAL_DENIED)).isEqualTo(EventSeverity.ERROR);
        assertThat(EventSeverity.of(EventKinds.APPROVAL_EXPIRED)).isEqualTo(EventSeverity.ERROR);
        assertThat(EventSeverity.of("sandbox.engine_unreachable")).isEqualTo(EventSeverity.ERROR);
        assertThat(EventSeverity.of("sandbox.failed")).isEqualTo(EventSeverity.ERROR);
        assertThat(EventSeverity.of("something.new_failed"))
                .as("a new kind that says it failed")
                .isEqualTo(EventSeverity.ERROR);
        assertThat(EventSeverity.of(EventKinds.APPROVAL_REQUESTED)).isEqualTo(EventSeverity.WARNING);
        assertThat(EventSeverity.of(EventKinds.MERGE_POLICY_REVIEW)).isEqualTo(EventSeverity.WARNING);
        assertThat(EventSeverity.of("sandbox.awaiting_human")).isEqualTo(EventSeverity.WARNING);
        assertThat(EventSeverity.of(EventKinds.MERGE_MERGED)).isEqualTo(EventSeverity.SUCCESS);
        assertThat(EventSeverity.of("sandbox.done")).isEqualTo(EventSeverity.SUCCESS);
        assertThat(EventSeverity.of(EventKinds.WORKTREE_ADDED)).isEqualTo(EventSeverity.INFO);
        assertThat(EventSeverity.of(EventKinds.MERGE_UNRESOLVED)).isEqualTo(EventSeverity.INFO);
        assertThat(EventSeverity.of(null)).isEqualTo(EventSeverity.INFO);
        assertThat(EventSeverity.ERROR.id()).isEqualTo("error");
    }
}
