package dev.paddock.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalRequest;
import dev.paddock.common.Json;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pairs the tool calls of a transcript with the approvals their PreToolUse hook calls made, so each call can be
 * shown with what the policy (or a person) decided. A call is paired by its id (Claude Code's {@code tool_use_id},
 * stored with the approval); a call left over is paired with the oldest request that names no call and has the
 * same session, tool and input as the policy judged it ({@link ApprovalRequest#mainInput}), in the order both
 * happened. A call no hook asked about (an agent without Paddock's hook) has none.
 */
public final class ToolCallApprovals {
    private ToolCallApprovals() {}

    /**
     * One tool call as the pairing sees it.
     *
     * @param toolUseId the call's id in the agent's session, or null
     * @param sessionId the session it was made in (the last one the transcript named before it), or null
     * @param request what the policy judges of its input ({@link ApprovalRequest#mainInput})
     */
    public record Call(String toolUseId, String sessionId, String tool, String request) {
        /** The call of {@code c}, made in {@code sessionId}. */
        public static Call of(TranscriptEntry.ToolCall c, String sessionId) {
            JsonNode input;
            try {
                input = Json.mapper().readTree(c.inputJson());
            } catch (JsonProcessingException e) {
                input = null;
            }
            return new Call(c.id(), sessionId, c.name(), ApprovalRequest.mainInput(c.name(), input));
        }
    }

    private record Key(String sessionId, String tool, String request) {}

    /**
     * The tool calls of a transcript as its entries come, each with the session it was made in (the last one named
     * before it). Not thread-safe: one reader.
     */
    public static final class Calls {
        private final List<Call> calls = new ArrayList<>();
        private String session;

        /**
         * Takes the next entry.
         *
         * @return whether it was a tool call
         */
        public boolean add(TranscriptEntry e) {
            if (e instanceof TranscriptEntry.SessionStarted s) {
                session = s.sessionId();
            } else if (e instanceof TranscriptEntry.ToolCall c) {
                calls.add(Call.of(c, session));
                return true;
            }
            return false;
        }

        /** Forgets every call (the log started over). */
        public void clear() {
            calls.clear();
            session = null;
        }

        /** The calls so far, in order. */
        public List<Call> list() {
            return List.copyOf(calls);
        }

        /** The decision of each call so far, in order (null where no approval is known): {@link #match}. */
        public List<ToolCallDecision> decide(List<Approval> approvals) {
            List<ToolCallDecision> out = new ArrayList<>();
            for (Approval a : match(calls, approvals)) {
                out.add(a == null ? null : ToolCallDecision.of(a));
            }
            return out;
        }
    }

    /**
     * The decision of each tool call among {@code entries}, in order (null where none is known).
     *
     * @param approvals the sandbox's requests, oldest first
     */
    public static List<ToolCallDecision> decide(List<TranscriptEntry> entries, List<Approval> approvals) {
        Calls calls = new Calls();
        entries.forEach(calls::add);
        return calls.decide(approvals);
    }

    /**
     * How many failed tool results among {@code entries} are the answer to a refused call (denied by the policy, a
     * person or a timeout): the agent reads its denial as a failed result, which is not an error of its run.
     *
     * @param decisions the calls' decisions, in order ({@link #decide})
     */
    public static int refusedResults(List<TranscriptEntry> entries, List<ToolCallDecision> decisions) {
        java.util.Set<String> refused = new java.util.HashSet<>();
        int i = 0;
        for (TranscriptEntry e : entries) {
            if (e instanceof TranscriptEntry.ToolCall c) {
                ToolCallDecision d = i < decisions.size() ? decisions.get(i) : null;
                if (d != null && d.verdict().refused() && c.id() != null) {
                    refused.add(c.id());
                }
                i++;
            }
        }
        int n = 0;
        for (TranscriptEntry e : entries) {
            if (e instanceof TranscriptEntry.ToolResult r && r.error() && refused.contains(r.toolCallId())) {
                n++;
            }
        }
        return n;
    }

    /**
     * The approval of each call, in the calls' order (null where there is none).
     *
     * @param approvals the sandbox's requests, oldest first
     */
    public static List<Approval> match(List<Call> calls, List<Approval> approvals) {
        Approval[] out = new Approval[calls.size()];
        Map<String, Approval> byId = new HashMap<>();
        for (Approval a : approvals) {
            if (a.toolUseId() != null) {
                byId.putIfAbsent(a.toolUseId(), a);
            }
        }
        Set<Long> used = new HashSet<>();
        for (int i = 0; i < out.length; i++) {
            String id = calls.get(i).toolUseId();
            Approval a = id == null ? null : byId.get(id);
            if (a != null && used.add(a.id())) {
                out[i] = a;
            }
        }
        // A request that names its call is that call's alone; the others (stored before ids were, or asked
        // without one) are paired by what they asked, in order.
        Map<Key, Deque<Approval>> free = new HashMap<>();
        for (Approval a : approvals) {
            if (a.toolUseId() == null) {
                free.computeIfAbsent(
                                new Key(nullToEmpty(a.sessionId()), a.tool(), nullToEmpty(a.request())),
                                k -> new ArrayDeque<>())
                        .add(a);
            }
        }
        for (int i = 0; i < out.length; i++) {
            if (out[i] != null) {
                continue;
            }
            Call c = calls.get(i);
            Deque<Approval> same = free.get(new Key(nullToEmpty(c.sessionId()), c.tool(), nullToEmpty(c.request())));
            if (same == null) {
                continue;
            }
            out[i] = same.pollFirst();
        }
        return new ArrayList<>(Arrays.asList(out));
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
