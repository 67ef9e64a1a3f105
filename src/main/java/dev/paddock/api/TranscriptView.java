package dev.paddock.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.agent.Transcript;
import dev.paddock.agent.TranscriptEntry;
import dev.paddock.common.Json;
import java.util.List;
import java.util.Locale;

/**
 * A sandbox's transcript as {@code GET /v1/sandboxes/{id}/transcript} shows it: the session id the agent last
 * named, and the entries in order, each an object with {@code type} ({@code session_started}, {@code message},
 * {@code tool_call}, {@code tool_result}, {@code error}, {@code usage}, {@code output}) and the fields of its
 * {@link TranscriptEntry} record (e.g. {@code {"type": "message", "role": "assistant", "text": "Done.",
 * "partial": false}}). Field names are a public interface: add, never rename.
 */
public record TranscriptView(String sessionId, List<ObjectNode> entries) {
    /** The view of a transcript. */
    public static TranscriptView of(Transcript t) {
        return new TranscriptView(t.sessionId(), t.entries().stream().map(TranscriptView::entry).toList());
    }

    /** The type name of an entry: its record's name in snake case ({@code ToolCall} → {@code tool_call}). */
    static String type(TranscriptEntry e) {
        return e.getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    private static ObjectNode entry(TranscriptEntry e) {
        ObjectNode n = Json.mapper().createObjectNode().put("type", type(e));
        n.setAll((ObjectNode) Json.mapper().valueToTree(e));
        return n;
    }
}
