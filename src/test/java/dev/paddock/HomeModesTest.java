package dev.paddock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.api.InstanceFile;
import dev.paddock.common.Json;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The modes of a Paddock home's files after a real {@code paddock serve} (its own logging, a sandbox run): a new
 * home is owner-only from the start; a home left readable by others is made owner-only at the next start, and the
 * log says what changed.
 */
class HomeModesTest {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path tmp;

    @Test
    void aNewHomeHasOnlyOwnerOnlyFilesWhileServeRunsASandboxAndAfterItStops() throws Exception {
        Path home = tmp.resolve("home");
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        Map<String, String> running;
        try (ChildJvm serve = serve(home)) {
            String id = runSandbox(home, repo);
            running = modes(home);
            call(home, "POST", "/v1/sandboxes/" + id + "/stop", null);
            assertThat(running)
                    .containsKeys(
                            "paddock.mv.db",
                            "api-token",
                            "instance.json",
                            "logs/paddock.log",
                            "logs/sandboxes/" + id + ".log",
                            "bin/paddock-hook-claude");
        }
        Map<String, String> stopped = modes(home);
        System.out.println("modes of a new home while serve runs: " + running);
        System.out.println("modes after it stopped: " + stopped);

        assertOwnerOnly(running);
        assertOwnerOnly(stopped);
        assertThat(Files.readString(home.resolve("logs/paddock.log")))
                .as("nothing needed tightening")
                .doesNotContain("Made the Paddock home");
    }

    @Test
    void aHomeLeftReadableByOthersIsMadeOwnerOnlyAtTheNextStartAndTheLogSaysWhat() throws Exception {
        Path home = tmp.resolve("home");
        TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
        String id;
        try (ChildJvm serve = serve(home)) {
            id = runSandbox(home, repo);
            call(home, "POST", "/v1/sandboxes/" + id + "/stop", null);
        }
        // What an earlier Paddock left (its umask 022): the store, logs and instance file 644, directories 755.
        Files.writeString(home.resolve("policy.json"), "{}");
        Files.writeString(home.resolve("policy.json.bak"), "{}");
        Files.writeString(home.resolve("ui.properties"), "theme=dark\n");
        Files.writeString(home.resolve("notes.txt"), "not Paddock's\n");
        try (Stream<Path> all = Files.walk(home)) {
            for (Path p : all.toList()) {
                boolean script = p.startsWith(home.resolve("bin")) && Files.isRegularFile(p);
                Files.setPosixFilePermissions(
                        p, PosixFilePermissions.fromString(Files.isDirectory(p) || script ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }

        try (ChildJvm serve = serve(home)) {
            Map<String, String> after = modes(home);
            System.out.println("modes after the start on a loosened home: " + after);

            assertThat(after.remove("notes.txt"))
                    .as("a file that is not Paddock's is left alone")
                    .isEqualTo("644");
            assertOwnerOnly(after);
            assertThat(after).containsKeys("policy.json", "policy.json.bak", "ui.properties");
            String log = Files.readString(home.resolve("logs/paddock.log"));
            assertThat(log)
                    .contains(
                            "Made the Paddock home " + home + " owner-only",
                            "755 → 700 " + home + ";",
                            "644 → 600 " + home.resolve("paddock.mv.db"),
                            "644 → 600 " + home.resolve("api-token"),
                            "644 → 600 " + home.resolve("logs/sandboxes/" + id + ".log"),
                            "755 → 700 " + home.resolve("bin/paddock-hook-claude"));
        }
    }

    /** Directories and scripts 700, every other file 600. */
    private static void assertOwnerOnly(Map<String, String> modes) {
        assertThat(modes)
                .isNotEmpty()
                .allSatisfy((path, mode) -> assertThat(mode)
                        .as(path)
                        .isEqualTo(path.endsWith("/") || path.startsWith("bin/") ? "700" : "600"));
    }

    /** Every entry of the home (directories end with "/"; the home itself is "./") and its mode, e.g. "600". */
    private static Map<String, String> modes(Path home) throws Exception {
        Map<String, String> modes = new TreeMap<>();
        try (Stream<Path> all = Files.walk(home)) {
            for (Path p : all.toList()) {
                String name = home.relativize(p).toString();
                boolean dir = Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
                modes.put(dir ? (name.isEmpty() ? "./" : name + "/") : name, octal(p));
            }
        }
        return modes;
    }

    /** The mode of {@code p} as three octal digits, e.g. "644". */
    private static String octal(Path p) throws Exception {
        String rwx = PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
        int mode = 0;
        for (int i = 0; i < 9; i++) {
            mode = mode << 1 | (rwx.charAt(i) == '-' ? 0 : 1);
        }
        return String.format("%03o", mode);
    }

    private ChildJvm serve(Path home) {
        ChildJvm serve = ChildJvm.startWithOwnLogging(
                tmp.resolve("serve-out"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve"));
        serve.awaitStdout("Paddock serving on", Duration.ofSeconds(90));
        return serve;
    }

    /** Creates a sandbox that prints a line and sleeps; waits until its log has the line. */
    private static String runSandbox(Path home, TempRepo repo) throws Exception {
        String body = Json.mapper()
                .createObjectNode()
                .put("repo", repo.dir().toString())
                .put("task", "Say hello")
                .put("command", "echo hello from the agent; sleep 300")
                .toString();
        HttpResponse<String> created = call(home, "POST", "/v1/sandboxes", body);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = Json.mapper().readTree(created.body()).get("id").asText();
        Path log = home.resolve("logs/sandboxes/" + id + ".log");
        BrokerRig.await("the agent's first line", () -> {
            try {
                return Files.exists(log) && Files.readString(log).contains("hello from the agent");
            } catch (java.io.IOException e) {
                return false;
            }
        });
        return id;
    }

    private static HttpResponse<String> call(Path home, String method, String path, String body) throws Exception {
        InstanceFile instance = InstanceFile.read(home.resolve("instance.json")).orElseThrow();
        String token = Files.readString(home.resolve("api-token")).strip();
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + instance.port() + path))
                .timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HTTP.send(r, HttpResponse.BodyHandlers.ofString());
    }
}
