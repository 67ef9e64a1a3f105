package dev.paddock.api;

import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.agent.ToolCallApprovals;
import dev.paddock.agent.ToolCallDecision;
import dev.paddock.agent.Transcript;
import dev.paddock.agent.TranscriptEntry;
import dev.paddock.approval.Approval;
import dev.paddock.common.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A sandbox's transcript as {@code GET /v1/sandboxes/{id}/transcript} shows it: the session id the agent last
 * named, and the entries in order, each an object with {@code type} ({@code session_started}, {@code message},
 * {@code tool_call}, {@code tool_result}, {@code error}, {@code usage}, {@code output}) and the fields of its
 * {@link TranscriptEntry} record (e.g. {@code {"type": "message", "role": "assistant", "text": "Done.",
 * "partial": false}}). A {@code tool_call} has the {@code decision} its approval stands for
 * ({@link ToolCallDecision}: {@code {"verdict": "approved", "label": "asked · approved by ann", "by": "ann",
 * "rule": "Bash(git push:*)", "reason": ..., "approvalId": 7, "requestedAt": ..., "decidedAt": ...}}), or
 * {@code null} when no approval is known for it. Field names are a public interface: add, never rename.
 */
public record TranscriptView(String sessionId, List<ObjectNode> entries) {
    /** The view of a transcript without decisions. */
    public static TranscriptView of(Transcript t) {
        return of(t, List.of());
    }

    /**
     * The view of a transcript, each tool call with its decision among {@code approvals}.
     *
     * @param approvals the sandbox's requests, oldest first
     */
    public static TranscriptView of(Transcript t, List<Approval> approvals) {
        List<ToolCallDecision> decisions = ToolCallApprovals.decide(t.entries(), approvals);
        List<ObjectNode> out = new ArrayList<>();
        int call = 0;
        for (TranscriptEntry e : t.entries()) {
            ObjectNode n = entry(e);
            if (e instanceof TranscriptEntry.ToolCall) {
                ToolCallDecision d = decisions.get(call++);
                n.set("decision", d == null ? NullNode.getInstance() : decision(d));
            }
            out.add(n);
        }
        return new TranscriptView(t.sessionId(), out);
    }

    private static ObjectNode decision(ToolCallDecision d) {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("verdict", d.verdict().id())
                .put("label", d.label())
                .put("by", d.who())
                .put("rule", d.rule())
                .put("reason", d.reason())
                .put("approvalId", d.approvalId());
        n.put("requestedAt", d.requestedAt() == null ? null : d.requestedAt().toString());
        n.put("decidedAt", d.decidedAt() == null ? null : d.decidedAt().toString());
        return n;
    }

    /** The type name of an entry: its record's name in snake case ({@code ToolCall} → {@code tool_call}). */
    static String type(TranscriptEntry e) {
        return e.getClass()
                .getSimpleName()
                .replaceAll("([a-z])([A-Z])", "$1_$2")
                .toLowerCase(Locale.ROOT);
    }

    private static ObjectNode entry(TranscriptEntry e) {
        ObjectNode n = Json.mapper().createObjectNode().put("type", type(e));
        n.setAll((ObjectNode) Json.mapper().valueToTree(e));
        return n;
    }
}
