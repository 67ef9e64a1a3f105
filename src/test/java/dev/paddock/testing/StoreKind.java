package dev.paddock.testing;

import dev.paddock.store.Database;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
    /** A database on the private PostgreSQL server: a new one for each folder, the same one again for it. */
    POSTGRES {
        @Override
        public Database open(Path dir) throws Exception {
            PrivatePostgres.Db db = DATABASES.get(dir);
            if (db == null) {
                db = PrivatePostgres.newDatabase();
                DATABASES.put(dir, db);
            }
            return Database.openServer(db.urlWithLogin());
        }
    };

    private static final Map<Path, PrivatePostgres.Db> DATABASES = new ConcurrentHashMap<>();

    /** Opens the migrated store of this kind for {@code dir} (H2: its file there), made when missing. */
    public abstract Database open(Path dir) throws Exception;
}
