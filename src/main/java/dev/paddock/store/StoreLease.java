package dev.paddock.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.HexFormat;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator among the Paddocks that share a store on a database server (docs/decisions/0026 and 0028): the one
 * that runs the store-wide work (merge queue, event retention, reconciler). The row of {@code store_owner} (V23)
 * names it (host, pid and a random part: the id this process also holds its sandboxes' leases with), when it took the
 * role, and when its lease expires; it renews it every {@link #RENEW_EVERY}, for {@link #LENGTH} from the server's
 * clock (hosts' clocks play no part).
 *
 * <p>Taking it is a compare-and-set: an update of a row that expired (or is this owner's), else an insert of the
 * row, which the primary key lets one Paddock alone make. A Paddock that {@link #join}s while the row is live stands
 * by and tries again every renewal period; {@link #take} refuses instead ({@link StoreOwnedException}, naming the
 * holder). A holder killed with {@code kill -9} leaves its row: it can be taken once it expired, {@link #LENGTH}
 * after its last renewal. A renewal that finds another owner (or that cannot reach the server for longer than a
 * lease) has lost the role: {@code onLost} runs once, and the Paddock must stop.
 */
public final class StoreLease {
    private static final Logger LOG = LoggerFactory.getLogger(StoreLease.class);
    /** How long a lease lasts after its last renewal: how long a store waits after its owner was killed. */
    public static final Duration LENGTH = Duration.ofSeconds(15);
    /** How often the owner renews it: a third of {@link #LENGTH}, so two renewals may fail before it expires. */
    static final Duration RENEW_EVERY = Duration.ofSeconds(5);

    private static final String EXPIRES = "CURRENT_TIMESTAMP + CAST(? AS INTEGER) * INTERVAL '0.001' SECOND";

    private final Database db;
    private final String owner;
    private final Duration length;
    private final String host;
    private final long pid;
    private boolean coordinator;
    private final Object lock = new Object();
    private ScheduledExecutorService renewer;
    private ScheduledExecutorService watchdog;
    private long renewedAt; // System.nanoTime() of the last renewal that succeeded
    private boolean lost;
    private boolean released;

    private StoreLease(Database db, String owner, Duration length, String host, long pid) {
        this.db = db;
        this.owner = owner;
        this.length = length;
        this.host = host;
        this.pid = pid;
        this.renewedAt = System.nanoTime();
    }

    /** Who this process is, for the row: host, pid and a random part (two Paddocks never share it). */
    static String newOwner(String host, long pid) {
        byte[] raw = new byte[6];
        new java.security.SecureRandom().nextBytes(raw);
        return host + ":" + pid + ":" + HexFormat.of().formatHex(raw);
    }

    /**
     * Takes the store of {@code db} for this process, for {@link #LENGTH}.
     *
     * @throws StoreOwnedException when another Paddock's lease is live, naming it
     * @throws StoreException when the server cannot be asked
     */
    static StoreLease take(Database db, String host, long pid, Duration length) throws StoreException {
        StoreLease lease = new StoreLease(db, newOwner(host, pid), length, host, pid);
        Holder h = lease.tryTake();
        if (h != null) {
            throw new StoreOwnedException(h.describe(db.name()));
        }
        return lease;
    }

    /**
     * Joins the store of {@code db} as this process: the coordinator when no other Paddock's lease is live (see
     * {@link #coordinator()}), else standing by to take that role once the holder's lease expired ({@link #start}).
     *
     * @throws StoreException when the server cannot be asked
     */
    static StoreLease join(Database db, String host, long pid, Duration length) throws StoreException {
        StoreLease lease = new StoreLease(db, newOwner(host, pid), length, host, pid);
        Holder h = lease.tryTake();
        if (h != null) {
            LOG.info(
                    "Joined the store {} ({}); its coordinator is the Paddock on host {}, pid {}",
                    db.name(),
                    lease.owner,
                    h.host(),
                    h.pid());
        }
        return lease;
    }

    /** Takes the row if it is free or expired: null when taken, else the live holder. */
    private Holder tryTake() throws StoreException {
        for (int attempt = 0; attempt < 3; attempt++) {
            try (Connection c = db.connection()) {
                if (takeOver(c, host, pid) || insert(c, host, pid)) {
                    synchronized (lock) {
                        coordinator = true;
                        renewedAt = System.nanoTime();
                    }
                    LOG.info(
                            "Coordinator of the store {} ({}) for {} s at a time",
                            db.name(),
                            owner,
                            length.toSeconds());
                    return null;
                }
                Holder h = holder(c);
                if (h != null && h.live()) {
                    return h;
                }
                // it expired or was released since: try again
            } catch (SQLException e) {
                throw new StoreException(
                        "Cannot take the store " + db.name() + " for this Paddock: "
                                + StoreErrors.firstLine(e.getMessage()),
                        e);
            }
        }
        throw new StoreException("Cannot take the store " + db.name() + " for this Paddock: its owner keeps changing.");
    }

    /** Whether this process holds the coordinator's row now. */
    boolean coordinator() {
        synchronized (lock) {
            return coordinator && !lost && !released;
        }
    }

    private boolean takeOver(Connection c, String host, long pid) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE store_owner SET owner = ?, host = ?, pid = ?,"
                + " since = CURRENT_TIMESTAMP, heartbeat = CURRENT_TIMESTAMP, expires = " + EXPIRES
                + " WHERE id = 1 AND (expires < CURRENT_TIMESTAMP OR owner = ?)")) {
            s.setString(1, owner);
            s.setString(2, host);
            s.setLong(3, pid);
            s.setLong(4, length.toMillis());
            s.setString(5, owner);
            return s.executeUpdate() == 1;
        }
    }

    private boolean insert(Connection c, String host, long pid) throws SQLException {
        if (holder(c) != null) {
            return false;
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO store_owner (id, owner, host, pid, since, heartbeat,"
                + " expires) VALUES (1, ?, ?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, " + EXPIRES + ")")) {
            s.setString(1, owner);
            s.setString(2, host);
            s.setLong(3, pid);
            s.setLong(4, length.toMillis());
            return s.executeUpdate() == 1;
        } catch (SQLException e) {
            if (holder(c) != null) {
                return false; // another Paddock inserted it first
            }
            throw e;
        }
    }

    /** The owner's row, or null when there is none. */
    static Holder holder(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT host, pid, since, heartbeat, expires,"
                        + " CASE WHEN expires < CURRENT_TIMESTAMP THEN 0 ELSE 1 END AS live FROM store_owner"
                        + " WHERE id = 1");
                ResultSet rs = s.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            return new Holder(
                    rs.getString(1),
                    rs.getLong(2),
                    rs.getObject(3, OffsetDateTime.class).toInstant(),
                    rs.getObject(4, OffsetDateTime.class).toInstant(),
                    rs.getObject(5, OffsetDateTime.class).toInstant(),
                    rs.getInt(6) == 1);
        }
    }

    /** The row of a store's owner. */
    record Holder(String host, long pid, Instant since, Instant heartbeat, Instant expires, boolean live) {
        String describe(String store) {
            return "The Paddock store " + store + " is owned by another Paddock (host " + host + ", pid " + pid
                    + ", since " + since.truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + ", last renewed "
                    + heartbeat.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                    + "). Use that one; if it was killed, its lease expires at "
                    + expires.truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + " and the store can be taken then.";
        }
    }

    /**
     * Renews the lease every {@link #RENEW_EVERY} on a thread of its own until {@link #release}, or, while another
     * Paddock is the coordinator, tries to take it as often: {@code onCoordinator} runs (on that thread) when this
     * process becomes the coordinator after {@link #join}; {@code onLost} runs once when a lease it held is lost. A
     * watchdog on a thread of its own ({@code store-watchdog}) finds the lease lost when its last renewal that
     * succeeded is older than the lease, whatever the renewal is doing (waiting on a server that does not answer).
     */
    void start(Runnable onCoordinator, Runnable onLost) {
        ScheduledExecutorService s =
                Executors.newSingleThreadScheduledExecutor(dev.paddock.common.Threads.daemon("store-lease"));
        ScheduledExecutorService w =
                Executors.newSingleThreadScheduledExecutor(dev.paddock.common.Threads.daemon("store-watchdog"));
        synchronized (lock) {
            renewer = s;
            watchdog = w;
        }
        java.util.concurrent.atomic.AtomicBoolean told = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable lostOnce = () -> {
            if (told.compareAndSet(false, true)) {
                s.shutdownNow();
                w.shutdown();
                onLost.run();
            }
        };
        long every = renewEveryMs();
        s.scheduleWithFixedDelay(
                () -> {
                    if (coordinator()) {
                        if (!renew()) {
                            lostOnce.run();
                        }
                        return;
                    }
                    synchronized (lock) {
                        if (lost || released) {
                            return;
                        }
                    }
                    try {
                        if (tryTake() == null) {
                            onCoordinator.run();
                        }
                    } catch (StoreException | RuntimeException e) {
                        LOG.warn("Cannot take the coordinator's lease of {}: {}", db.name(), e.getMessage());
                    }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
        long look = Math.max(50, Math.min(1_000, length.toMillis() / 6));
        w.scheduleWithFixedDelay(
                () -> {
                    if (overdue()) {
                        lostOnce.run();
                    }
                },
                look,
                look,
                TimeUnit.MILLISECONDS);
    }

    private long renewEveryMs() {
        return Math.min(RENEW_EVERY.toMillis(), Math.max(100, length.toMillis() / 3));
    }

    /**
     * Whether this coordinator's last renewal that succeeded is older than the lease: then it is lost (another
     * Paddock may hold it now) even if the renewal still waits for the server.
     */
    boolean overdue() {
        synchronized (lock) {
            if (!coordinator || lost || released) {
                return false;
            }
            long since = System.nanoTime() - renewedAt;
            if (since < length.toNanos()) {
                return false;
            }
            lost = true;
            LOG.error(
                    "This Paddock lost the store {}: its lease was last renewed {} ms ago (the server does not"
                            + " answer), longer than the lease",
                    db.name(),
                    since / 1_000_000L);
            return true;
        }
    }

    /** {@link #start(Runnable, Runnable)} for a lease {@link #take}n: it is the coordinator already. */
    void start(Runnable onLost) {
        start(() -> {}, onLost);
    }

    /**
     * Renews the lease once; false when it is lost: another Paddock owns the store now, or the server could not be
     * reached for longer than a lease (another may have taken it meanwhile). A failure within a lease is logged and
     * tried again at the next renewal. The statement may wait for the server for one renewal period at most (its
     * query and network timeouts); the lock is not held meanwhile, so the watchdog and a stop never wait for it.
     */
    boolean renew() {
        synchronized (lock) {
            if (lost || released) {
                return !lost;
            }
        }
        int seconds = (int) Math.max(1, renewEveryMs() / 1000);
        try (Connection c = db.connection();
                NetworkTimeout t = NetworkTimeout.of(c, seconds * 1000 + 1000)) {
            try (PreparedStatement s = c.prepareStatement("UPDATE store_owner SET heartbeat = CURRENT_TIMESTAMP,"
                    + " expires = " + EXPIRES + " WHERE id = 1 AND owner = ?")) {
                s.setQueryTimeout(seconds);
                s.setLong(1, length.toMillis());
                s.setString(2, owner);
                if (s.executeUpdate() == 1) {
                    synchronized (lock) {
                        if (lost) {
                            return false; // the watchdog gave it up meanwhile
                        }
                        renewedAt = System.nanoTime();
                        return true;
                    }
                }
            }
            Holder h = holder(c);
            LOG.error(
                    "This Paddock lost the store {}: {}",
                    db.name(),
                    h == null ? "its owner's row was removed" : "it is owned by host " + h.host() + ", pid " + h.pid());
            synchronized (lock) {
                lost = true;
            }
            return false;
        } catch (SQLException e) {
            synchronized (lock) {
                long since = System.nanoTime() - renewedAt;
                if (lost || since >= length.toNanos()) {
                    if (!lost) {
                        LOG.error(
                                "This Paddock lost the store {}: its lease could not be renewed for {} s ({})",
                                db.name(),
                                since / 1_000_000_000L,
                                StoreErrors.firstLine(e.getMessage()));
                    }
                    lost = true;
                    return false;
                }
            }
            LOG.warn("Cannot renew the lease on the store {}: {}", db.name(), StoreErrors.firstLine(e.getMessage()));
            return true;
        }
    }

    /** Stops renewing and gives the store up (a lost lease is left to its new owner). Safe to call more than once. */
    void release() {
        ScheduledExecutorService s;
        ScheduledExecutorService w;
        boolean giveUp;
        synchronized (lock) {
            if (released) {
                return;
            }
            released = true;
            s = renewer;
            w = watchdog;
            giveUp = !lost && coordinator;
        }
        if (s != null) {
            s.shutdownNow();
        }
        if (w != null) {
            w.shutdownNow();
        }
        if (giveUp) {
            try (Connection c = db.connection();
                    PreparedStatement d = c.prepareStatement("DELETE FROM store_owner WHERE id = 1 AND owner = ?")) {
                d.setQueryTimeout((int) Math.max(1, renewEveryMs() / 1000));
                d.setString(1, owner);
                d.executeUpdate();
                LOG.info("Gave up the store {}", db.name());
            } catch (SQLException e) {
                LOG.warn(
                        "Cannot give up the store {} (it is free once the lease expires): {}",
                        db.name(),
                        StoreErrors.firstLine(e.getMessage()));
            }
        }
    }

    /**
     * A connection's network timeout for one renewal: how long a read may wait for the server, put back as it was
     * when closed (the connection goes back to the pool).
     */
    private static final class NetworkTimeout implements AutoCloseable {
        private final Connection c;
        private final int before;

        private NetworkTimeout(Connection c, int before) {
            this.c = c;
            this.before = before;
        }

        static NetworkTimeout of(Connection c, int ms) throws SQLException {
            int before = c.getNetworkTimeout();
            c.setNetworkTimeout(Runnable::run, ms);
            return new NetworkTimeout(c, before);
        }

        @Override
        public void close() {
            try {
                c.setNetworkTimeout(Runnable::run, before);
            } catch (SQLException brokenAlready) {
                // the pool drops a connection that failed
            }
        }
    }

    /** This process's owner id (host:pid:random). */
    String owner() {
        return owner;
    }
}
