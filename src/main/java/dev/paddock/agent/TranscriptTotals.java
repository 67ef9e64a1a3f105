package dev.paddock.agent;

import java.util.List;

/**
 * A transcript's figures added up: tool calls, errors (error entries and failed tool results), runs, and the tokens
 * and cost of the runs that report them ({@link TranscriptEntry.Usage}). Immutable; {@link #plus} adds an entry.
 *
 * @param tokensIn input tokens, or null when no run reported any
 * @param tokensOut output tokens, or null when no run reported any
 * @param costUsd cost in US dollars, or null when no run reported one
 * @param durationMs the runs' time as the agent reports it, or null when none did
 */
public record TranscriptTotals(
        int toolCalls, int errors, int runs, Long tokensIn, Long tokensOut, Double costUsd, Long durationMs) {
    /** No entries. */
    public static final TranscriptTotals NONE = new TranscriptTotals(0, 0, 0, null, null, null, null);

    /** The figures of {@code entries}. */
    public static TranscriptTotals of(List<TranscriptEntry> entries) {
        TranscriptTotals t = NONE;
        for (TranscriptEntry e : entries) {
            t = t.plus(e);
        }
        return t;
    }

    /** These figures with {@code e}'s added. */
    public TranscriptTotals plus(TranscriptEntry e) {
        if (e instanceof TranscriptEntry.ToolCall) {
            return new TranscriptTotals(toolCalls + 1, errors, runs, tokensIn, tokensOut, costUsd, durationMs);
        }
        if (e instanceof TranscriptEntry.Error || e instanceof TranscriptEntry.ToolResult r && r.error()) {
            return new TranscriptTotals(toolCalls, errors + 1, runs, tokensIn, tokensOut, costUsd, durationMs);
        }
        if (e instanceof TranscriptEntry.Usage u) {
            return new TranscriptTotals(
                    toolCalls,
                    errors,
                    runs + 1,
                    add(tokensIn, u.inputTokens()),
                    add(tokensOut, u.outputTokens()),
                    add(costUsd, u.costUsd()),
                    add(durationMs, u.durationMs()));
        }
        return this;
    }

    /** Input and output tokens together, or null when no run reported any. */
    public Long tokens() {
        return tokensIn == null && tokensOut == null
                ? null
                : (tokensIn == null ? 0 : tokensIn) + (tokensOut == null ? 0 : tokensOut);
    }

    private static Long add(Long a, Long b) {
        if (b == null) {
            return a; // not "b == null ? a : a + b": that unboxes a null a
        }
        return Long.valueOf((a == null ? 0L : a.longValue()) + b.longValue());
    }

    private static Double add(Double a, Double b) {
        if (b == null) {
            return a;
        }
        return Double.valueOf((a == null ? 0.0 : a.doubleValue()) + b.doubleValue());
    }
}
