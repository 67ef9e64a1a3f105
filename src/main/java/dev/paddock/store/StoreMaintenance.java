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
 * Compacts the store file while Paddock runs. MVStore appends every commit as a chunk and frees a chunk only once
 * nothing in it is live; pages left live in mostly dead chunks are moved out only by H2's background writer, which
 * runs only with a write delay, and Paddock needs none (a commit is in the file when it returns). Without it the
 * file only grew (a heartbeat a second for each of 100 agents: 21 MB to 439 MB in 10 minutes, kept after a clean
 * stop). Every {@link #PERIOD_MS} ms, when live data fills less than {@link #FILL_RATE} % of the file, this
 * rewrites the sparse chunks and moves chunks to the front so the file shrinks (H2's {@code compactFile}, for at
 * most {@link #MAX_COMPACT_MS} ms, with the store's retention time kept).
 */
final class StoreMaintenance implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreMaintenance.class);
    /** How often the fill rate is looked at, in ms. */
    static final long PERIOD_MS = 30_000;
    /** Below this fill rate (live data / file size, in %), the file is compacted. */
    static final int FILL_RATE = 60;
    /** Longest a compaction may take, in ms: commits wait for it. */
    static final int MAX_COMPACT_MS = 500;

    private final DataSource pool;
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("store-maintenance"));

    StoreMaintenance(DataSource pool) {
        this.pool = pool;
    }

    void start() {
        timer.scheduleWithFixedDelay(this::compactIfSparse, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** Compacts the file when live data fills less than {@link #FILL_RATE} % of it; returns the sizes, or null. */
    long[] compactIfSparse() {
        try (Connection c = pool.getConnection()) {
            MVStore store = mvStore(c);
            FileStore<?> file = store.getFileStore();
            if (file == null || store.isClosed()) {
                return null;
            }
            long before = file.size();
            int fill = file.getFillRate();
            int chunks = file.getChunksFillRate();
            if (Math.min(fill, chunks) >= FILL_RATE) {
                return null;
            }
            int retention = store.getRetentionTime();
            try {
                store.compactFile(MAX_COMPACT_MS);
            } finally {
                store.setRetentionTime(retention);
            }
            long after = file.size();
            LOG.info(
                    "Compacted the store: {} -> {} (file fill rate was {} %, chunks {} %)",
                    StoreErrors.size(before), StoreErrors.size(after), fill, chunks);
            return new long[] {before, after};
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
