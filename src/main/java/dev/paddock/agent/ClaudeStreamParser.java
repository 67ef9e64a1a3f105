package dev.paddock.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Claude Code's {@code --output-format stream-json --verbose} (checked against 2.1.332): one JSON event per line.
 * <ul>
 * <li>{@code {"type":"system","subtype":"init","session_id","cwd","model","tools",...}} → session started;</li>
 * <li>{@code {"type":"assistant","message":{"content":[...]}}}: one event per content block, {@code text} →
 *     message, {@code tool_use} ({@code id}, {@code name}, {@code input}) → tool call ({@code thinking} is
 *     skipped);</li>
 * <li>{@code {"type":"user","message":{"content":[{"type":"tool_result","tool_use_id","content","is_error"}]}}}
 *     → tool result ({@code content} a string or text blocks); a text content → the prompt;</li>
 * <li>{@code {"type":"result","subtype":"success"|"error_...","is_error","result","duration_ms","num_turns",
 *     "total_cost_usd","usage":{"input_tokens","output_tokens",...}}} → usage (and an error when it failed);</li>
 * <li>anything else ({@code system} hook and permission events, {@code stream_event}, ...) is skipped.</li>
 * </ul>
 */
public final class ClaudeStreamParser extends JsonLineParser {
    @Override
    void event(JsonNode e, List<TranscriptEntry> out) {
        switch (e.path("type").asText()) {
            case "system" -> {
                if ("init".equals(e.path("subtype").asText())) {
                    out.add(new TranscriptEntry.SessionStarted(
                            text(e, "session_id"), text(e, "model"), text(e, "cwd")));
                }
            }
            case "assistant" -> content(e.path("message").path("content"), "assistant", out);
            case "user" -> content(e.path("message").path("content"), "user", out);
            case "result" -> result(e, out);
            default -> {
                // stream_event, rate-limit and other notices: not part of the transcript.
            }
        }
    }

    private static void content(JsonNode content, String role, List<TranscriptEntry> out) {
        if (content.isTextual()) {
            out.add(new TranscriptEntry.Message(role, content.asText(), false));
            return;
        }
        for (JsonNode b : content) {
            switch (b.path("type").asText()) {
                case "text" ->
                    out.add(new TranscriptEntry.Message(role, b.path("text").asText(), false));
                case "tool_use" ->
                    out.add(new TranscriptEntry.ToolCall(
                            text(b, "id"),
                            b.path("name").asText("?"),
                            b.path("input").isMissingNode()
                                    ? "{}"
                                    : b.path("input").toString()));
                case "tool_result" ->
                    out.add(new TranscriptEntry.ToolResult(
                            text(b, "tool_use_id"),
                            collapse(b.path("content")),
                            b.path("is_error").asBoolean(false)));
                default -> {
                    // thinking, redacted_thinking, images: not shown.
                }
            }
        }
    }

    /** A tool result's content as text: a string as it is, text blocks joined, other blocks named. */
    static String collapse(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode b : content) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            String type = b.path("type").asText();
            sb.append("text".equals(type) ? b.path("text").asText() : "[" + (type.isEmpty() ? "content" : type) + "]");
        }
        return sb.toString();
    }

    private static void result(JsonNode e, List<TranscriptEntry> out) {
        boolean failed = e.path("is_error").asBoolean(false)
                || e.path("subtype").asText().startsWith("error");
        if (failed) {
            String why = text(e, "result");
            if (why == null && e.has("errors")) {
                why = e.get("errors").toString();
            }
            out.add(new TranscriptEntry.Error(
                    why == null ? "the run ended with " + e.path("subtype").asText() : why));
        }
        JsonNode u = e.path("usage");
        JsonNode cost = e.get("total_cost_usd");
        out.add(new TranscriptEntry.Usage(
                failed,
                longOrNull(u.get("input_tokens")),
                longOrNull(u.get("output_tokens")),
                cost == null || !cost.isNumber() ? null : cost.asDouble(),
                longOrNull(e.get("duration_ms")),
                e.path("num_turns").isNumber() ? e.path("num_turns").asInt() : null));
    }
}
