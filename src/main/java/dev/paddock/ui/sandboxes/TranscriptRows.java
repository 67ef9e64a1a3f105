package dev.paddock.ui.sandboxes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.agent.ToolCallApprovals;
import dev.paddock.agent.ToolCallDecision;
import dev.paddock.agent.TranscriptEntry;
import dev.paddock.agent.TranscriptTotals;
import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalRequest;
import dev.paddock.common.Json;
import dev.paddock.ui.common.Formats;
import dev.paddock.ui.sandboxes.TranscriptRow.Decision;
import dev.paddock.ui.sandboxes.TranscriptRow.Kind;
import dev.paddock.ui.sandboxes.TranscriptRow.Tone;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The rows of a transcript as it grows, on the thread that reads the log (never the FX thread): each entry becomes a
 * {@link TranscriptRow} with its texts made, a message arriving in pieces stays one row, each tool call gets its
 * decision from the sandbox's approvals ({@link ToolCallApprovals}), and a summary line counts calls, errors,
 * tokens and cost ({@link TranscriptTotals}, as {@code paddock sandbox compare} counts them). Not thread-safe: one reader.
 */
final class TranscriptRows {
    /** Lines of a tool call's input shown before it is expanded. */
    static final int CALL_LINES = 3;
    /** Characters of a collapsed row's one line. */
    static final int LINE_CHARS = 400;

    private final List<TranscriptRow> rows = new ArrayList<>();
    private final Map<String, String> toolNames = new HashMap<>();
    private final List<Integer> callRows = new ArrayList<>();
    private final ToolCallApprovals.Calls calls = new ToolCallApprovals.Calls();
    private String partialRole;
    private TranscriptTotals totals = TranscriptTotals.NONE;
    private int denied;
    /** The ids of the calls, in the order of {@link #callRows} (null where the agent gave none). */
    private final List<String> callIds = new ArrayList<>();
    /** The ids of the denied calls: their failed results are the denial, not an error of the agent's. */
    private final java.util.Set<String> deniedIds = new java.util.HashSet<>();
    /** The call ids of the failed tool results. */
    private final java.util.Set<String> failedResults = new java.util.HashSet<>();

    /** Starts over (the log did); {@code skippedBytes} of its start that are not read give a first row saying so. */
    void reset(long skippedBytes) {
        rows.clear();
        toolNames.clear();
        callRows.clear();
        callIds.clear();
        deniedIds.clear();
        failedResults.clear();
        calls.clear();
        partialRole = null;
        totals = TranscriptTotals.NONE;
        denied = 0;
        if (skippedBytes > 0) {
            add(
                    Kind.MARKER,
                    "earlier",
                    "The log's first " + Formats.bytes(skippedBytes) + " are not shown here"
                            + " (the Log tab and paddock sandbox log have them).",
                    null,
                    null,
                    false);
        }
    }

    /**
     * Adds entries.
     *
     * @return the first row that is new or changed (a message's earlier piece grew); {@link #size()} when none is
     */
    int add(List<TranscriptEntry> entries) {
        int first = rows.size();
        for (TranscriptEntry e : entries) {
            if (e instanceof TranscriptEntry.Message m
                    && m.partial()
                    && m.role().equals(partialRole)
                    && !rows.isEmpty()) {
                TranscriptRow last = rows.get(rows.size() - 1);
                String joined = new TranscriptEntry.Message(m.role(), last.text() + m.text(), true).text();
                rows.set(
                        last.index(),
                        new TranscriptRow(
                                last.index(), last.kind(), last.label(), joined, null, null, false, null, false));
                first = Math.min(first, last.index());
                continue;
            }
            partialRole = e instanceof TranscriptEntry.Message m && m.partial() ? m.role() : null;
            entry(e);
        }
        return first;
    }

    private void entry(TranscriptEntry e) {
        totals = totals.plus(e);
        if (calls.add(e)) {
            callRows.add(rows.size());
            callIds.add(e instanceof TranscriptEntry.ToolCall c ? c.id() : null);
        }
        if (e instanceof TranscriptEntry.ToolResult r && r.error() && r.toolCallId() != null) {
            failedResults.add(r.toolCallId());
        }
        if (e instanceof TranscriptEntry.SessionStarted s) {
            add(
                    Kind.SESSION,
                    "session",
                    "Session " + (s.sessionId() == null ? "started" : s.sessionId())
                            + (s.model() == null ? "" : " · " + s.model()) + (s.cwd() == null ? "" : " · " + s.cwd()),
                    null,
                    null,
                    false);
        } else if (e instanceof TranscriptEntry.Message m) {
            boolean agent = m.role().equals("assistant");
            add(agent ? Kind.AGENT : Kind.PROMPT, agent ? "agent" : "prompt", m.text(), null, null, false);
        } else if (e instanceof TranscriptEntry.ToolCall c) {
            call(c);
        } else if (e instanceof TranscriptEntry.ToolResult r) {
            result(r);
        } else if (e instanceof TranscriptEntry.Error x) {
            collapsed(Kind.ERROR, "error", x.message(), true);
        } else if (e instanceof TranscriptEntry.Usage u) {
            usage(u);
        } else if (e instanceof TranscriptEntry.Output o) {
            if (o.line().startsWith("=== ")) {
                add(Kind.MARKER, "paddock", o.line().substring(4), null, null, false);
            } else {
                add(Kind.OUTPUT, "output", o.line(), null, null, false);
            }
        }
    }

    private void call(TranscriptEntry.ToolCall c) {
        if (c.id() != null) {
            toolNames.put(c.id(), c.name());
        }
        String input = callText(c.name(), c.inputJson());
        String[] lines = input.split("\n", -1);
        if (lines.length > CALL_LINES) {
            add(
                    Kind.TOOL_CALL,
                    c.name(),
                    String.join("\n", java.util.Arrays.copyOf(lines, CALL_LINES)),
                    input,
                    (lines.length - CALL_LINES) + " more lines",
                    false);
        } else {
            add(Kind.TOOL_CALL, c.name(), input, null, null, false);
        }
    }

    private void result(TranscriptEntry.ToolResult r) {
        String tool = r.toolCallId() == null ? null : toolNames.get(r.toolCallId());
        String text = r.text().strip();
        int lines = text.isEmpty() ? 0 : (int) text.lines().count();
        String first = text.isEmpty() ? "(no output)" : text.lines().findFirst().orElse("");
        String shown = first.length() > LINE_CHARS ? first.substring(0, LINE_CHARS) + "…" : first;
        boolean more = lines > 1 || !shown.equals(first);
        String what = (tool == null ? "" : tool + " · ") + (lines == 1 ? "1 line" : lines + " lines");
        add(Kind.TOOL_RESULT, r.error() ? "failed" : "result", shown, more ? text : null, what, r.error());
    }

    private void usage(TranscriptEntry.Usage u) {
        StringBuilder b = new StringBuilder(u.failed() ? "Run failed" : "Run ended");
        if (u.turns() != null) {
            b.append(" · ").append(u.turns()).append(u.turns() == 1 ? " turn" : " turns");
        }
        if (u.inputTokens() != null) {
            b.append(" · ").append(number(u.inputTokens())).append(" tokens in");
        }
        if (u.outputTokens() != null) {
            b.append(" · ").append(number(u.outputTokens())).append(" out");
        }
        if (u.costUsd() != null) {
            b.append(" · ").append(dollars(u.costUsd()));
        }
        if (u.durationMs() != null) {
            b.append(" · ").append(Formats.duration(u.durationMs()));
        }
        add(Kind.USAGE, u.failed() ? "failed" : "end", b.toString(), null, null, u.failed());
    }

    private void collapsed(Kind kind, String label, String text, boolean error) {
        String t = text.strip();
        String first = t.lines().findFirst().orElse("");
        boolean longer = !first.equals(t);
        add(kind, label, first, longer ? t : null, longer ? t.lines().count() + " lines" : null, error);
    }

    private void add(Kind kind, String label, String text, String detail, String more, boolean error) {
        rows.add(new TranscriptRow(rows.size(), kind, label, text, detail, more, error, null, false));
    }

    /**
     * Gives each tool call the decision of its approval.
     *
     * @param approvals the sandbox's requests, oldest first
     * @return the rows whose decision changed
     */
    List<Integer> decide(List<Approval> approvals, Instant now) {
        List<ToolCallDecision> matched = calls.decide(approvals);
        List<Integer> changed = new ArrayList<>();
        int deniedNow = 0;
        deniedIds.clear();
        for (int i = 0; i < matched.size(); i++) {
            Decision d = matched.get(i) == null ? null : decision(matched.get(i), now);
            if (d != null && d.tone() == Tone.DENIED) {
                deniedNow++;
                if (i < callIds.size() && callIds.get(i) != null) {
                    deniedIds.add(callIds.get(i));
                }
            }
            int at = callRows.get(i);
            TranscriptRow row = rows.get(at);
            if (!Objects.equals(row.decision(), d)) {
                rows.set(at, row.withDecision(d));
                changed.add(at);
            }
        }
        denied = deniedNow;
        return changed;
    }

    /** Whether a tool call has no decision yet, or one that can still change. */
    boolean undecided() {
        for (int at : callRows) {
            Decision d = rows.get(at).decision();
            if (d == null || !d.isFinal()) {
                return true;
            }
        }
        return false;
    }

    int size() {
        return rows.size();
    }

    TranscriptRow get(int index) {
        return rows.get(index);
    }

    /** A copy of the rows from {@code index} on. */
    List<TranscriptRow> from(int index) {
        return List.copyOf(rows.subList(index, rows.size()));
    }

    /** Errors of the agent's run: error entries and failed results, but not the failed results of denied calls. */
    private int errors() {
        int denials = (int) failedResults.stream().filter(deniedIds::contains).count();
        return Math.max(0, totals.errors() - denials);
    }

    /** "130 calls (2 denied) · 1 error · 157k tokens · $1.23": short enough for the tabs' row; "" before any row. */
    String summary() {
        if (rows.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        int toolCalls = totals.toolCalls();
        int errors = errors();
        if (toolCalls > 0) {
            parts.add(number(toolCalls)
                    + (toolCalls == 1 ? " call" : " calls")
                    + (denied > 0 ? " (" + number(denied) + " denied)" : ""));
        }
        if (errors > 0) {
            parts.add(number(errors) + (errors == 1 ? " error" : " errors"));
        }
        if (totals.tokens() != null) {
            parts.add(tokens(totals.tokens()) + " tokens");
        }
        if (totals.costUsd() != null) {
            double cost = totals.costUsd();
            parts.add(cost >= 1 ? String.format(Locale.ROOT, "$%.2f", cost) : dollars(cost));
        }
        if (parts.isEmpty()) {
            parts.add(number(rows.size()) + (rows.size() == 1 ? " entry" : " entries"));
        }
        return String.join(" · ", parts);
    }

    /**
     * "412 entries · 130 tool calls, 2 denied · 1 error · 3 runs: 145,210 tokens in, 12,000 out, $1.2345": every
     * figure, exactly; "" before any row.
     */
    String summaryInFull() {
        if (rows.isEmpty()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        parts.add(number(rows.size()) + (rows.size() == 1 ? " entry" : " entries"));
        int toolCalls = totals.toolCalls();
        int errors = errors();
        int runs = totals.runs();
        if (toolCalls > 0) {
            parts.add(number(toolCalls)
                    + (toolCalls == 1 ? " tool call" : " tool calls")
                    + (denied > 0 ? ", " + number(denied) + " denied" : ""));
        }
        if (errors > 0) {
            parts.add(number(errors) + (errors == 1 ? " error" : " errors"));
        }
        if (runs > 0) {
            List<String> figures = new ArrayList<>();
            if (totals.tokens() != null) {
                figures.add(number(totals.tokensIn() == null ? 0 : totals.tokensIn()) + " tokens in");
                figures.add(number(totals.tokensOut() == null ? 0 : totals.tokensOut()) + " out");
            }
            if (totals.costUsd() != null) {
                figures.add(dollars(totals.costUsd()));
            }
            parts.add(runs
                    + (runs == 1 ? " run" : " runs")
                    + (figures.isEmpty() ? "" : ": " + String.join(", ", figures)));
        }
        return String.join(" · ", parts);
    }

    /** "9,876", "612k", "1.2M". */
    static String tokens(long n) {
        if (n < 10_000) {
            return number(n);
        }
        if (n < 1_000_000) {
            return n / 1000 + "k";
        }
        return String.format(Locale.ROOT, "%.1fM", n / 1_000_000.0);
    }

    /** What the policy or a person decided, as the row shows it: its words are {@link ToolCallDecision#label}. */
    static Decision decision(ToolCallDecision d, Instant now) {
        String who = d.who();
        String rule = d.rule() == null ? "" : " (rule " + d.rule() + ")";
        String why = d.reason() == null ? "" : ": " + d.reason();
        String when = (d.requestedAt() == null ? "" : "\nAsked " + Formats.clock(d.requestedAt(), now))
                + (d.decidedAt() == null ? "" : ", decided " + Formats.clock(d.decidedAt(), now));
        String label = d.label();
        return switch (d.verdict()) {
            case APPROVED ->
                new Decision(
                        label, Tone.ALLOWED, null, "Asked" + rule + ", then approved by " + who + why + when, true);
            case ALLOWED -> new Decision(label, Tone.ALLOWED, null, "Allowed by the policy" + rule + why + when, true);
            case REJECTED ->
                new Decision(
                        label, Tone.DENIED, d.reason(), "Asked" + rule + ", then denied by " + who + why + when, true);
            case DENIED ->
                new Decision(label, Tone.DENIED, d.reason(), "Denied by the policy" + rule + why + when, true);
            case EXPIRED ->
                new Decision(
                        label,
                        Tone.DENIED,
                        d.reason(),
                        "Asked" + rule + "; nobody answered in time, so it was denied" + why + when,
                        true);
            case CANCELLED -> new Decision(label, Tone.NEUTRAL, d.reason(), "Cancelled" + why + when, true);
            case WAITING ->
                new Decision(
                        label,
                        Tone.WAITING,
                        null,
                        "Asked" + rule + ": approve or deny it in Approvals" + why + when,
                        false);
        };
    }

    /** What a tool call works on, in a line or a few: its command, file, pattern, URL, else its input as JSON. */
    static String callText(String tool, String inputJson) {
        JsonNode in;
        try {
            in = Json.mapper().readTree(inputJson);
        } catch (JsonProcessingException e) {
            return inputJson;
        }
        if (in == null || !in.isObject()) {
            return inputJson;
        }
        if (in.path("pattern").isTextual()) {
            return in.path("pattern").asText()
                    + (in.path("path").isTextual() ? "  in " + in.path("path").asText() : "");
        }
        String main = ApprovalRequest.mainInput(tool, in);
        if (!main.isEmpty()) {
            return main;
        }
        for (String field : List.of("command", "file_path", "path", "url", "query", "description", "prompt")) {
            JsonNode v = in.get(field);
            if (v != null && v.isTextual() && !v.asText().isBlank()) {
                return v.asText();
            }
            if (v != null && v.isArray() && !v.isEmpty()) {
                List<String> words = new ArrayList<>();
                v.forEach(w -> words.add(w.asText()));
                return String.join(" ", words);
            }
        }
        String json = in.toString();
        return json.length() > LINE_CHARS ? json.substring(0, LINE_CHARS) + "…" : json;
    }

    private static String number(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String dollars(double usd) {
        return String.format(Locale.ROOT, "$%.4f", usd);
    }
}
