package dev.paddock.store;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the store can write. H2 closes a database whose file could not be written (a full disk, an I/O error):
 * every later statement then fails with "The database has been closed". The first such failure is kept here, in
 * plain words, so {@code GET /v1/health} answers 503 with it instead of 200 while nothing can be recorded.
 *
 * <p>A store on a database server ({@link #ofServer}) has no file here: a failed statement there is the server's
 * (or the network's) and does not close Paddock's store, and the free space is the server's to watch.
 */
public final class StoreHealth {
    private static final Logger LOG = LoggerFactory.getLogger(StoreHealth.class);
    /** Below this much free space in the store's folder, the next commit may fail: reported as a problem. */
    static final long MIN_FREE_BYTES = 1024 * 1024;

    private final Path file;
    private final AtomicReference<String> failure = new AtomicReference<>();

    StoreHealth(Path file) {
        this.file = file;
    }

    /** The health of a store on a database server: no file, so never a problem this class can see. */
    static StoreHealth ofServer() {
        return new StoreHealth(null);
    }

    /** Notes a failed statement; one that left the store unusable makes {@link #problem} answer from now on. */
    void failed(SQLException e) {
        if (file == null || !StoreErrors.storeUnusable(e)) {
            return;
        }
        String why = StoreErrors.diskFull(e, file.getParent())
                ? StoreErrors.diskFullMessage(file.getParent(), MIN_FREE_BYTES)
                : "The store " + file + " cannot be written: " + StoreErrors.firstLine(e.getMessage())
                        + ". Records made from now on are lost until Paddock is restarted.";
        if (failure.compareAndSet(null, why)) {
            LOG.error("{}", why);
        }
    }

    /**
     * Why the store cannot write, if it cannot: a write failed and H2 closed the store, or the disk holding it has
     * less than {@link #MIN_FREE_BYTES} free. Empty while it can.
     */
    public Optional<String> problem() {
        String f = failure.get();
        if (f != null) {
            return Optional.of(f);
        }
        if (file != null && StoreErrors.freeBytes(file.getParent()) < MIN_FREE_BYTES) {
            return Optional.of(StoreErrors.diskFullMessage(file.getParent(), MIN_FREE_BYTES));
        }
        return Optional.empty();
    }
}
