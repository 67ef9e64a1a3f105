package dev.paddock.testing;

import dev.paddock.store.Database;
import java.nio.file.Path;

/**
 * The databases a store test can run on, for {@code @ParameterizedClass @EnumSource(StoreKind.class)}: the H2 file
 * (the default store) and a fresh database on the tests' private PostgreSQL server ({@link PrivatePostgres}, which
 * fails or skips the test as it says when no server can be started).
 */
public enum StoreKind {
    /** An H2 file in the given folder. */
    H2 {
        @Override
        public Database open(Path dir) throws Exception {
            return Database.open(dir.resolve("paddock"));
        }
    },
    /** A new database on the private PostgreSQL server; the folder is not used. */
    POSTGRES {
        @Override
        public Database open(Path dir) throws Exception {
            return Database.openServer(PrivatePostgres.newDatabase().urlWithLogin());
        }
    };

    /** Opens a new, migrated store of this kind. */
    public abstract Database open(Path dir) throws Exception;
}
