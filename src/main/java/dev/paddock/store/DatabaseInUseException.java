package dev.paddock.store;

/**
 * The H2 file is held by another process (another Paddock panel or {@code paddock serve}). H2's
 * file lock allows one process per database file.
 */
public class DatabaseInUseException extends StoreException {
    private static final long serialVersionUID = 1L;

    public DatabaseInUseException(String message, Throwable cause) {
        super(message, cause);
    }
}
