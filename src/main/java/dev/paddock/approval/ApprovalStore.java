package dev.paddock.approval;

import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Approval requests in the store ({@code approvals}). A request is inserted with its event in one
 * transaction; a pending one reaches its final state only through {@link #finish}, a compare-and-set on
 * {@code state = 'pending'} whose event is written in the same transaction, so it happens exactly once.
 */
public final class ApprovalStore {
    static final String COLUMNS = "id, sandbox_id, repository_id, tool, request, cwd, matched_rule, state, decision,"
            + " decided_by, decider, reason, session_id, tool_use_id, requested_at, expires_at, decided_at";

    private final Jdbc jdbc;
    private final EventLog events;
    private final Clock clock;
    private final boolean shared;

    public ApprovalStore(Database db, EventLog events, Clock clock) {
        this.jdbc = db.jdbc();
        this.shared = db.onServer();
        this.events = events;
        this.clock = clock;
    }

    /** A final outcome: the state, the decision word ({@code allow}, {@code deny} or null) and by what. */
    public record Outcome(ApprovalState state, String decision, String decidedBy, String decider, String reason) {
        /** Approved or denied by a person. */
        static Outcome human(boolean allow, String who, String reason) {
            return new Outcome(
                    allow ? ApprovalState.APPROVED : ApprovalState.DENIED,
                    allow ? "allow" : "deny",
                    "human",
                    who,
                    reason);
        }
    }

    /**
     * Stores a new request, pending or already decided by the policy, with its event, in one transaction. The
     * request's text is stored whole; its reason is {@link Reasons#bounded bounded}.
     *
     * @param request the request; its id is ignored
     * @return the stored request with its id (and its reason as stored)
     */
    public Approval insert(Approval request) throws StoreException {
        Approval a = withReason(request, Reasons.bounded(request.reason()));
        return jdbc.inTransaction(tx -> {
            long id = tx.insert(
                    "INSERT INTO approvals (sandbox_id, repository_id, tool, request, cwd, matched_rule,"
                            + " state, decision, decided_by, decider, reason, session_id, tool_use_id, requested_at,"
                            + " expires_at, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    a.sandboxId(),
                    a.repositoryId(),
                    a.tool(),
                    a.request(),
                    a.cwd(),
                    a.matchedRule(),
                    a.state().id(),
                    a.decision(),
                    a.decidedBy(),
                    a.decider(),
                    a.reason(),
                    a.sessionId(),
                    a.toolUseId(),
                    a.requestedAt(),
                    a.expiresAt(),
                    a.decidedAt());
            Approval stored = withId(a, id);
            events.append(
                    tx,
                    event(
                            stored,
                            a.state() == ApprovalState.PENDING
                                    ? "requested"
                                    : a.state().id()));
            return stored;
        });
    }

    /**
     * Moves a pending request to its final state, if and only if it is still pending; the event is written
     * in the same transaction.
     *
     * @return the request in its final state, or empty when it was not pending (someone else finished it)
     */
    public Optional<Approval> finish(long id, Outcome o) throws StoreException {
        if (!o.state().isFinal()) {
            throw new IllegalArgumentException("not a final state: " + o.state());
        }
        Instant now = clock.instant();
        return jdbc.inTransaction(tx -> {
            int n = tx.update(
                    "UPDATE approvals SET state = ?, decision = ?, decided_by = ?, decider = ?, reason = ?,"
                            + " decided_at = ? WHERE id = ? AND state = 'pending'",
                    o.state().id(),
                    o.decision(),
                    o.decidedBy(),
                    o.decider(),
                    Reasons.bounded(o.reason()),
                    now,
                    id);
            if (n != 1) {
                return Optional.empty();
            }
            Approval done = tx.queryOne("SELECT " + COLUMNS + " FROM approvals WHERE id = ?", ApprovalStore::map, id)
                    .orElseThrow();
            events.append(tx, event(done, done.state().id()));
            return Optional.of(done);
        });
    }

    /** The request with this id. */
    /** Whether other Paddocks may decide these requests too: a store on a database server several share. */
    boolean shared() {
        return shared;
    }

    /** Those of the requests {@code ids} that are no longer pending (decided, expired, cancelled). */
    List<Approval> finalOf(java.util.Collection<Long> ids) throws StoreException {
        if (ids.isEmpty()) {
            return List.of();
        }
        String marks = String.join(", ", java.util.Collections.nCopies(ids.size(), "?"));
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM approvals WHERE state <> 'pending' AND id IN (" + marks + ")",
                ApprovalStore::map,
                ids.toArray());
    }

    public Optional<Approval> find(long id) throws StoreException {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM approvals WHERE id = ?", ApprovalStore::map, id);
    }

    /**
     * Requests in one state (all when {@code state} is null), oldest first for pending ones (the queue's
     * order), newest first otherwise.
     *
     * @param limit at most this many
     */
    public List<Approval> list(ApprovalState state, int limit) throws StoreException {
        if (state == null) {
            return jdbc.query(
                    "SELECT " + COLUMNS + " FROM approvals ORDER BY id DESC LIMIT ?", ApprovalStore::map, limit);
        }
        String order = state == ApprovalState.PENDING ? "ASC" : "DESC";
        return jdbc.query(
                "SELECT " + COLUMNS + " FROM approvals WHERE state = ? ORDER BY id " + order + " LIMIT ?",
                ApprovalStore::map,
                state.id(),
                limit);
    }

    /** The requests of one sandbox, oldest first: at most {@code limit} of the newest. */
    public List<Approval> ofSandbox(String sandboxId, int limit) throws StoreException {
        List<Approval> newestFirst = jdbc.query(
                "SELECT " + COLUMNS + " FROM approvals WHERE sandbox_id = ?" + " ORDER BY id DESC LIMIT ?",
                ApprovalStore::map,
                sandboxId,
                limit);
        List<Approval> out = new java.util.ArrayList<>(newestFirst);
        java.util.Collections.reverse(out);
        return out;
    }

    /**
     * The pending request a re-sent one attaches to: same sandbox, session (both null counts as the same),
     * tool, input and working directory; the oldest if several.
     */
    public Optional<Approval> findPendingTwin(
            String sandboxId, String sessionId, String tool, String request, String cwd) throws StoreException {
        return jdbc.queryOne(
                "SELECT " + COLUMNS + " FROM approvals WHERE state = 'pending' AND sandbox_id = ?"
                        + " AND tool = ? AND request = ? AND cwd IS NOT DISTINCT FROM ?"
                        + " AND session_id IS NOT DISTINCT FROM ? ORDER BY id LIMIT 1",
                ApprovalStore::map,
                sandboxId,
                tool,
                request,
                cwd,
                sessionId);
    }

    /** Ids of pending requests whose expiry is at or before {@code now}. */
    public List<Long> pendingExpiredAt(Instant now) throws StoreException {
        return jdbc.query(
                "SELECT id FROM approvals WHERE state = 'pending' AND expires_at <= ? ORDER BY id",
                rs -> rs.getLong(1),
                now);
    }

    /**
     * Pending requests whose sandbox is not running any more (stopped, finished, removed), with that
     * sandbox's state.
     */
    public Map<Long, String> pendingOfStoppedSandboxes() throws StoreException {
        Map<Long, String> out = new LinkedHashMap<>();
        jdbc.query(
                "SELECT a.id, s.state FROM approvals a LEFT JOIN sandboxes s ON s.id = a.sandbox_id"
                        + " WHERE a.state = 'pending' AND (s.state IS NULL OR s.state <> 'running') ORDER BY a.id",
                rs -> {
                    out.put(rs.getLong(1), rs.getString(2));
                    return null;
                });
        return out;
    }

    private static EventDraft event(Approval a, String what) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("approvalId", a.id());
        d.put("tool", a.tool());
        d.put("request", a.request());
        d.put("cwd", a.cwd());
        d.put("state", a.state().id());
        if (a.decision() != null) {
            d.put("decision", a.decision());
        }
        if (a.decidedBy() != null) {
            d.put("decidedBy", a.decidedBy());
        }
        if (a.decider() != null) {
            d.put("decider", a.decider());
        }
        if (a.matchedRule() != null) {
            d.put("rule", a.matchedRule());
        }
        if (a.expiresAt() != null && a.state() == ApprovalState.PENDING) {
            d.put("expiresAt", a.expiresAt().toString());
        }
        String shown = a.tool() + (a.request().isEmpty() ? "" : " `" + abbreviate(a.request()) + "`");
        String message = switch (what) {
            case "requested" -> a.sandboxId() + " asks: " + shown;
            case "approved" -> shown + " approved" + by(a) + " for " + a.sandboxId();
            case "denied" -> shown + " denied" + by(a) + " for " + a.sandboxId();
            case "expired" -> shown + " expired unanswered: denied for " + a.sandboxId();
            default -> shown + " cancelled for " + a.sandboxId() + (a.reason() == null ? "" : ": " + a.reason());
        };
        return EventDraft.of(a.repositoryId(), a.sandboxId(), "approval." + what, message, d);
    }

    private static String by(Approval a) {
        if ("human".equals(a.decidedBy())) {
            return a.decider() == null ? " by a person" : " by " + a.decider();
        }
        return a.matchedRule() == null ? " by the policy" : " by rule " + a.matchedRule();
    }

    private static String abbreviate(String s) {
        String one = s.replace('\n', ' ');
        return one.length() <= 200 ? one : one.substring(0, 199) + "…";
    }

    private static Approval withReason(Approval a, String reason) {
        return a.toBuilder().reason(reason).build();
    }

    private static Approval withId(Approval a, long id) {
        return a.toBuilder().id(id).build();
    }

    static Approval map(ResultSet rs) throws SQLException {
        return Approval.builder()
                .id(rs.getLong("id"))
                .sandboxId(rs.getString("sandbox_id"))
                .repositoryId(Jdbc.nullableLong(rs, "repository_id"))
                .tool(rs.getString("tool"))
                .request(rs.getString("request"))
                .cwd(rs.getString("cwd"))
                .matchedRule(rs.getString("matched_rule"))
                .state(ApprovalState.of(rs.getString("state")))
                .decision(rs.getString("decision"))
                .decidedBy(rs.getString("decided_by"))
                .decider(rs.getString("decider"))
                .reason(rs.getString("reason"))
                .sessionId(rs.getString("session_id"))
                .toolUseId(rs.getString("tool_use_id"))
                .requestedAt(Jdbc.instant(rs, "requested_at"))
                .expiresAt(Jdbc.instant(rs, "expires_at"))
                .decidedAt(Jdbc.instant(rs, "decided_at"))
                .build();
    }
}
