package dev.paddock.sandbox;

import dev.paddock.store.Jdbc;
import java.sql.SQLException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One edge of the lifecycle to apply with {@link SandboxStore#transition}: from which state to which,
 * the columns that change with it, and the event that records it. Package-private: other packages move a
 * sandbox through {@link SandboxLifecycle}'s named operations.
 */
final class Transition {
    /** Columns a transition may set, by their SQL names. */
    enum Column {
        PID("pid"),
        PID_STARTED_AT("pid_started_at"),
        STARTED_AT("started_at"),
        FINISHED_AT("finished_at"),
        LEASE_EXPIRES_AT("lease_expires_at"),
        LAST_HEARTBEAT_AT("last_heartbeat_at"),
        PROGRESS("progress"),
        ITERATION("iteration"),
        RETRY_COUNT("retry_count"),
        EXIT_CODE("exit_code"),
        LAST_ERROR("last_error"),
        STOP_REASON("stop_reason"),
        CONTAINER_ID("container_id");

        final String sql;

        Column(String sql) {
            this.sql = sql;
        }
    }

    private final SandboxState from;
    private final SandboxState to;
    private final Map<Column, Object> values = new LinkedHashMap<>();
    private String message;
    private String kind;
    private final Map<String, Object> details = new LinkedHashMap<>();
    private Also also;

    /** Rows of this package beside the sandbox's that change with the transition, in its transaction. */
    @FunctionalInterface
    interface Also {
        void run(Jdbc.Tx tx) throws SQLException;
    }

    private Transition(SandboxState from, SandboxState to) {
        if (!from.canBecome(to)) {
            throw new IllegalArgumentException(from.id() + " → " + to.id() + " is not an edge of the lifecycle");
        }
        this.from = from;
        this.to = to;
    }

    /**
     * Starts describing {@code from → to}.
     *
     * @throws IllegalArgumentException when the lifecycle has no such edge
     */
    static Transition of(SandboxState from, SandboxState to) {
        return new Transition(from, to);
    }

    /** Sets a column with the transition (null clears it). */
    Transition set(Column column, Object value) {
        values.put(column, value);
        return this;
    }

    /** The event message; the default says "{from} → {to}". */
    Transition message(String text) {
        this.message = text;
        return this;
    }

    /**
     * Names the event's kind where the edge alone would mislead (a follow-up enters {@code retrying} but is no
     * retry); the default is {@code sandbox.<to>}.
     */
    Transition kind(String eventKind) {
        this.kind = eventKind;
        return this;
    }

    String eventKind() {
        return kind != null ? kind : "sandbox." + to.id();
    }

    /** Adds a fact to the event's details. */
    Transition detail(String key, Object value) {
        details.put(key, value);
        return this;
    }

    /** Changes {@code work} makes in the transition's transaction, once the state moved. */
    Transition also(Also work) {
        this.also = work;
        return this;
    }

    void alsoIn(Jdbc.Tx tx) throws SQLException {
        if (also != null) {
            also.run(tx);
        }
    }

    SandboxState from() {
        return from;
    }

    SandboxState to() {
        return to;
    }

    Map<Column, Object> values() {
        return Collections.unmodifiableMap(values);
    }

    String eventMessage(String sandboxId) {
        return Objects.requireNonNullElse(message, sandboxId + ": " + from.id() + " → " + to.id());
    }

    Map<String, Object> details() {
        return details;
    }
}
