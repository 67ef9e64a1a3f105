package dev.paddock.store;

import dev.paddock.common.Threads;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.FileStore;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the store file small while Paddock runs. MVStore appends every commit as a chunk and frees a chunk only once
 * nothing in it is live; pages left live in mostly dead chunks are moved out only by H2's background writer, which
 * runs only with a write delay, and Paddock needs none (a commit is in the file when it returns). Without it the
 * file only grew (a heartbeat a second for each of 100 agents: 21 MB to 439 MB in 10 minutes, kept after a clean
 * stop).
 *
 * <p>Every {@link #PERIOD_MS} ms, two steps of H2's own compaction:
 * <ul>
 * <li>While live data fills less than {@link #FILL_RATE} % of the chunks, at most {@link #REWRITE_BYTES} of live
 *     pages are rewritten out of the sparsest chunks ({@code MVStore.compact}): those chunks then hold nothing live
 *     and their space is used again, so the file stops growing. Commits wait for it a few milliseconds.</li>
 * <li>The file shrinks ({@code compactFile}: chunks move to its front, for at most {@link #MAX_COMPACT_MS} ms, the
 *     store's retention time kept) only when nothing was committed for a whole period, or when the file passed
 *     {@link #CEILING_BYTES}: every commit waits while chunks move (hundreds of milliseconds on a busy store), so a
 *     hook's decision would wait too.</li>
 * </ul>
 * Measured: {@code docs/decisions/0007-how-the-store-is-opened-and-recovered.md}.
 */
final class StoreMaintenance implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreMaintenance.class);
    /** How often the store is looked at, in ms. */
    static final long PERIOD_MS = 10_000;
    /** Below this fill rate (live data / chunks, or / file size, in %), chunks are rewritten or the file shrinks. */
    static final int FILL_RATE = 60;
    /** Most live data rewritten in one period, in bytes. */
    static final int REWRITE_BYTES = 4 << 20;
    /** Longest a shrink may take, in ms: commits wait for it. */
    static final int MAX_COMPACT_MS = 500;
    /** A file this large shrinks even while commits go on. */
    static final long CEILING_BYTES = 256L << 20;

    private final DataSource pool;
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("store-maintenance"));
    /** The store's version after the last period's own work; -1 before the first. */
    private long lastVersion = -1;

    StoreMaintenance(DataSource pool) {
        this.pool = pool;
    }

    void start() {
        timer.scheduleWithFixedDelay(() -> maintain(false), PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** Both steps now, the shrink even while commits go on; returns the file's sizes before and after, or null. */
    long[] compactIfSparse() {
        return maintain(true);
    }

    /**
     * Rewrites sparse chunks, then shrinks the file when it is sparse and {@code now}, nothing was committed since
     * the last period, or the file passed the ceiling; returns the sizes when it shrank, else null.
     */
    synchronized long[] maintain(boolean now) {
        try (Connection c = pool.getConnection()) {
            MVStore store = mvStore(c);
            FileStore<?> file = store.getFileStore();
            if (file == null || store.isClosed()) {
                return null;
            }
            boolean quiet = store.getCurrentVersion() == lastVersion;
            if (file.getChunksFillRate() < FILL_RATE) {
                store.compact(FILL_RATE, REWRITE_BYTES);
            }
            long before = file.size();
            int fill = file.getFillRate();
            int chunks = file.getChunksFillRate();
            long[] sizes = null;
            if (Math.min(fill, chunks) < FILL_RATE && (now || quiet || before > CEILING_BYTES)) {
                int retention = store.getRetentionTime();
                try {
                    store.compactFile(MAX_COMPACT_MS);
                } finally {
                    store.setRetentionTime(retention);
                }
                sizes = new long[] {before, file.size()};
                LOG.info(
                        "Compacted the store: {} -> {} (file fill rate was {} %, chunks {} %)",
                        StoreErrors.size(before), StoreErrors.size(sizes[1]), fill, chunks);
            }
            lastVersion = store.getCurrentVersion();
            return sizes;
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Store compaction: {}", StoreErrors.firstLine(e.getMessage()));
            return null;
        }
    }

    /** The MVStore under a connection of the store (H2's engine classes: the JDBC API has no compaction). */
    private static MVStore mvStore(Connection c) throws SQLException {
        SessionLocal session = (SessionLocal) c.unwrap(JdbcConnection.class).getSession();
        return session.getDatabase().getStore().getMvStore();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
