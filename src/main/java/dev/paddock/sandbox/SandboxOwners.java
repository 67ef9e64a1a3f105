package dev.paddock.sandbox;

import dev.paddock.common.Threads;
import dev.paddock.store.Database;
import dev.paddock.store.Jdbc;
import dev.paddock.store.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which Paddock supervises each sandbox of a store several Paddocks share (a store on a database server): a lease
 * per sandbox in {@code sandbox_owner} (V24), on the server's clock, as {@code store.StoreLease} is for the store.
 *
 * <ul>
 *   <li>A new sandbox is held by the Paddock that created it: its row is written in the transaction that stores it
 *       ({@link #holdNew}).</li>
 *   <li>Every lease of this Paddock is renewed by one statement every {@link #RENEW_EVERY}, for {@link #LENGTH}
 *       (after the rows of its sandboxes that were removed are deleted).</li>
 *   <li>The supervisor acts only on the sandboxes {@link #held} returns: its own live leases, and those it just took
 *       by compare-and-set: a sandbox with no row, or whose lease expired (its Paddock was killed or hangs), and
 *       whose worktree is on this machine. A Paddock that takes one over adopts its running agent as after a
 *       restart.</li>
 *   <li>A clean stop lets its leases expire at once ({@link #close}): another Paddock takes them on its next tick.</li>
 * </ul>
 *
 * <p>A store in an H2 file has one Paddock (its file lock): every sandbox is this one's, and nothing is stored.
 */
public final class SandboxOwners implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxOwners.class);
    /** How long a sandbox's lease lasts after its last renewal (as the store's coordinator lease). */
    public static final Duration LENGTH = Duration.ofSeconds(15);
    /** How often a Paddock renews all its sandboxes' leases, in one statement. */
    public static final Duration RENEW_EVERY = Duration.ofSeconds(5);

    private static final String EXPIRES = "CURRENT_TIMESTAMP + CAST(? AS INTEGER) * INTERVAL '0.001' SECOND";

    private final Database db;
    private final Jdbc jdbc;
    private final Duration length;
    private final ScheduledExecutorService renewer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("sandbox-leases"));
    private volatile boolean started;

    public SandboxOwners(Database db) {
        this(db, LENGTH);
    }

    /** With leases of {@code length} (renewed every third of it, at most {@link #RENEW_EVERY}); for tests. */
    public SandboxOwners(Database db, Duration length) {
        this.db = db;
        this.jdbc = db.jdbc();
        this.length = length;
    }

    /** Whether sandboxes have owners here: a store several Paddocks may share, joined by this one. */
    private boolean shared() {
        return db.onServer();
    }

    /** Starts renewing this Paddock's leases in the background. */
    public void start() {
        if (!shared() || started) {
            return;
        }
        started = true;
        long every = Math.min(RENEW_EVERY.toMillis(), Math.max(100, length.toMillis() / 3));
        renewer.scheduleWithFixedDelay(this::renewQuietly, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * In the transaction that stores sandbox {@code id}: this Paddock holds it. Nothing for an H2 store, or a
     * process that did not join the store (a CLI command): the first supervisor to tick takes it then.
     */
    void holdNew(Jdbc.Tx tx, String id) throws SQLException {
        String me = db.owner();
        if (!shared() || me == null) {
            return;
        }
        tx.update(
                "INSERT INTO sandbox_owner (sandbox_id, owner, since, heartbeat, expires) VALUES (?, ?,"
                        + " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, " + EXPIRES + ")",
                id,
                me,
                length.toMillis());
    }

    /** One sandbox's row: who holds it and whether its lease is live (on the server's clock). */
    private record Row(String owner, boolean live) {}

    /**
     * The sandboxes of {@code live} this Paddock supervises now: those it holds, and those it takes now (no row, or
     * an expired lease) whose worktree is on this machine. All of them for an H2 store; none for a process that did
     * not join the store.
     */
    public List<SandboxRecord> held(List<SandboxRecord> live) throws StoreException {
        if (!shared()) {
            return live;
        }
        String me = db.owner();
        if (me == null || live.isEmpty()) {
            return List.of();
        }
        Map<String, Row> rows = new HashMap<>();
        for (Map.Entry<String, Row> e : jdbc.query(
                "SELECT o.sandbox_id, o.owner, CASE WHEN o.expires < CURRENT_TIMESTAMP THEN 0 ELSE 1 END"
                        + " FROM sandbox_owner o JOIN sandboxes s ON s.id = o.sandbox_id WHERE s.state <> 'closed'",
                rs -> Map.entry(rs.getString(1), new Row(rs.getString(2), rs.getInt(3) == 1)))) {
            rows.put(e.getKey(), e.getValue());
        }
        List<SandboxRecord> mine = new ArrayList<>();
        for (SandboxRecord s : live) {
            Row r = rows.get(s.id());
            if (r != null && r.live()) {
                if (r.owner().equals(me)) {
                    mine.add(s);
                }
            } else if (worktreeHere(s) && take(s.id(), r, me)) {
                mine.add(s);
            }
        }
        return mine;
    }

    /**
     * The sandboxes of {@code records} whose live lease this Paddock holds, taking none: all of them for an H2 store,
     * none for a process that did not join the store.
     */
    public List<SandboxRecord> mine(List<SandboxRecord> records) throws StoreException {
        if (!shared()) {
            return records;
        }
        String me = db.owner();
        if (me == null || records.isEmpty()) {
            return List.of();
        }
        java.util.Set<String> held = new java.util.HashSet<>(jdbc.query(
                "SELECT sandbox_id FROM sandbox_owner WHERE owner = ? AND expires >= CURRENT_TIMESTAMP",
                rs -> rs.getString(1),
                me));
        return records.stream().filter(s -> held.contains(s.id())).toList();
    }

    /**
     * The ids among {@code records} whose live lease another Paddock holds, taking none: none for an H2 store. Their
     * holder judges them (a worktree that is not on this machine has not vanished).
     */
    public java.util.Set<String> heldByOthers(List<SandboxRecord> records) throws StoreException {
        if (!shared() || records.isEmpty()) {
            return java.util.Set.of();
        }
        String me = db.owner();
        java.util.Set<String> ids =
                new java.util.HashSet<>(records.stream().map(SandboxRecord::id).toList());
        java.util.Set<String> others = new java.util.HashSet<>(jdbc.query(
                "SELECT sandbox_id FROM sandbox_owner WHERE owner <> ? AND expires >= CURRENT_TIMESTAMP",
                rs -> rs.getString(1),
                me == null ? "" : me));
        others.retainAll(ids);
        return others;
    }

    /** Takes sandbox {@code id} by compare-and-set: inserts its row, or takes over the expired one. */
    private boolean take(String id, Row was, String me) throws StoreException {
        boolean taken;
        if (was == null) {
            try {
                taken = jdbc.update(
                                "INSERT INTO sandbox_owner (sandbox_id, owner, since, heartbeat, expires)"
                                        + " VALUES (?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, " + EXPIRES + ")",
                                id,
                                me,
                                length.toMillis())
                        == 1;
            } catch (StoreException e) {
                return false; // another Paddock inserted it first (its primary key)
            }
        } else {
            taken = jdbc.update(
                            "UPDATE sandbox_owner SET owner = ?, since = CURRENT_TIMESTAMP,"
                                    + " heartbeat = CURRENT_TIMESTAMP, expires = " + EXPIRES
                                    + " WHERE sandbox_id = ? AND owner = ? AND expires < CURRENT_TIMESTAMP",
                            me,
                            length.toMillis(),
                            id,
                            was.owner())
                    == 1;
        }
        if (taken && was != null && !was.owner().equals(me)) {
            LOG.info("Took over sandbox {} from {}: its lease expired", id, was.owner());
        } else if (taken && was == null) {
            LOG.info("Supervising sandbox {} (it had no owner)", id);
        }
        return taken;
    }

    /** Whether the sandbox's worktree is on this machine: a host's worktree is on one machine only. */
    private static boolean worktreeHere(SandboxRecord s) {
        Path w = s.workspace().worktree();
        return w != null && Files.isDirectory(w);
    }

    /** Renews every lease of this Paddock, in one statement; returns how many. */
    int renew() throws StoreException {
        String me = db.owner();
        if (!shared() || me == null) {
            return 0;
        }
        // The rows of its sandboxes that were removed since go first: nobody supervises a closed sandbox.
        jdbc.update(
                "DELETE FROM sandbox_owner WHERE owner = ? AND sandbox_id IN (SELECT id FROM sandboxes WHERE state ="
                        + " 'closed')",
                me);
        return jdbc.update(
                "UPDATE sandbox_owner SET heartbeat = CURRENT_TIMESTAMP, expires = " + EXPIRES + " WHERE owner = ?",
                length.toMillis(),
                me);
    }

    private void renewQuietly() {
        try {
            renew();
        } catch (StoreException | RuntimeException e) {
            LOG.warn("Cannot renew this Paddock's sandbox leases: {}", e.getMessage());
        }
    }

    /**
     * Stops renewing and lets this Paddock's leases expire now, so that another Paddock sharing the store takes its
     * sandboxes on its next tick (their agents keep running and are adopted). Call once the supervisor stopped.
     */
    @Override
    public void close() {
        renewer.shutdownNow();
        String me = db.owner();
        if (!shared() || me == null || !started) {
            return;
        }
        try {
            jdbc.update(
                    "UPDATE sandbox_owner SET expires = CURRENT_TIMESTAMP - INTERVAL '1' SECOND WHERE owner = ?", me);
        } catch (StoreException | RuntimeException e) {
            LOG.warn("Cannot give up this Paddock's sandbox leases (they expire on their own): {}", e.getMessage());
        }
    }
}
