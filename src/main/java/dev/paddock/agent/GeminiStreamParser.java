package dev.paddock.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Gemini CLI's {@code --output-format stream-json} (0.61.0, run here against a local endpoint): one JSON event per
 * line, each with a {@code timestamp}.
 * <ul>
 * <li>{@code {"type":"init","session_id","model"}} → session started;</li>
 * <li>{@code {"type":"message","role":"user"|"assistant","content","delta"}} → message; {@code delta: true} marks
 *     a piece of the assistant's text (joined by {@link Transcript});</li>
 * <li>{@code {"type":"tool_use","tool_name","tool_id","parameters"}} → tool call;</li>
 * <li>{@code {"type":"tool_result","tool_id","status":"success"|"error","output","error":{"message"}}} → tool
 *     result;</li>
 * <li>{@code {"type":"error","severity","message"}} → error;</li>
 * <li>{@code {"type":"result","status","error"?,"stats":{"input_tokens","output_tokens","duration_ms",
 *     "tool_calls",...}}} → usage (and an error when the status is not success).</li>
 * </ul>
 */
public final class GeminiStreamParser extends JsonLineParser {
    @Override
    void event(JsonNode e, List<TranscriptEntry> out) {
        switch (e.path("type").asText()) {
            case "init" -> out.add(new TranscriptEntry.SessionStarted(text(e, "session_id"), text(e, "model"), null));
            case "message" ->
                out.add(new TranscriptEntry.Message(
                        e.path("role").asText("assistant"),
                        e.path("content").asText(""),
                        e.path("delta").asBoolean(false)));
            case "tool_use" ->
                out.add(new TranscriptEntry.ToolCall(
                        text(e, "tool_id"),
                        e.path("tool_name").asText("?"),
                        e.path("parameters").isMissingNode()
                                ? "{}"
                                : e.path("parameters").toString()));
            case "tool_result" -> {
                boolean failed = !"success".equals(e.path("status").asText());
                String text = e.path("output").asText("");
                if (failed && text.isEmpty()) {
                    text = e.path("error").path("message").asText("");
                }
                out.add(new TranscriptEntry.ToolResult(text(e, "tool_id"), text, failed));
            }
            case "error" -> out.add(new TranscriptEntry.Error(e.path("message").asText("error")));
            case "result" -> {
                boolean failed = !"success".equals(e.path("status").asText());
                if (failed) {
                    out.add(new TranscriptEntry.Error(
                            e.path("error").path("message").asText("the run failed")));
                }
                JsonNode s = e.path("stats");
                out.add(new TranscriptEntry.Usage(
                        failed,
                        longOrNull(s.get("input_tokens")),
                        longOrNull(s.get("output_tokens")),
                        null,
                        longOrNull(s.get("duration_ms")),
                        null));
            }
            default -> {
                // Newer events.
            }
        }
    }
}
