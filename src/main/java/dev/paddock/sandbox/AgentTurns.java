package dev.paddock.sandbox;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The agents' turns beside their sandboxes: "waiting for you" ({@link WaitingForYou}, table
 * {@code sandbox_waiting}) and the follow-up prompt a person sent ({@link FollowUp}, table
 * {@code sandbox_follow_ups}). See docs/decisions/0016-waiting-for-you.md.
 *
 * <p>A signal is taken while the sandbox's run is on or just ended ({@link #ACCEPTS}), once: the same hook input
 * comes by the API route and by the turn file, and counts once (its SHA-256 is kept with the row), with one event
 * ({@link EventKinds#AGENT_TURN_ENDED} or {@link EventKinds#AGENT_WAITING}) written in the same transaction. The row
 * goes in the same transaction as any move of the sandbox to a state outside {@link #ACCEPTS} ({@link #clearIn}),
 * so a follow-up or retry starting, the merge queue taking the branch, or a removal ends the wait.
 */
public final class AgentTurns {
    /** States in which an agent may be waiting: its run is on (the hook fires just before it exits) or ended. */
    static final Set<SandboxState> ACCEPTS = EnumSet.of(
            SandboxState.RUNNING,
            SandboxState.DONE,
            SandboxState.FAILED,
            SandboxState.TIMEOUT,
            SandboxState.AWAITING_HUMAN);
    /** Longest detail kept, in characters. */
    public static final int DETAIL_MAX = 1000;
    /** Longest follow-up prompt, in characters (as long as a task). */
    public static final int FOLLOW_UP_MAX = 8192;

    private static final String STATES =
            ACCEPTS.stream().map(s -> "'" + s.id() + "'").collect(Collectors.joining(", "));
    private static final String VISIBLE = "SELECT w.sandbox_id, w.kind, w.run, w.since, w.session_id, w.detail,"
            + " w.notification_type FROM sandbox_waiting w JOIN sandboxes s ON s.id = w.sandbox_id"
            + " AND s.iteration = w.run AND s.state IN (" + STATES + ")";

    /** What a signal came to. */
    public enum Outcome {
        /** Stored, with its event. */
        RECORDED,
        /** The same signal was taken already (by the other channel): nothing changed. */
        DUPLICATE,
        /** The sandbox is in a state in which its agent cannot be waiting (its state names it): nothing changed. */
        NOT_NOW
    }

    /**
     * A follow-up prompt waiting to be run, or being run.
     *
     * @param askedBy who sent it
     */
    public record FollowUp(String sandboxId, String text, String askedBy, Instant askedAt) {}

    private final Jdbc jdbc;
    private final EventLog events;
    private final Clock clock;

    AgentTurns(Jdbc jdbc, EventLog events, Clock clock) {
        this.jdbc = jdbc;
        this.events = events;
        this.clock = clock;
    }

    /**
     * Takes a signal of sandbox {@code id}'s agent: it is now waiting for you, unless this signal was taken already
     * or the sandbox is in a state in which it cannot wait. Synchronized: the API route and the supervisor's read of
     * the turn file may bring the same signal at the same moment.
     *
     * @param payload the hook's input as sent (its SHA-256 tells the same signal apart)
     * @param via {@code api} or {@code file}, for the event
     * @throws SandboxNotFoundException when there is no such sandbox
     */
    synchronized Outcome record(String id, AgentSignal signal, String payload, String via)
            throws StoreException, SandboxNotFoundException {
        String key = key(payload);
        Instant now = clock.instant();
        record Now(SandboxState state, int iteration, long repositoryId) {}
        Optional<Outcome> outcome = jdbc.inTransaction(tx -> {
            Optional<Now> s = tx.queryOne(
                    "SELECT state, iteration, repository_id FROM sandboxes WHERE id = ?",
                    rs -> new Now(SandboxState.of(rs.getString(1)), rs.getInt(2), rs.getLong(3)),
                    id);
            if (s.isEmpty()) {
                return Optional.empty();
            }
            if (!ACCEPTS.contains(s.get().state())) {
                return Optional.of(Outcome.NOT_NOW);
            }
            int run = s.get().iteration();
            boolean seen = tx.queryOne(
                            "SELECT signal_key, run FROM sandbox_waiting WHERE sandbox_id = ?",
                            rs -> rs.getString(1).equals(key) && rs.getInt(2) == run,
                            id)
                    .orElse(false);
            if (seen) {
                return Optional.of(Outcome.DUPLICATE);
            }
            String detail = cut(signal.detail());
            Object[] row = {
                signal.kind().id(),
                run,
                now,
                cut(signal.sessionId(), 128),
                detail,
                cut(signal.notificationType(), 64),
                key,
                id
            };
            // Replace or add (not H2's MERGE ... KEY, which PostgreSQL lacks). This method is synchronized, so within
            // one Paddock nothing adds the row in between; a second Paddock on a shared store that did would make the
            // INSERT fail on the primary key (this transaction rolls back), never leave two rows.
            if (tx.update(
                            "UPDATE sandbox_waiting SET kind = ?, run = ?, since = ?, session_id = ?, detail = ?,"
                                    + " notification_type = ?, signal_key = ? WHERE sandbox_id = ?",
                            row)
                    == 0) {
                tx.update(
                        "INSERT INTO sandbox_waiting (kind, run, since, session_id, detail, notification_type,"
                                + " signal_key, sandbox_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        row);
            }
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("run", run);
            details.put("session", signal.sessionId());
            details.put("via", via);
            if (signal.notificationType() != null) {
                details.put("notificationType", signal.notificationType());
            }
            events.append(
                    tx,
                    EventDraft.of(
                            s.get().repositoryId(),
                            id,
                            signal.kind() == AgentSignal.Kind.TURN_ENDED
                                    ? EventKinds.AGENT_TURN_ENDED
                                    : EventKinds.AGENT_WAITING,
                            message(id, signal),
                            details));
            return Optional.of(Outcome.RECORDED);
        });
        return outcome.orElseThrow(() -> new SandboxNotFoundException(id));
    }

    private static String message(String id, AgentSignal signal) {
        String said = firstLine(signal.detail());
        if (signal.kind() == AgentSignal.Kind.TURN_ENDED) {
            return id + " is waiting for you: its agent's turn ended" + (said.isEmpty() ? "" : " (\"" + said + "\")");
        }
        return id + " is waiting for you: its agent asks for attention" + (said.isEmpty() ? "" : " (" + said + ")");
    }

    private static String firstLine(String text) {
        String t = text == null ? "" : text.strip();
        int nl = t.indexOf('\n');
        t = nl < 0 ? t : t.substring(0, nl).strip() + " …";
        return t.length() > 160 ? t.substring(0, 160) + "…" : t;
    }

    /** Whether sandbox {@code id} is waiting for you now. */
    public Optional<WaitingForYou> waiting(String id) throws StoreException {
        return jdbc.queryOne(VISIBLE + " WHERE w.sandbox_id = ?", AgentTurns::map, id);
    }

    /** The sandboxes of a repository that are waiting for you, by id. */
    public Map<String, WaitingForYou> waitingIn(long repositoryId) throws StoreException {
        List<WaitingForYou> list = jdbc.query(VISIBLE + " WHERE s.repository_id = ?", AgentTurns::map, repositoryId);
        Map<String, WaitingForYou> out = new LinkedHashMap<>();
        list.forEach(w -> out.put(w.sandboxId(), w));
        return out;
    }

    /** The follow-up prompt the sandbox's next starts resume its agent's session with, if a person sent one. */
    public Optional<FollowUp> followUp(String id) throws StoreException {
        return jdbc.queryOne(
                "SELECT sandbox_id, text, asked_by, asked_at FROM sandbox_follow_ups WHERE sandbox_id = ?",
                rs -> new FollowUp(rs.getString(1), rs.getString(2), rs.getString(3), Jdbc.instant(rs, "asked_at")),
                id);
    }

    /**
     * Ends the wait of sandbox {@code id} in a transition's transaction when it moves to {@code to}, a state in
     * which its agent cannot be waiting.
     */
    static void clearIn(Jdbc.Tx tx, String id, SandboxState to) throws SQLException {
        if (!ACCEPTS.contains(to) || to == SandboxState.RUNNING) {
            tx.update("DELETE FROM sandbox_waiting WHERE sandbox_id = ?", id);
        }
    }

    /** Stores the follow-up prompt {@code text} of sandbox {@code id} (replacing one sent before). */
    static void putFollowUp(Jdbc.Tx tx, String id, String text, String by, Instant at) throws SQLException {
        // Replace or add: not H2's MERGE ... KEY, which PostgreSQL lacks.
        if (tx.update(
                        "UPDATE sandbox_follow_ups SET text = ?, asked_by = ?, asked_at = ? WHERE sandbox_id = ?",
                        text,
                        cut(by, 256),
                        at,
                        id)
                == 0) {
            tx.update(
                    "INSERT INTO sandbox_follow_ups (text, asked_by, asked_at, sandbox_id) VALUES (?, ?, ?, ?)",
                    text,
                    cut(by, 256),
                    at,
                    id);
        }
    }

    /** Forgets the follow-up prompt of sandbox {@code id}: its next start runs the task anew. */
    static void dropFollowUp(Jdbc.Tx tx, String id) throws SQLException {
        tx.update("DELETE FROM sandbox_follow_ups WHERE sandbox_id = ?", id);
    }

    /** The SHA-256 (hex) of a hook's input, stripped (the turn file adds a newline the API body lacks). */
    static String key(String payload) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest((payload == null ? "" : payload.strip()).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    private static WaitingForYou map(ResultSet rs) throws SQLException {
        return new WaitingForYou(
                rs.getString(1),
                AgentSignal.Kind.of(rs.getString(2)),
                rs.getInt(3),
                Jdbc.instant(rs, "since"),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7));
    }

    private static String cut(String text) {
        return cut(text, DETAIL_MAX);
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}
