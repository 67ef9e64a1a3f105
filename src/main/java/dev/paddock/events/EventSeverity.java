package dev.paddock.events;

import java.util.Locale;
import java.util.Map;

/**
 * How much an event matters to the person watching, by its kind, in one place: what failed or was refused
 * ({@link #ERROR}), what waits for a person or went off the usual path ({@link #WARNING}), what ended well
 * ({@link #SUCCESS}), and the rest ({@link #INFO}). The panel styles events by it.
 */
public enum EventSeverity {
    INFO,
    SUCCESS,
    WARNING,
    ERROR;

    private static final Map<String, EventSeverity> KINDS = Map.ofEntries(
            Map.entry(EventKinds.APPROVAL_REQUESTED, WARNING),
            Map.entry(EventKinds.APPROVAL_APPROVED, SUCCESS),
            Map.entry(EventKinds.APPROVAL_DENIED, ERROR),
            Map.entry(EventKinds.APPROVAL_EXPIRED, ERROR),
            Map.entry(EventKinds.APPROVAL_CANCELLED, INFO),
            Map.entry(EventKinds.AGENT_WAITING, WARNING),
            Map.entry(EventKinds.MERGE_MERGED, SUCCESS),
            Map.entry(EventKinds.MERGE_RESOLVED, SUCCESS),
            Map.entry(EventKinds.MERGE_POLICY_APPROVED, SUCCESS),
            Map.entry(EventKinds.MERGE_CONFLICT, WARNING),
            Map.entry(EventKinds.MERGE_REFUSED, WARNING),
            Map.entry(EventKinds.MERGE_ABORTED, WARNING),
            Map.entry(EventKinds.MERGE_POLICY_REVIEW, WARNING),
            Map.entry(EventKinds.MERGE_POLICY_REJECTED, WARNING),
            Map.entry(EventKinds.MERGE_FAILED, ERROR),
            Map.entry("sandbox.done", SUCCESS),
            Map.entry("sandbox.merged", SUCCESS),
            Map.entry("sandbox.pushed", SUCCESS),
            Map.entry("sandbox.pull_request_opened", SUCCESS),
            Map.entry("sandbox.engine_back", SUCCESS),
            Map.entry("sandbox.awaiting_human", WARNING),
            Map.entry("sandbox.conflict", WARNING),
            Map.entry("sandbox.retrying", WARNING),
            Map.entry("sandbox.orphan_found", WARNING),
            Map.entry("sandbox.orphan_container_found", WARNING),
            Map.entry("sandbox.failed", ERROR),
            Map.entry("sandbox.timeout", ERROR),
            Map.entry("sandbox.engine_unreachable", ERROR),
            Map.entry(EventKinds.WORKTREE_PRUNABLE, WARNING),
            Map.entry(EventKinds.WORKTREE_MISSING, ERROR));

    /** The severity of events of {@code kind} ("merge.failed"); a kind not listed that says it failed is an error. */
    public static EventSeverity of(String kind) {
        if (kind == null) {
            return INFO;
        }
        EventSeverity s = KINDS.get(kind);
        if (s != null) {
            return s;
        }
        return kind.endsWith("failed") || kind.endsWith(".timeout") || kind.endsWith(".denied") ? ERROR : INFO;
    }

    /** Lower case, for style classes ("error"). */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
