package dev.paddock.ui.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.agent.TranscriptEntry;
import dev.paddock.agent.TranscriptFormat;
import dev.paddock.agent.TranscriptParser;
import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalState;
import dev.paddock.ui.sandboxes.TranscriptRow.Kind;
import dev.paddock.ui.sandboxes.TranscriptRow.Tone;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Transcript entries becoming the Transcript tab's rows: texts, what is collapsed, decisions, the summary. */
class TranscriptRowsTest {
    private static final Instant NOW = Instant.parse("2026-12-05T17:10:00Z");

    private static List<TranscriptEntry> parse(String stream) {
        TranscriptParser p = TranscriptFormat.CLAUDE_STREAM_JSON.newParser();
        List<TranscriptEntry> out = new java.util.ArrayList<>(p.feed(stream));
        out.addAll(p.finish());
        return out;
    }

    private static String realCli() throws IOException {
        try (InputStream in = TranscriptRowsTest.class.getResourceAsStream("/dev/paddock/agent/claude-stream.jsonl")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theRealCliStreamBecomesOneRowPerEntryWithItsFiguresSummed() throws IOException {
        TranscriptRows rows = new TranscriptRows();
        rows.reset(0);
        assertThat(rows.add(parse(realCli()))).isZero();

        assertThat(rows.from(0))
                .extracting(TranscriptRow::kind)
                .containsExactly(Kind.SESSION, Kind.AGENT, Kind.TOOL_CALL, Kind.TOOL_RESULT, Kind.AGENT, Kind.USAGE);
        TranscriptRow call = rows.get(2);
        assertThat(call.label()).isEqualTo("Bash");
        assertThat(call.text()).isEqualTo("printf 'hello from bash'");
        assertThat(call.expandable()).isFalse();
        TranscriptRow result = rows.get(3);
        assertThat(result.text()).isEqualTo("hello from bash");
        assertThat(result.more()).isEqualTo("Bash · 1 line");
        assertThat(result.expandable())
                .as("one short line: nothing more to show")
                .isFalse();
        assertThat(rows.get(5).text()).startsWith("Run ended · 2 turns · 24 tokens in · 33 out · $0.0008");
        assertThat(rows.summary()).isEqualTo("1 call · 57 tokens · $0.0008");
        assertThat(rows.summaryInFull()).isEqualTo("6 entries · 1 tool call · 1 run: 24 tokens in, 33 out, $0.0008");
        assertThat(rows.undecided()).isTrue();
    }

    @Test
    void aLongResultIsCollapsedToItsFirstLineAndALongCommandToThreeLines() {
        TranscriptRows rows = new TranscriptRows();
        rows.reset(0);
        String output = "line 1\nline 2\nline 3\n";
        rows.add(List.of(
                new TranscriptEntry.ToolCall(
                        "t1", "Bash", "{\"command\":\"cat <<EOF > a.txt\\none\\ntwo" + "\\nthree\\nEOF\"}"),
                new TranscriptEntry.ToolResult("t1", output, false),
                new TranscriptEntry.ToolResult("t1", "boom\nat Foo.java:3", true),
                new TranscriptEntry.Error("API error: overloaded")));

        TranscriptRow call = rows.get(0);
        assertThat(call.text()).isEqualTo("cat <<EOF > a.txt\none\ntwo");
        assertThat(call.detail()).isEqualTo("cat <<EOF > a.txt\none\ntwo\nthree\nEOF");
        assertThat(call.more()).isEqualTo("2 more lines");
        TranscriptRow result = rows.get(1);
        assertThat(result.text()).isEqualTo("line 1");
        assertThat(result.detail()).isEqualTo("line 1\nline 2\nline 3");
        assertThat(result.more()).isEqualTo("Bash · 3 lines");
        assertThat(result.withExpanded(true).expanded()).isTrue();
        assertThat(rows.get(2).error()).isTrue();
        assertThat(rows.get(2).label()).isEqualTo("failed");
        assertThat(rows.get(3).kind()).isEqualTo(Kind.ERROR);
        assertThat(rows.get(3).error()).isTrue();
        assertThat(rows.summary()).isEqualTo("1 call · 2 errors");
    }

    @Test
    void toolCallsGetTheirDecisionsAndDeniedOnesTheirReason() {
        TranscriptRows rows = new TranscriptRows();
        rows.reset(0);
        rows.add(List.of(
                new TranscriptEntry.SessionStarted("s-1", "claude-opus-5-5", "/w"),
                new TranscriptEntry.ToolCall("t1", "Bash", "{\"command\":\"git status\"}"),
                new TranscriptEntry.ToolCall("t2", "Bash", "{\"command\":\"rm -rf build\"}"),
                new TranscriptEntry.ToolCall("t3", "Bash", "{\"command\":\"git push\"}"),
                new TranscriptEntry.ToolCall("t4", "Bash", "{\"command\":\"make deploy\"}")));
        Approval.Builder base =
                Approval.builder().sandboxId("s").tool("Bash").sessionId("s-1").requestedAt(NOW.minusSeconds(60));
        Approval allowed = base.id(1)
                .toolUseId("t1")
                .request("git status")
                .state(ApprovalState.APPROVED)
                .decision("allow")
                .decidedBy("policy")
                .matchedRule("Bash(git status)")
                .reason("allowed by rule")
                .build();
        Approval denied = base.id(2)
                .toolUseId("t2")
                .request("rm -rf build")
                .state(ApprovalState.DENIED)
                .decision("deny")
                .decidedBy("policy")
                .matchedRule("Bash(rm -rf:*)")
                .reason("rm -rf is denied here")
                .build();
        Approval pending = base.id(3)
                .toolUseId("t3")
                .request("git push")
                .state(ApprovalState.PENDING)
                .decision(null)
                .decidedBy(null)
                .matchedRule("Bash(git push:*)")
                .reason("pushing asks a person")
                .build();

        assertThat(rows.decide(List.of(allowed, denied, pending), NOW)).containsExactly(1, 2, 3);

        assertThat(rows.get(1).decision().text()).isEqualTo("allowed");
        assertThat(rows.get(1).decision().tone()).isEqualTo(Tone.ALLOWED);
        assertThat(rows.get(1).decision().tooltip()).startsWith("Allowed by the policy (rule Bash(git status))");
        assertThat(rows.get(2).decision().text()).isEqualTo("denied");
        assertThat(rows.get(2).decision().reason()).isEqualTo("rm -rf is denied here");
        assertThat(rows.get(3).decision().text()).isEqualTo("asked · waiting for you");
        assertThat(rows.get(4).decision()).isNull();
        assertThat(rows.undecided()).isTrue();
        assertThat(rows.summary()).isEqualTo("4 calls (1 denied)");
        assertThat(rows.summaryInFull()).isEqualTo("5 entries · 4 tool calls, 1 denied");

        // A person answers: only that row changes.
        Approval approved = pending.toBuilder()
                .state(ApprovalState.APPROVED)
                .decision("allow")
                .decidedBy("human")
                .decider("ann")
                .reason("approved by ann")
                .decidedAt(NOW)
                .build();
        assertThat(rows.decide(List.of(allowed, denied, approved), NOW)).containsExactly(3);
        assertThat(rows.get(3).decision().text()).isEqualTo("asked · approved by ann");
        assertThat(rows.get(3).decision().isFinal()).isTrue();

        // Denied by a person: the chip says who; the line under the call only what they added.
        Approval deniedByBob = pending.toBuilder()
                .state(ApprovalState.DENIED)
                .decision("deny")
                .decidedBy("human")
                .decider("bob")
                .reason("denied by bob")
                .decidedAt(NOW)
                .build();
        rows.decide(List.of(allowed, denied, deniedByBob), NOW);
        assertThat(rows.get(3).decision().text()).isEqualTo("asked · denied by bob");
        assertThat(rows.get(3).decision().reason()).isNull();
        rows.decide(
                List.of(
                        allowed,
                        denied,
                        deniedByBob.toBuilder()
                                .reason("denied by bob: not on Fridays")
                                .build()),
                NOW);
        assertThat(rows.get(3).decision().reason()).isEqualTo("not on Fridays");
    }

    @Test
    void theFailedResultOfADeniedCallCountsAsDeniedNotAsAnError() {
        TranscriptRows rows = new TranscriptRows();
        rows.reset(0);
        rows.add(List.of(
                new TranscriptEntry.SessionStarted("s-1", "claude-opus-5-5", "/w"),
                new TranscriptEntry.ToolCall("t1", "Bash", "{\"command\":\"rm -rf build\"}"),
                new TranscriptEntry.ToolCall("t2", "Bash", "{\"command\":\"make\"}")));
        Approval denied = Approval.builder()
                .sandboxId("s")
                .tool("Bash")
                .sessionId("s-1")
                .requestedAt(NOW.minusSeconds(60))
                .id(1)
                .toolUseId("t1")
                .request("rm -rf build")
                .state(ApprovalState.DENIED)
                .decision("deny")
                .decidedBy("policy")
                .matchedRule("Bash(rm -rf:*)")
                .reason("rm -rf is denied here")
                .build();
        rows.decide(List.of(denied), NOW);
        // The results come after the decision, as they do from the agent.
        rows.add(List.of(
                new TranscriptEntry.ToolResult("t1", "rm -rf is denied here", true),
                new TranscriptEntry.ToolResult("t2", "make: *** No targets.  Stop.", true)));

        assertThat(rows.summary()).isEqualTo("2 calls (1 denied) · 1 error");
        assertThat(rows.summaryInFull()).isEqualTo("5 entries · 2 tool calls, 1 denied · 1 error");
    }

    @Test
    void aMessageArrivingInPiecesStaysOneRowAndTheLogsLeftOutStartIsSaid() {
        TranscriptRows rows = new TranscriptRows();
        rows.reset(12L * 1024 * 1024);
        assertThat(rows.get(0).kind()).isEqualTo(Kind.MARKER);
        assertThat(rows.get(0).text()).startsWith("The log's first 12.0 MB are not shown here");

        assertThat(rows.add(List.of(new TranscriptEntry.Message("assistant", "Hel", true))))
                .isEqualTo(1);
        assertThat(rows.add(List.of(
                        new TranscriptEntry.Message("assistant", "lo.", true),
                        new TranscriptEntry.Output("=== 2026-12-05T17:05:00Z exit code 0"))))
                .isEqualTo(1);

        assertThat(rows.size()).isEqualTo(3);
        assertThat(rows.get(1).text()).isEqualTo("Hello.");
        assertThat(rows.get(2).kind()).isEqualTo(Kind.MARKER);
        assertThat(rows.get(2).text()).isEqualTo("2026-12-05T17:05:00Z exit code 0");
    }

    @Test
    void theSummaryIsShortAndItsFullFormExact() {
        TranscriptRows rows = new TranscriptRows();
        rows.reset(0);
        assertThat(rows.summary()).isEmpty();
        rows.add(List.of(new TranscriptEntry.Output("hello")));
        assertThat(rows.summary()).isEqualTo("1 entry");
        rows.add(List.of(
                new TranscriptEntry.Usage(false, 612_345L, 46_000L, 2.5, 1000L, 3),
                new TranscriptEntry.Usage(true, 1_000_000L, 1_000L, 0.75, null, null)));
        assertThat(rows.summary()).isEqualTo("1.7M tokens · $3.25");
        assertThat(rows.summaryInFull()).isEqualTo("3 entries · 2 runs: 1,612,345 tokens in, 47,000 out, $3.2500");
        assertThat(TranscriptRows.tokens(9_999)).isEqualTo("9,999");
    }

    @Test
    void aCallShowsWhatItWorksOn() {
        assertThat(TranscriptRows.callText("Edit", "{\"file_path\":\"/w/a.txt\",\"old_string\":\"a\"}"))
                .isEqualTo("/w/a.txt");
        assertThat(TranscriptRows.callText("Grep", "{\"pattern\":\"class Order\",\"path\":\"/w/src\"}"))
                .isEqualTo("class Order  in /w/src");
        assertThat(TranscriptRows.callText("command_execution", "{\"command\":[\"bash\",\"-lc\",\"ls\"]}"))
                .isEqualTo("bash -lc ls");
        assertThat(TranscriptRows.callText("TodoWrite", "{\"todos\":[]}")).isEqualTo("{\"todos\":[]}");
    }
}
