package dev.paddock.store;

/**
 * A store on a database server is owned by another Paddock whose lease is live ({@link StoreLease}): the server's
 * counterpart of {@link DatabaseInUseException}, which it does not extend (a live {@code instance.json} of this home does not name the holder). The message names the holder (host, pid, since when).
 */
public class StoreOwnedException extends StoreException {
    private static final long serialVersionUID = 1L;

    public StoreOwnedException(String message) {
        super(message, null);
    }
}
