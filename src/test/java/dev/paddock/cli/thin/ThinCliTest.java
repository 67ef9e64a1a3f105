package dev.paddock.cli.thin;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.paddock.Paddock;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thin client against a real Paddock ({@link BrokerRig}: store, supervisor, API) with a repository, a linked
 * worktree and a running sandbox: it prints what the full CLI prints, byte for byte; it leaves everything else to the
 * full CLI (no Paddock, a refusal, an answer that is not a rendered one); and a fresh JVM answers without loading
 * picocli, Jackson, logging or JavaFX.
 */
class ThinCliTest {
    @TempDir
    static Path shared;

    private static BrokerRig rig;
    private static TempRepo repo;
    private static Path linked;

    /** Exit code and the bytes printed on stdout and stderr. */
    record Run(int exit, byte[] out, String err) {
        String text() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    @BeforeAll
    static void startPaddock() throws Exception {
        rig = BrokerRig.start(shared.resolve("home"));
        repo = TempRepo.init(shared.resolve("Répo with space"));
        linked = repo.addWorktree(shared.resolve("wt-login"), "feature/login");
        rig.runningSandbox(repo, "thin client: list me");
    }

    @AfterAll
    static void stopPaddock() {
        rig.close();
    }

    @Test
    void eachCommandPrintsWhatTheFullCliPrintsByteForByte() {
        String home = rig.home().dir().toString();
        List<String[]> commands = List.of(
                new String[] {"--home", home, "status", "--repo", repo.dir().toString(), "--json"},
                new String[] {"--home", home, "status", "--repo", repo.dir().toString()},
                new String[] {"--home=" + home, "status", "--json", "--repo=" + linked.resolve("README.md")},
                new String[] {
                    "--home", home, "sandbox", "list", "--repo", repo.dir().toString()
                },
                new String[] {"--home", home, "sandbox", "list", "--json", "--repo", linked.toString()},
                new String[] {"--version"},
                new String[] {"-V"});
        for (String[] args : commands) {
            Run thin = thin(args);
            Run full = full(args);
            assertThat(thin.exit()).as(String.join(" ", args)).isZero();
            assertThat(full.exit())
                    .as(String.join(" ", args) + ": " + full.err())
                    .isZero();
            assertThat(withoutSnapshotTime(thin.text()))
                    .as(String.join(" ", args))
                    .isEqualTo(withoutSnapshotTime(full.text()));
            assertThat(thin.out().length).as(String.join(" ", args)).isGreaterThan(20);
        }
        // The table has a row for the running sandbox, so the comparison above covered one.
        assertThat(thin("--home", home, "sandbox", "list", "--repo", repo.dir().toString())
                        .text()
                        .lines())
                .hasSize(2)
                .last()
                .asString()
                .contains("running");
    }

    @Test
    void withoutARunningPaddockTheFullCliAnswers() throws Exception {
        Path emptyHome = Files.createDirectories(shared.resolve("no-paddock-home"));
        String[] args = {
            "--home",
            emptyHome.toString(),
            "sandbox",
            "list",
            "--repo",
            repo.dir().toString()
        };

        assertThat(thin(args).exit()).isEqualTo(ThinCli.NOT_ANSWERED);
        assertThat(thin(args).out()).isEmpty();
        Run run = capture(() -> Paddock.run(args));
        assertThat(run.exit()).as(run.err()).isZero();
        // this home's store, opened by the full CLI
        assertThat(run.text())
                .isEqualTo("No open sandboxes in " + repo.dir().toAbsolutePath().normalize() + ".\n");
    }

    @Test
    void aRefusalOrAnUnknownRepositoryIsLeftToTheFullCli() throws Exception {
        String home = rig.home().dir().toString();
        Path notARepo = Files.createDirectories(shared.resolve("not-a-repo"));
        String[] unknown = {"--home", home, "status", "--repo", notARepo.toString()};
        assertThat(thin(unknown).exit()).isEqualTo(ThinCli.NOT_ANSWERED);
        Run full = capture(() -> Paddock.run(unknown));
        assertThat(full.exit()).isEqualTo(1);
        assertThat(full.err()).startsWith("paddock: ");

        // Another home whose instance file names this (live) process and this Paddock's port, with a wrong token.
        Path other = Files.createDirectories(shared.resolve("wrong-token-home"));
        Files.writeString(other.resolve("instance.json"), instanceJson(rig.port()));
        Files.writeString(other.resolve("api-token"), "not-the-token\n");
        String[] refused = {
            "--home", other.toString(), "status", "--json", "--repo", repo.dir().toString()
        };
        assertThat(thin(refused).exit()).isEqualTo(ThinCli.NOT_ANSWERED);
        assertThat(thin(refused).out()).isEmpty();
        Run byFull = capture(() -> Paddock.run(refused));
        assertThat(byFull.exit()).isEqualTo(1);
        assertThat(byFull.err()).startsWith("paddock: ").doesNotContain("not-the-token");
    }

    @Test
    void anAnswerThatIsNotARenderedOneIsNotPrinted() throws Exception {
        // An older Paddock (or anything else on the port) answers 200 with its JSON and no render header.
        HttpServer older = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        older.createContext("/", ex -> {
            byte[] body = "{\"sandboxes\":[]}".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        older.start();
        try {
            Path home = Files.createDirectories(shared.resolve("older-home"));
            Files.writeString(
                    home.resolve("instance.json"),
                    instanceJson(older.getAddress().getPort()));
            Files.writeString(home.resolve("api-token"), "some-token\n");
            Run run = thin(
                    "--home",
                    home.toString(),
                    "sandbox",
                    "list",
                    "--repo",
                    repo.dir().toString());
            assertThat(run.exit()).isEqualTo(ThinCli.NOT_ANSWERED);
            assertThat(run.out()).isEmpty();
        } finally {
            older.stop(0);
        }
    }

    @Test
    void theThinClientIsOffWithPaddockThinCliOff() {
        String[] args = {
            "--home",
            rig.home().dir().toString(),
            "status",
            "--repo",
            repo.dir().toString()
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = ThinCli.answer(args, Map.of(ThinCli.ENV, "off"), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(ThinCli.NOT_ANSWERED);
        assertThat(out.size()).isZero();
    }

    /**
     * A fresh JVM, started as the launcher starts Paddock (its main class), answers each command without loading a
     * class of picocli, Jackson, SLF4J, Logback, JavaFX or docker-java, and prints what a fresh JVM with
     * {@code PADDOCK_THIN_CLI=off} prints; both in a time zone other than this JVM's, which the status's event times
     * are shown in.
     */
    @Test
    void aFreshJvmAnswersWithoutLoadingTheLibraries() throws Exception {
        String home = rig.home().dir().toString();
        String at = repo.dir().toString();
        for (String[] args : List.of(
                new String[] {"--home", home, "status", "--json", "--repo", at},
                new String[] {"--home", home, "status", "--repo", at},
                new String[] {"--home", home, "sandbox", "list", "--repo", at},
                new String[] {"--version"})) {
            Path log = Files.createTempFile(shared, "classes-", ".log");
            byte[] thin = freshJvm(args, Map.of(), "-Xlog:class+load=info:file=" + log);
            byte[] full = freshJvm(args, Map.of(ThinCli.ENV, "off"), "-Xshare:auto");

            String loaded = Files.readString(log);
            assertThat(loaded).as(String.join(" ", args)).contains("dev.paddock.cli.thin.ThinCli");
            for (String library : List.of(
                    " picocli.",
                    " com.fasterxml.",
                    " org.slf4j.",
                    " ch.qos.logback.",
                    " javafx.",
                    " com.github.dockerjava.",
                    " dev.paddock.cli.PaddockCommand ")) {
                assertThat(loaded)
                        .as(String.join(" ", args) + " loads" + library)
                        .doesNotContain(library);
            }
            assertThat(withoutSnapshotTime(new String(thin, StandardCharsets.UTF_8)))
                    .as(String.join(" ", args))
                    .isEqualTo(withoutSnapshotTime(new String(full, StandardCharsets.UTF_8)));
            if (args.length == 5 && args[2].equals("status")) {
                // An event's time, in the zone of the command (UTC+05:30), not of the running Paddock.
                assertThat(new String(thin, StandardCharsets.UTF_8))
                        .containsPattern("\n  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  ");
            }
        }
    }

    /** The stdout of Paddock's main class run in a new JVM in the repository, in the zone Asia/Kolkata. */
    private static byte[] freshJvm(String[] args, Map<String, String> env, String jvmOption) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto",
                "-XX:TieredStopAtLevel=1",
                jvmOption,
                "-cp",
                System.getProperty("java.class.path"),
                Paddock.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb =
                new ProcessBuilder(cmd).directory(repo.dir().toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("LC_ALL", "C.UTF-8");
        pb.environment().put("TZ", "Asia/Kolkata");
        pb.environment().remove(ThinCli.ENV);
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", args)).isZero();
        return out;
    }

    @Test
    void onlyTheCommandLinesItKnowsAreRead() {
        assertThat(ThinArgs.parse("status")).isEqualTo(new ThinArgs(ThinArgs.What.STATUS, null, null, false));
        assertThat(ThinArgs.parse("--home", "/h", "sandbox", "list", "--json", "--repo=/r"))
                .isEqualTo(new ThinArgs(ThinArgs.What.SANDBOXES, Path.of("/h"), Path.of("/r"), true));
        for (String[] args : List.<String[]>of(
                new String[] {},
                new String[] {"--help"},
                new String[] {"status", "-h"},
                new String[] {"status", "--json", "--json"},
                new String[] {"--repo", "/r", "status"},
                new String[] {"status", "--repo"},
                new String[] {"status", "--repo", "--json"},
                new String[] {"status", "--repo="},
                new String[] {"--home", "/a", "--home", "/b", "status"},
                new String[] {"status", "--home", "/h"},
                new String[] {"sandbox", "show", "x"},
                new String[] {"sandbox", "list", "extra"},
                new String[] {"--version", "status"},
                new String[] {"serve"},
                new String[] {"status", "--repo", "/a", "--repo", "/b"})) {
            assertThat(ThinArgs.parse(args)).as(String.join(" ", args)).isNull();
        }
    }

    private static String instanceJson(int port) {
        return "{\"pid\":" + ProcessHandle.current().pid() + ",\"port\":" + port
                + ",\"mode\":\"serve\",\"startedAt\":\"" + Instant.now() + "\"}";
    }

    /** The snapshot's own time ({@code generatedAt}) differs from one answer to the next. */
    private static String withoutSnapshotTime(String text) {
        return text.replaceAll("\"generatedAt\" : \"[^\"]*\"", "\"generatedAt\" : \"…\"");
    }

    private static Run thin(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = ThinCli.answer(args, Map.of(), new PrintStream(out, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toByteArray(), "");
    }

    private static Run full(String... args) {
        return capture(() -> Paddock.runFull(args));
    }

    /** Runs {@code call} with System.out and System.err captured (picocli takes them when the command line is built). */
    private static synchronized Run capture(java.util.function.IntSupplier call) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = call.getAsInt();
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        return new Run(exit, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }
}
