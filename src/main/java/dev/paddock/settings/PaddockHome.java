package dev.paddock.settings;

import dev.paddock.common.PaddockException;
import dev.paddock.common.PrivateFiles;
import dev.paddock.common.UsageException;
import dev.paddock.store.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The directory where Paddock keeps its state: the H2 database, the API token, the instance file
 * of the running panel or server, and the logs. With a store on a PostgreSQL server ({@link #store}: {@code --store
 * URL} or {@code PADDOCK_STORE}) the records are there instead of in the H2 file; everything else stays here.
 *
 * <p>Resolution order: {@code --home DIR}, then the {@code PADDOCK_HOME} environment variable,
 * then {@code ~/.paddock}.
 *
 * <p>Everything in it is its owner's alone: directories 700, files 600 ({@link PrivateFiles} at creation,
 * {@link HomePermissions} for a home an older Paddock left wider).
 */
public final class PaddockHome {
    /** Environment variable that moves the home directory. */
    public static final String ENV = "PADDOCK_HOME";
    /** Environment variable naming a store on a PostgreSQL server instead of the home's H2 file ({@link #store}). */
    public static final String STORE_ENV = "PADDOCK_STORE";

    private final Path dir;
    private final String store;

    private PaddockHome(Path dir, String store) {
        this.dir = dir;
        this.store = store;
    }

    /**
     * {@link #resolve(Path, Map)}, with the store on a server that {@code --store URL} names ({@code explicit
     * Store}), else the {@code PADDOCK_STORE} environment variable, else none (the home's H2 file).
     *
     * @throws UsageException when the store's URL is not a {@code jdbc:postgresql:} one (a usage error: the message
     *     names the URL without its parameters)
     */
    public static PaddockHome resolve(Path explicit, String explicitStore, Map<String, String> env)
            throws PaddockException {
        String store = explicitStore;
        String from = "--store";
        if (store == null && env.get(STORE_ENV) != null && !env.get(STORE_ENV).isBlank()) {
            store = env.get(STORE_ENV).strip();
            from = STORE_ENV;
        }
        if (store != null && !Database.isServerUrl(store)) {
            throw new UsageException(from + " takes a PostgreSQL URL (jdbc:postgresql://HOST:PORT/DATABASE?user=NAME),"
                    + " not " + (store.isBlank() ? "an empty one" : Database.redacted(store)) + ".");
        }
        String problem = store == null ? null : Database.serverUrlProblem(store, from.equals("--store"));
        if (problem != null) {
            throw new UsageException(problem);
        }
        return new PaddockHome(resolve(explicit, env).dir, store);
    }

    /**
     * Resolves the home directory, creating it when missing, and checks that it is writable.
     *
     * @param explicit the {@code --home} option, or null
     * @param env the process environment (passed in so tests can vary it)
     * @throws PaddockException when the directory cannot be created or written, with a message
     *     that names the directory and how to choose another one
     */
    public static PaddockHome resolve(Path explicit, Map<String, String> env) throws PaddockException {
        Path dir;
        if (explicit != null) {
            dir = explicit;
        } else if (env.get(ENV) != null && !env.get(ENV).isBlank()) {
            dir = Path.of(env.get(ENV));
        } else {
            dir = Path.of(System.getProperty("user.home"), ".paddock");
        }
        dir = dir.toAbsolutePath().normalize();
        try {
            if (!Files.exists(dir)) {
                createPrivate(dir);
            }
            PrivateFiles.createDirectories(dir.resolve("logs"));
            Path probe = Files.createTempFile(dir, ".write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new PaddockException(
                    "Paddock home " + dir + " is not writable (" + describe(e)
                            + "). Choose another directory with --home DIR or the " + ENV
                            + " environment variable.",
                    e);
        }
        return new PaddockHome(dir, null);
    }

    /**
     * Creates the home with mode 700 where the file system has POSIX permissions (its missing parents get the
     * usual mode): the store and the logs hold the commands agents ran.
     */
    private static void createPrivate(Path dir) throws IOException {
        if (dir.getParent() != null) {
            Files.createDirectories(dir.getParent());
        }
        PrivateFiles.createDirectories(dir);
    }

    private static String describe(Exception e) {
        String kind = e.getClass().getSimpleName().replace("Exception", "");
        return e.getMessage() == null ? kind : kind + ": " + e.getMessage();
    }

    /** The home directory itself (absolute, normalised). */
    public Path dir() {
        return dir;
    }

    /**
     * The URL of the store on a PostgreSQL server this Paddock uses instead of the H2 file of {@link #databaseBase},
     * or null (the H2 file). It may hold a password: show it through {@code Database.redacted}.
     */
    public String store() {
        return store;
    }

    /** H2 database path prefix ({@code paddock} → {@code paddock.mv.db} on disk). */
    public Path databaseBase() {
        return dir.resolve("paddock");
    }

    /** The file holding the API's bearer token, readable by its owner alone. */
    public Path tokenFile() {
        return dir.resolve("api-token");
    }

    /** The file where a running panel or server writes its API port and process id. */
    public Path instanceFile() {
        return dir.resolve("instance.json");
    }

    /** The file holding the port the API had at the last start, taken again at the next when it is free. */
    public Path apiPortFile() {
        return dir.resolve("api-port");
    }

    /** The file holding the home's identity ({@link #id()}). */
    public Path idFile() {
        return dir.resolve("home-id");
    }

    /**
     * This home's identity: 16 random hex digits, kept in {@code home-id} (owner-only), made on first use. It tells
     * this home's Docker containers ({@code paddock.home=<id>}) and merge test processes from those of any other
     * Paddock home on the same machine or engine. A file another Paddock on this home wrote a moment ago wins.
     *
     * @throws PaddockException when the file cannot be read or written, or holds something else
     */
    public String id() throws PaddockException {
        Path file = idFile();
        try {
            if (!Files.exists(file)) {
                byte[] raw = new byte[8];
                new java.security.SecureRandom().nextBytes(raw);
                Path tmp = Files.createTempFile(dir, ".home-id", ".tmp"); // 600 (the JDK's default for temp files)
                try {
                    Files.writeString(tmp, java.util.HexFormat.of().formatHex(raw) + "\n");
                    Files.createLink(file, tmp); // fails when another Paddock made it first: theirs is read below
                } catch (java.nio.file.FileAlreadyExistsException raced) {
                    // read theirs
                } finally {
                    Files.deleteIfExists(tmp);
                }
            }
            String id = Files.readString(file).strip();
            if (!id.matches("[0-9a-f]{16}")) {
                throw new PaddockException("The file " + file + " does not hold a Paddock home id (16 hex digits);"
                        + " delete it and Paddock makes a new one.");
            }
            return id;
        } catch (IOException | UnsupportedOperationException e) {
            throw new PaddockException("Cannot read or create " + file + ": " + e.getMessage(), e);
        }
    }

    /** Directory for log files. */
    public Path logDir() {
        return dir.resolve("logs");
    }

    @Override
    public String toString() {
        return dir.toString();
    }
}
