package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.agent.ToolCallApprovals.Call;
import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pairing a transcript's tool calls with the approvals their hook calls made. */
class ToolCallApprovalsTest {
    private long nextId = 1;

    private Approval approval(String session, String toolUseId, String tool, String request, ApprovalState state) {
        return Approval.builder()
                .id(nextId++)
                .sandboxId("s")
                .tool(tool)
                .request(request)
                .state(state)
                .decision(state == ApprovalState.APPROVED ? "allow" : "deny")
                .decidedBy("policy")
                .sessionId(session)
                .toolUseId(toolUseId)
                .requestedAt(Instant.parse("2026-01-01T10:00:00Z").plusSeconds(nextId))
                .build();
    }

    private static Call bash(String id, String session, String command) {
        return Call.of(
                new TranscriptEntry.ToolCall(
                        id, "Bash", "{\"command\":" + quote(command) + ",\"description\":\"runs it\"}"),
                session);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\\\"") + "\"";
    }

    @Test
    void aCallIsSeenAsThePolicyJudgedIt() {
        assertThat(bash("toolu_1", "s-1", "git status")).isEqualTo(new Call("toolu_1", "s-1", "Bash", "git status"));
        assertThat(Call.of(
                        new TranscriptEntry.ToolCall(
                                "toolu_2",
                                "Edit",
                                "{\"file_path\":\"/w/a.txt\"," + "\"old_string\":\"a\",\"new_string\":\"b\"}"),
                        null))
                .isEqualTo(new Call("toolu_2", null, "Edit", "/w/a.txt"));
        assertThat(Call.of(new TranscriptEntry.ToolCall("toolu_3", "Bash", "not json"), "s")
                        .request())
                .isEmpty();
    }

    @Test
    void onlyTheFailedResultsOfRefusedCallsAreTheirDenials() {
        List<TranscriptEntry> entries = List.of(
                new TranscriptEntry.SessionStarted("s-1", null, null),
                new TranscriptEntry.ToolCall("toolu_A", "Bash", "{\"command\":\"rm -rf /\"}"),
                new TranscriptEntry.ToolCall("toolu_B", "Bash", "{\"command\":\"make\"}"),
                new TranscriptEntry.ToolCall("toolu_C", "Bash", "{\"command\":\"ls\"}"),
                new TranscriptEntry.ToolResult("toolu_A", "denied by the policy", true),
                new TranscriptEntry.ToolResult("toolu_B", "make: no targets", true),
                new TranscriptEntry.ToolResult("toolu_C", "a.txt", false));
        List<ToolCallDecision> decisions = ToolCallApprovals.decide(
                entries,
                List.of(
                        approval("s-1", "toolu_A", "Bash", "rm -rf /", ApprovalState.DENIED),
                        approval("s-1", "toolu_B", "Bash", "make", ApprovalState.APPROVED),
                        approval("s-1", "toolu_C", "Bash", "ls", ApprovalState.APPROVED)));

        assertThat(TranscriptTotals.of(entries).errors())
                .as("every failed result")
                .isEqualTo(2);
        assertThat(ToolCallApprovals.refusedResults(entries, decisions))
                .as("the denial only")
                .isEqualTo(1);
    }

    @Test
    void callsArePairedByTheirIdsWhateverTheOrder() {
        Approval second = approval("s-1", "toolu_B", "Bash", "make", ApprovalState.DENIED);
        Approval first = approval("s-1", "toolu_A", "Bash", "make", ApprovalState.APPROVED);

        List<Approval> got = ToolCallApprovals.match(
                List.of(bash("toolu_A", "s-1", "make"), bash("toolu_B", "s-1", "make"), bash("toolu_C", "s-1", "make")),
                List.of(second, first));

        assertThat(got).containsExactly(first, second, null);
    }

    @Test
    void requestsWithoutAnIdArePairedInOrderBySessionToolAndInput() {
        Approval status1 = approval("s-1", null, "Bash", "git status", ApprovalState.APPROVED);
        Approval test = approval("s-1", null, "Bash", "npm test", ApprovalState.DENIED);
        Approval status2 = approval("s-1", null, "Bash", "git status", ApprovalState.APPROVED);
        Approval otherSession = approval("s-2", null, "Bash", "ls", ApprovalState.APPROVED);

        List<Approval> got = ToolCallApprovals.match(
                List.of(
                        bash("toolu_1", "s-1", "git status"),
                        bash("toolu_2", "s-1", "npm test"),
                        bash("toolu_3", "s-1", "git status"),
                        bash("toolu_4", "s-1", "git status"),
                        bash("toolu_5", "s-1", "ls")),
                List.of(status1, test, status2, otherSession));

        assertThat(got).containsExactly(status1, test, status2, null, null);
    }

    @Test
    void aRequestThatNamesAnotherCallIsNeverPairedByItsContent() {
        Approval forACallNotShown = approval("s-1", "toolu_gone", "Bash", "git status", ApprovalState.APPROVED);

        List<Approval> got = ToolCallApprovals.match(
                List.of(bash("toolu_1", "s-1", "git status"), bash(null, "s-1", "git status")),
                List.of(forACallNotShown));

        assertThat(got).containsExactly(null, null);
    }

    @Test
    void tenThousandCallsPairedBothWaysAreAllPairedRight() {
        List<Call> calls = new ArrayList<>();
        List<Approval> approvals = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            calls.add(bash("toolu_" + i, "s-1", "echo " + i));
            approvals.add(
                    approval("s-1", i % 2 == 0 ? "toolu_" + i : null, "Bash", "echo " + i, ApprovalState.APPROVED));
        }

        List<Approval> got = ToolCallApprovals.match(calls, approvals);

        assertThat(got).containsExactlyElementsOf(approvals);
    }
}
