package dev.paddock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of the tests' own: {@code initdb} in a temporary folder, {@code pg_ctl start} on a free
 * loopback port (its unix socket in that folder too), password login for one user. One server per test JVM,
 * started by the first {@link #newDatabase} and stopped (its folder removed) when the JVM exits; each call makes an
 * empty database of its own, so tests do not see each other's rows.
 *
 * <p>PostgreSQL refuses to run as root: as root the server runs as the {@code postgres} user (the Debian package
 * makes it) through {@code runuser}, and the folder is handed to that user. Without the binaries (Debian keeps them in
 * {@code /usr/lib/postgresql/N/bin}) or when the server does not start, the test fails when
 * {@code PADDOCK_REQUIRE_POSTGRES=1} (as in CI), else it is skipped.
 */
public final class PrivatePostgres {
    private static final boolean REQUIRED = "1".equals(System.getenv("PADDOCK_REQUIRE_POSTGRES"));
    private static final String USER = "paddock";
    private static final long START_TIMEOUT_S = 60;
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static PrivatePostgres server;
    private static String startFailure;

    private final Path dir;
    private final Path bin;
    private final String password;
    private final Optional<String> runAs;
    private final int port;
    private final long startMillis;

    private PrivatePostgres(Path dir, Path bin, String password, Optional<String> runAs, int port, long startMillis) {
        this.dir = dir;
        this.bin = bin;
        this.password = password;
        this.runAs = runAs;
        this.port = port;
        this.startMillis = startMillis;
    }

    /** Where a database of the private server is reached, and as whom. */
    public record Db(String url, String user, String password) {
        /** The URL with the user and password in it, as {@code --store} would take it. */
        public String urlWithLogin() {
            return url + "?user=" + user + "&password=" + password;
        }

        /** A plain JDBC connection to it (for checks a test makes besides Paddock's own). */
        public Connection connect() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }
    }

    /**
     * A new, empty database on the private server (started on first use). Fails (with {@code
     * PADDOCK_REQUIRE_POSTGRES=1}) or skips the test when no server can be started.
     */
    public static Db newDatabase() throws SQLException {
        PrivatePostgres s = server();
        String name = "t" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        try (Connection c = DriverManager.getConnection(s.url("postgres"), USER, s.password);
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        }
        return new Db(s.url(name), USER, s.password);
    }

    /** How long the shared server took to start (initdb and pg_ctl), in ms. */
    public static long startMillis() throws SQLException {
        return server().startMillis;
    }

    private String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    private static synchronized PrivatePostgres server() {
        if (server == null && startFailure == null) {
            try {
                server = start();
                Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "private-postgres-stop"));
            } catch (IOException | RuntimeException e) {
                startFailure = e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                startFailure = "interrupted";
            }
        }
        if (REQUIRED) {
            assertThat(startFailure)
                    .as("PADDOCK_REQUIRE_POSTGRES=1 but no PostgreSQL server could be started: %s", startFailure)
                    .isNull();
        }
        assumeTrue(startFailure == null, "no PostgreSQL server here: " + startFailure);
        return server;
    }

    private static PrivatePostgres start() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Path bin = binaries()
                .orElseThrow(
                        () -> new IOException(
                                "initdb and pg_ctl are neither on the PATH nor in /usr/lib/postgresql/N/bin (apt-get install postgresql)"));
        boolean root = "root".equals(System.getProperty("user.name"));
        Optional<String> runAs = root ? Optional.of("postgres") : Optional.empty();
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "ppg");
        String password = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        Files.writeString(dir.resolve("pw"), password + "\n", StandardCharsets.UTF_8);
        if (runAs.isPresent()) {
            UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
            try {
                Files.setOwner(dir, users.lookupPrincipalByName(runAs.get()));
                Files.setOwner(dir.resolve("pw"), users.lookupPrincipalByName(runAs.get()));
            } catch (IOException e) {
                throw new IOException(
                        "running as root, but there is no user " + runAs.get() + " to run PostgreSQL as: "
                                + e.getMessage(),
                        e);
            }
        }
        int port = freePort();
        PrivatePostgres s = new PrivatePostgres(dir, bin, password, runAs, port, 0);
        s.run(
                "initdb",
                "-D",
                dir.resolve("data").toString(),
                "-U",
                USER,
                "--pwfile=" + dir.resolve("pw"),
                "--auth-host=scram-sha-256",
                "--auth-local=scram-sha-256",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync");
        s.run(
                "pg_ctl",
                "-D",
                dir.resolve("data").toString(),
                "-l",
                dir.resolve("log").toString(),
                "-w",
                "-t",
                String.valueOf(START_TIMEOUT_S),
                // Throwaway data: nothing needs to survive a crash, so no fsync.
                "-o",
                "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off"
                        + " -c synchronous_commit=off -c full_page_writes=off",
                "start");
        return new PrivatePostgres(dir, bin, password, runAs, port, (System.nanoTime() - t0) / 1_000_000);
    }

    private void stop() {
        try {
            run("pg_ctl", "-D", dir.resolve("data").toString(), "-m", "immediate", "-w", "stop");
        } catch (IOException | InterruptedException e) {
            // the folder goes anyway; a server left running dies with its data gone
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // temporary folder: left for the system to clean
        }
    }

    /** Runs a PostgreSQL program (as {@link #runAs} when set), failing with its output when it exits non-zero. */
    private void run(String program, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        runAs.ifPresent(u -> cmd.addAll(List.of("runuser", "-u", u, "--")));
        cmd.add(bin.resolve(program).toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(START_TIMEOUT_S + 30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(program + " did not finish");
        }
        if (p.exitValue() != 0) {
            String log = Files.isReadable(dir.resolve("log"))
                    ? "\nserver log:\n" + Files.readString(dir.resolve("log"))
                    : "";
            throw new IOException(
                    program + " exited with " + p.exitValue() + ": " + new String(out, StandardCharsets.UTF_8) + log);
        }
    }

    /** The folder holding initdb and pg_ctl: from the PATH, else Debian's newest /usr/lib/postgresql/N/bin. */
    private static Optional<Path> binaries() throws IOException {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "initdb")) && Files.isExecutable(Path.of(d, "pg_ctl"))) {
                return Optional.of(Path.of(d));
            }
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(debian)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(debian)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparingInt(PrivatePostgres::major));
        }
    }

    private static int major(Path bin) {
        try {
            return Integer.parseInt(bin.getParent().getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
