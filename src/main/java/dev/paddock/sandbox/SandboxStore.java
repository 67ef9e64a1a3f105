package dev.paddock.sandbox;

import dev.paddock.common.TokenHash;
import dev.paddock.container.ResourceLimits;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.store.Columns;
import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Sandbox records in the store. Every state change is a compare-and-set on the state column with
 * its event in the same transaction ({@link #transition}); nothing else changes the state. Other packages
 * move a sandbox through {@link SandboxLifecycle}.
 */
public final class SandboxStore implements AutoCloseable {
    private static final Columns C = Columns.of(
            "id",
            "repository_id",
            "task",
            "agent_command",
            "tier",
            "branch",
            "base_branch",
            "base_commit",
            "worktree_path",
            "container_id",
            "state",
            "version",
            "created_at",
            "started_at",
            "finished_at",
            "state_changed_at",
            "last_heartbeat_at",
            "progress",
            "lease_ms",
            "lease_expires_at",
            "iteration",
            "retry_count",
            "max_retries",
            "pid",
            "pid_started_at",
            "exit_code",
            "last_error",
            "network_granted",
            "cpu_limit_nanos",
            "memory_limit_bytes",
            "pids_limit",
            "nofile_limit",
            "image",
            "agent",
            "model",
            "agent_session",
            "group_id",
            "engine");
    private static final String COLUMNS = C.sql();

    private final Jdbc jdbc;
    private final EventLog events;
    private final Clock clock;
    private final SandboxTokens.Cache tokens = new SandboxTokens.Cache();
    private final java.util.Set<String> removing = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final HeartbeatBuffer beats = new HeartbeatBuffer(this::writeBeats);
    private final RunningStates runningStates = new RunningStates();
    private final AgentTurns turns;
    private final SandboxOwners owners;

    public SandboxStore(Database db, EventLog events, Clock clock) {
        this.jdbc = db.jdbc();
        this.owners = new SandboxOwners(db);
        this.events = events;
        this.clock = clock;
        this.turns = new AgentTurns(jdbc, events, clock);
    }

    /** Which Paddock supervises each sandbox of a store several share (see {@link SandboxOwners}). */
    public SandboxOwners owners() {
        return owners;
    }

    /** The agents' turns beside the sandboxes: "waiting for you" and follow-up prompts. */
    public AgentTurns turns() {
        return turns;
    }

    /**
     * Claims the removal of a sandbox in this process: while claimed, nothing else starts acting on it (the merge
     * queue does not take a done sandbox whose leftovers the removal is committing).
     *
     * @return false when a removal of it is under way already
     */
    public boolean claimRemoval(String id) {
        return removing.add(id);
    }

    /** Ends a removal claimed by {@link #claimRemoval}. */
    public void releaseRemoval(String id) {
        removing.remove(id);
    }

    /** Whether a removal of the sandbox is under way in this process. */
    public boolean isBeingRemoved(String id) {
        return removing.contains(id);
    }

    /**
     * Stores a new sandbox (state {@code pending}) with its fingerprint and the events of its creation, all in one
     * transaction. It has no token until its agent first starts ({@link #issueToken}).
     *
     * @throws StoreException when the id is taken or the store fails
     */
    public void insert(SandboxRecord s, String fingerprintJson, List<EventDraft> creationEvents) throws StoreException {
        SandboxRecord.Spec spec = s.spec();
        SandboxRecord.Workspace ws = s.workspace();
        ResourceLimits limits = s.limits();
        jdbc.inTransaction(tx -> {
            tx.update(
                    "INSERT INTO sandboxes (id, repository_id, task, agent_command, tier, branch, base_branch,"
                            + " base_commit, worktree_path, state, version, created_at, state_changed_at, lease_ms,"
                            + " iteration, retry_count, max_retries, network_granted, cpu_limit_nanos, memory_limit_bytes,"
                            + " pids_limit, nofile_limit, image, agent, model, fingerprint, group_id, engine) VALUES (?, ?, ?, ?,"
                            + " ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    s.id(),
                    s.repositoryId(),
                    spec.task(),
                    spec.agentCommand(),
                    spec.tier(),
                    ws.branch(),
                    ws.baseBranch(),
                    ws.baseCommit(),
                    ws.worktreePath(),
                    s.state(),
                    s.createdAt(),
                    s.createdAt(),
                    s.lease().ms(),
                    s.run().maxRetries(),
                    spec.networkGranted(),
                    limits == null ? null : limits.nanoCpus(),
                    limits == null ? null : limits.memoryBytes(),
                    limits == null ? null : limits.pids(),
                    limits == null ? null : limits.nofile(),
                    spec.image(),
                    spec.agent(),
                    spec.model(),
                    fingerprintJson,
                    spec.group(),
                    spec.engine());
            owners.holdNew(tx, s.id());
            for (EventDraft e : creationEvents) {
                events.append(tx, e);
            }
            return null;
        });
    }

    /**
     * Applies a transition if, and only if, the sandbox is still in {@code t.from()}: the state, the
     * columns of {@code t} and the version change together, and the event is written in the same
     * transaction.
     *
     * @return whether it happened (false: the sandbox is gone or was already moved by someone else)
     */
    boolean transition(String id, Transition t) throws StoreException {
        Instant now = clock.instant();
        List<Object> params = new ArrayList<>();
        StringBuilder sql =
                new StringBuilder("UPDATE sandboxes SET state = ?, version = version + 1, state_changed_at = ?");
        params.add(t.to());
        params.add(now);
        for (Map.Entry<Transition.Column, Object> c : t.values().entrySet()) {
            sql.append(", ").append(c.getKey().sql).append(" = ?");
            params.add(c.getValue());
        }
        sql.append(" WHERE id = ? AND state = ?");
        params.add(id);
        params.add(t.from());
        java.util.Optional<HeartbeatBuffer.Beat> beat = beats.pending(id);
        boolean moved;
        try {
            moved = moveIn(id, t, sql.toString(), params, beat);
        } finally {
            runningStates.forget(id);
        }
        beat.ifPresent(b -> beats.written(id, b));
        return moved;
    }

    private boolean moveIn(
            String id, Transition t, String sql, List<Object> params, java.util.Optional<HeartbeatBuffer.Beat> beat)
            throws StoreException {
        return jdbc.inTransaction(tx -> {
            // The sandbox's last heartbeat (its progress: "done", say) is written before it leaves running.
            if (beat.isPresent()) {
                writeBeat(tx, id, beat.get());
            }
            if (tx.update(sql, params.toArray()) != 1) {
                return false;
            }
            AgentTurns.clearIn(tx, id, t.to());
            t.alsoIn(tx);
            Long repositoryId = tx.queryOne("SELECT repository_id FROM sandboxes WHERE id = ?", rs -> rs.getLong(1), id)
                    .orElse(null);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("from", t.from().id());
            details.put("to", t.to().id());
            details.putAll(t.details());
            events.append(tx, EventDraft.of(repositoryId, id, t.eventKind(), t.eventMessage(id), details));
            return true;
        });
    }

    /**
     * Records a heartbeat of a running sandbox: its time, its progress text, and a renewed lease
     * ({@code now + lease_ms}). No event: the row keeps the last one. Kept in memory and written with the others
     * within {@link HeartbeatBuffer#FLUSH_MS} ms (reads of the record see it at once): heartbeats are the API's most
     * frequent request, and a commit each grew the store by several KB.
     *
     * @return false when the sandbox is not running (the heartbeat is then ignored)
     */
    public boolean heartbeat(String id, String progress) throws StoreException {
        Instant now = clock.instant();
        boolean running = runningStates.knownRunning(id);
        if (!running) {
            long readAt = runningStates.generation();
            running = jdbc.queryOne("SELECT state FROM sandboxes WHERE id = ?", rs -> rs.getString(1), id)
                    .map(SandboxState.RUNNING.id()::equals)
                    .orElse(false);
            if (running) {
                runningStates.running(id, readAt);
            }
        }
        if (running) {
            beats.put(id, new HeartbeatBuffer.Beat(now, progress));
        }
        return running;
    }

    /** Writes the pending heartbeats, in one transaction (of sandboxes still running). */
    private void writeBeats(Map<String, HeartbeatBuffer.Beat> pending) throws StoreException {
        jdbc.inTransaction(tx -> {
            // In the ids' order: two writers of overlapping batches (a flush at close beside the flusher, two
            // Paddocks sharing a server store) then lock the rows in the same order, and PostgreSQL finds no deadlock.
            for (Map.Entry<String, HeartbeatBuffer.Beat> e : new java.util.TreeMap<>(pending).entrySet()) {
                writeBeat(tx, e.getKey(), e.getValue());
            }
            return null;
        });
    }

    private static void writeBeat(Jdbc.Tx tx, String id, HeartbeatBuffer.Beat b) throws SQLException {
        tx.update(
                "UPDATE sandboxes SET last_heartbeat_at = ?, progress = ?,"
                        // Interval arithmetic H2 and PostgreSQL both take (not H2's DATEADD).
                        + " lease_expires_at = CAST(? AS TIMESTAMP WITH TIME ZONE) + lease_ms * INTERVAL '0.001' SECOND"
                        + " WHERE id = ? AND state = 'running'",
                b.at(),
                b.progress(),
                b.at(),
                id);
    }

    /** Writes the heartbeats not written yet now (before the store is closed). */
    public void flushHeartbeats() {
        beats.flush();
    }

    /** Stops writing heartbeats in the background, after writing the pending ones. */
    @Override
    public void close() {
        beats.close();
    }

    /** Sets the lease of a running sandbox to run out at {@code until} (no event). */
    public void renewLease(String id, Instant until) throws StoreException {
        jdbc.update("UPDATE sandboxes SET lease_expires_at = ? WHERE id = ? AND state = 'running'", until, id);
    }

    /**
     * Records the session id the agent's next run is started with (chosen by Paddock before the start; no event,
     * the run's start has one).
     */
    public void recordAgentSession(String id, String session) throws StoreException {
        jdbc.update("UPDATE sandboxes SET agent_session = ? WHERE id = ?", session, id);
    }

    /** Forgets the pid of a sandbox once its process tree is gone (only if it still names that pid). */
    public void clearPid(String id, long pid) throws StoreException {
        jdbc.update("UPDATE sandboxes SET pid = NULL, pid_started_at = NULL WHERE id = ? AND pid = ?", id, pid);
    }

    /** Forgets the container of a sandbox once it is removed (only if the record still names that one). */
    public void clearContainer(String id, String containerId) throws StoreException {
        jdbc.update("UPDATE sandboxes SET container_id = NULL WHERE id = ? AND container_id = ?", id, containerId);
    }

    /** The sandbox with this id. */
    public Optional<SandboxRecord> find(String id) throws StoreException {
        return jdbc.queryOne("SELECT " + COLUMNS + " FROM sandboxes WHERE id = ?", SandboxStore::map, id)
                .map(beats::overlay);
    }

    /** Whether a sandbox with this id exists (in any state, closed too). */
    public boolean exists(String id) throws StoreException {
        return find(id).isPresent();
    }

    /**
     * The ids starting with {@code prefix}, for numbering new ones.
     *
     * @param prefix letters, digits and dashes only (no LIKE wildcards)
     */
    public List<String> idsStartingWith(String prefix) throws StoreException {
        if (!prefix.matches("[a-z0-9-]*")) {
            throw new IllegalArgumentException("not an id prefix: " + prefix);
        }
        return jdbc.query("SELECT id FROM sandboxes WHERE id LIKE ?", rs -> rs.getString(1), prefix + "%");
    }

    /** The sandboxes of a repository that are not closed, newest first. */
    public List<SandboxRecord> listOpen(long repositoryId) throws StoreException {
        return jdbc
                .query(
                        "SELECT " + COLUMNS + " FROM sandboxes WHERE repository_id = ? AND state <> 'closed'"
                                + " ORDER BY created_at DESC, id DESC",
                        SandboxStore::map,
                        repositoryId)
                .stream()
                .map(beats::overlay)
                .toList();
    }

    /** The sandboxes of a fan-out ({@link SandboxRecord#group()}), closed ones too, by id. */
    public List<SandboxRecord> ofGroup(String group) throws StoreException {
        return jdbc
                .query("SELECT " + COLUMNS + " FROM sandboxes WHERE group_id = ? ORDER BY id", SandboxStore::map, group)
                .stream()
                .map(beats::overlay)
                .toList();
    }

    /** Every sandbox not closed, in every repository (what the supervisor looks at), oldest first. */
    public List<SandboxRecord> listLive() throws StoreException {
        return jdbc
                .query(
                        "SELECT " + COLUMNS + " FROM sandboxes WHERE state <> 'closed' ORDER BY created_at, id",
                        SandboxStore::map)
                .stream()
                .map(beats::overlay)
                .toList();
    }

    /**
     * Gives a sandbox a new token, for the run about to start: the token's hash replaces the previous one in the
     * store (so the previous run's token stops working) and the token itself is returned, to go into the agent's
     * environment and nowhere else.
     *
     * @return the new token (256 random bits, URL-safe base64)
     * @throws SandboxNotFoundException when there is no such sandbox
     */
    public String issueToken(String id) throws StoreException, SandboxNotFoundException {
        String token = SandboxTokens.newToken();
        if (jdbc.update("UPDATE sandboxes SET token_hash = ? WHERE id = ?", TokenHash.of(token), id) != 1) {
            throw new SandboxNotFoundException(id);
        }
        tokens.forget(id);
        return token;
    }

    /**
     * The sandbox a presented bearer token belongs to, found by the token's hash (unique index; the last few
     * thousand found are remembered, so a heartbeat costs no lookup).
     *
     * @return empty when no sandbox has this token (or it was replaced by a newer run's)
     */
    public Optional<String> sandboxOfToken(String token) throws StoreException {
        if (token == null || token.isBlank()) {
            return Optional.empty();
        }
        String hash = TokenHash.of(token);
        Optional<String> known = tokens.get(hash);
        if (known.isPresent()) {
            return known;
        }
        long generation = tokens.generation();
        Optional<String> id =
                jdbc.queryOne("SELECT id FROM sandboxes WHERE token_hash = ?", rs -> rs.getString(1), hash);
        id.ifPresent(x -> tokens.put(hash, x, generation));
        return id;
    }

    /**
     * Records the health fingerprint of a sandbox (JSON) with its event, in one transaction; the first one
     * recorded stays.
     *
     * @return false when the sandbox is gone or has a fingerprint already (nothing written then)
     */
    public boolean recordFingerprint(String id, String fingerprintJson, EventDraft event) throws StoreException {
        return jdbc.inTransaction(tx -> {
            if (tx.update(
                            "UPDATE sandboxes SET fingerprint = ? WHERE id = ? AND fingerprint IS NULL",
                            fingerprintJson,
                            id)
                    != 1) {
                return false;
            }
            events.append(tx, event);
            return true;
        });
    }

    /** The health fingerprint recorded at creation (JSON), if any. */
    public Optional<String> fingerprintOf(String id) throws StoreException {
        return jdbc.queryOne(
                "SELECT fingerprint FROM sandboxes WHERE id = ? AND fingerprint IS NOT NULL",
                rs -> rs.getString(1),
                id);
    }

    static SandboxRecord map(ResultSet rs) throws SQLException {
        return SandboxRecord.builder()
                .id(rs.getString(C.at("id")))
                .repositoryId(rs.getLong(C.at("repository_id")))
                .task(rs.getString(C.at("task")))
                .agentCommand(rs.getString(C.at("agent_command")))
                .tier(Tier.of(rs.getString(C.at("tier"))))
                .branch(rs.getString(C.at("branch")))
                .baseBranch(rs.getString(C.at("base_branch")))
                .baseCommit(rs.getString(C.at("base_commit")))
                .worktreePath(rs.getString(C.at("worktree_path")))
                .containerId(rs.getString(C.at("container_id")))
                .state(SandboxState.of(rs.getString(C.at("state"))))
                .version(rs.getLong(C.at("version")))
                .createdAt(Jdbc.instant(rs, C.at("created_at")))
                .startedAt(Jdbc.instant(rs, C.at("started_at")))
                .finishedAt(Jdbc.instant(rs, C.at("finished_at")))
                .stateChangedAt(Jdbc.instant(rs, C.at("state_changed_at")))
                .lastHeartbeatAt(Jdbc.instant(rs, C.at("last_heartbeat_at")))
                .progress(rs.getString(C.at("progress")))
                .leaseMs(rs.getLong(C.at("lease_ms")))
                .leaseExpiresAt(Jdbc.instant(rs, C.at("lease_expires_at")))
                .iteration(rs.getInt(C.at("iteration")))
                .retryCount(rs.getInt(C.at("retry_count")))
                .maxRetries(rs.getInt(C.at("max_retries")))
                .pid(Jdbc.nullableLong(rs, C.at("pid")))
                .pidStartedAt(Jdbc.instant(rs, C.at("pid_started_at")))
                .exitCode(Jdbc.nullableInt(rs, C.at("exit_code")))
                .lastError(rs.getString(C.at("last_error")))
                .networkGranted(rs.getBoolean(C.at("network_granted")))
                .limits(limits(rs))
                .image(rs.getString(C.at("image")))
                .agent(rs.getString(C.at("agent")))
                .model(rs.getString(C.at("model")))
                .agentSession(rs.getString(C.at("agent_session")))
                .group(rs.getString(C.at("group_id")))
                .engine(rs.getString(C.at("engine")))
                .build();
    }

    /**
     * The limits of a row: null when it has none (tiers other than the container's, which store all four), else
     * with {@link ResourceLimits#DEFAULTS} for a missing one.
     */
    private static ResourceLimits limits(ResultSet rs) throws SQLException {
        Long cpu = Jdbc.nullableLong(rs, C.at("cpu_limit_nanos"));
        Long memory = Jdbc.nullableLong(rs, C.at("memory_limit_bytes"));
        Long pids = Jdbc.nullableLong(rs, C.at("pids_limit"));
        Long nofile = Jdbc.nullableLong(rs, C.at("nofile_limit"));
        return cpu == null && memory == null && pids == null && nofile == null
                ? null
                : ResourceLimits.orDefaults(cpu, memory, pids, nofile);
    }
}
