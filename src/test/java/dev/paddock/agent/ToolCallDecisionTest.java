package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.agent.ToolCallDecision.Verdict;
import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The words of {@link ToolCallDecision}, which the Transcript tab and {@code paddock sandbox transcript} both show,
 * and {@link TranscriptTotals}, the figures {@code sandbox compare} counts.
 */
class ToolCallDecisionTest {
    private static Approval approval(ApprovalState state, String decidedBy, String decider, String reason) {
        return Approval.builder()
                .id(7)
                .tool("Bash")
                .request("git push")
                .state(state)
                .decidedBy(decidedBy)
                .decider(decider)
                .reason(reason)
                .matchedRule("Bash(git push:*)")
                .build();
    }

    @Test
    void eachStateInTheTranscriptsWords() {
        assertThat(ToolCallDecision.of(approval(ApprovalState.APPROVED, "policy", null, "allowed by rule")))
                .satisfies(d -> {
                    assertThat(d.verdict()).isEqualTo(Verdict.ALLOWED);
                    assertThat(d.label()).isEqualTo("allowed");
                    assertThat(d.who()).isNull();
                });
        assertThat(ToolCallDecision.of(approval(ApprovalState.APPROVED, "human", "ann", null))
                        .label())
                .isEqualTo("asked · approved by ann");
        assertThat(ToolCallDecision.of(approval(ApprovalState.DENIED, "policy", null, "rm -rf is denied")))
                .satisfies(d -> {
                    assertThat(d.label()).isEqualTo("denied");
                    assertThat(d.reason()).isEqualTo("rm -rf is denied");
                    assertThat(d.verdict().refused()).isTrue();
                });
        ToolCallDecision rejected =
                ToolCallDecision.of(approval(ApprovalState.DENIED, "human", "bob", "denied by bob: not on Fridays"));
        assertThat(rejected.label()).isEqualTo("asked · denied by bob");
        assertThat(rejected.reason()).as("only the person's own words").isEqualTo("not on Fridays");
        assertThat(ToolCallDecision.of(approval(ApprovalState.DENIED, "human", null, "denied by a person"))
                        .reason())
                .isNull();
        assertThat(ToolCallDecision.of(approval(ApprovalState.EXPIRED, "timeout", null, "nobody answered"))
                        .label())
                .isEqualTo("asked · no answer: denied");
        assertThat(ToolCallDecision.of(approval(ApprovalState.CANCELLED, null, null, "stopped"))
                        .verdict()
                        .refused())
                .isFalse();
        ToolCallDecision waiting = ToolCallDecision.of(approval(ApprovalState.PENDING, null, null, null));
        assertThat(waiting.label()).isEqualTo("asked · waiting for you");
        assertThat(waiting.isFinal()).isFalse();
        assertThat(waiting.rule()).isEqualTo("Bash(git push:*)");
    }

    @Test
    void totalsAddCallsErrorsAndTheFiguresRunsReport() {
        TranscriptTotals t = TranscriptTotals.of(List.of(
                new TranscriptEntry.ToolCall("a", "Bash", "{}"),
                new TranscriptEntry.ToolResult("a", "no", true),
                new TranscriptEntry.ToolCall("b", "Read", "{}"),
                new TranscriptEntry.Error("boom"),
                new TranscriptEntry.Usage(false, 10L, 5L, null, 1000L, 2),
                new TranscriptEntry.Usage(true, 3L, null, 0.25, null, null),
                new TranscriptEntry.Output("x")));

        assertThat(t).isEqualTo(new TranscriptTotals(2, 2, 2, 13L, 5L, 0.25, 1000L));
        assertThat(t.tokens()).isEqualTo(18L);
        assertThat(TranscriptTotals.NONE.tokens()).isNull();
    }
}
