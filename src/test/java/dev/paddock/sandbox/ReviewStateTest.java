package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The {@code review} state's edges: in from {@code done} only; out to the queue, a new run, removal or a person. */
class ReviewStateTest {
    @Test
    void onlyADoneSandboxBecomesReadyForReview() {
        for (SandboxState s : SandboxState.values()) {
            assertThat(s.canBecome(SandboxState.REVIEW))
                    .as(s.id() + " → review")
                    .isEqualTo(s == SandboxState.DONE);
        }
    }

    @Test
    void aSandboxReadyForReviewIsApprovedSentBackDiscardedOrHandedToAPerson() {
        EnumSet<SandboxState> out = EnumSet.noneOf(SandboxState.class);
        for (SandboxState s : SandboxState.values()) {
            if (SandboxState.REVIEW.canBecome(s)) {
                out.add(s);
            }
        }
        assertThat(out)
                .containsExactlyInAnyOrder(
                        SandboxState.MERGING,
                        SandboxState.RETRYING,
                        SandboxState.CLEANING,
                        SandboxState.AWAITING_HUMAN);
    }

    @Test
    void itIsStoredAsReviewShownAsReadyForReviewAndCountsOnItsOwnTile() {
        assertThat(SandboxState.REVIEW.id()).isEqualTo("review");
        assertThat(SandboxState.of("review")).isEqualTo(SandboxState.REVIEW);
        assertThat(SandboxState.REVIEW.label()).isEqualTo("ready for review");
        assertThat(SandboxState.AWAITING_HUMAN.label()).isEqualTo("awaiting human");
        assertThat(SandboxState.REVIEW.awaitsReview()).isTrue();
        assertThat(SandboxState.REVIEW.isActive()).isFalse();
        assertThat(SandboxState.REVIEW.needsHuman()).isFalse();
        assertThat(SandboxState.REVIEW.isTerminal()).isFalse();
        assertThat(SandboxState.REVIEW.mayHaveProcess()).isFalse();
    }
}
