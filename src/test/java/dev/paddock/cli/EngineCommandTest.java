package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.cli.StatusCommandTest.Run;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.DockerTests;
import dev.paddock.testing.PrivateDockerd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock engine add|list|remove} in-process: the registry file, the one-line refusals of bad input, and
 * {@code local} always listed; a TLS engine of the test's own that answers, with a Paddock container running there.
 */
class EngineCommandTest {
    @TempDir
    Path tmp;

    private Run engine(String... args) {
        List<String> all = new ArrayList<>(List.of("--home", tmp.resolve("home").toString(), "engine"));
        all.addAll(List.of(args));
        return paddock(all.toArray(String[]::new));
    }

    private static String said(Run run) {
        return String.join(
                "\n", run.err().lines().filter(l -> l.startsWith("paddock:")).toList());
    }

    private Path tls(String... files) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("tls-" + files.length));
        for (String f : files) {
            Files.writeString(dir.resolve(f), "-----BEGIN CERTIFICATE-----\n");
        }
        return dir;
    }

    @Test
    void badInputIsRefusedInOneLine() throws Exception {
        Run ssh = engine("add", "build", "--host", "ssh://me@build");
        assertThat(ssh.exit()).as(ssh.describe()).isEqualTo(1);
        assertThat(said(ssh)).contains("no ssh:// transport").contains("--context");

        Run noTls = engine("add", "build", "--host", "tcp://10.0.0.2:2376");
        assertThat(said(noTls)).contains("needs --tls-dir");

        Run missing = engine(
                "add",
                "build",
                "--host",
                "tcp://10.0.0.2:2376",
                "--tls-dir",
                tls("ca.pem").toString());
        assertThat(said(missing)).contains("has no cert.pem");

        Run notDir = engine(
                "add",
                "build",
                "--host",
                "tcp://10.0.0.2:2376",
                "--tls-dir",
                tmp.resolve("nope").toString());
        assertThat(said(notDir)).contains("is not a folder");

        Run badName = engine("add", "Build!", "--context", "x");
        assertThat(said(badName)).contains("is not usable");

        Run context = engine("add", "ctx", "--context", "no-such-context");
        assertThat(said(context)).contains("does not exist");

        Run local = engine("add", "local", "--host", "unix:///var/run/docker.sock");
        assertThat(said(local)).contains("exists already");

        Run unknown = engine("remove", "nothere");
        assertThat(said(unknown)).contains("No Docker engine named nothere");
        for (Run r : List.of(ssh, noTls, missing, notDir, badName, context, local, unknown)) {
            assertThat(said(r).lines().count()).as(r.describe()).isEqualTo(1);
            assertThat(r.exit()).as(r.describe()).isEqualTo(1);
        }
    }

    @Test
    void addedEnginesAreListedWithLocalFirst() throws Exception {
        Path dir = tls("ca.pem", "cert.pem", "key.pem");
        Run add = engine("add", "far", "--host", "tcp://127.0.0.1:9", "--tls-dir", dir.toString(), "--label", "gpu=no");
        assertThat(add.exit()).as(add.describe()).isZero();
        assertThat(add.out()).contains("Engine far added: tcp://127.0.0.1:9");
        assertThat(Files.readString(tmp.resolve("home").resolve("engines.json")))
                .contains("\"far\"", "tcp://127.0.0.1:9", "\"gpu\" : \"no\"");

        Run list = engine("list", "--json");
        assertThat(list.exit()).as(list.describe()).isZero();
        JsonNode engines = list.json().get("engines");
        assertThat(engines).hasSize(2);
        assertThat(engines.get(0).get("name").asText()).isEqualTo("local");
        assertThat(engines.get(0).get("remote").asBoolean()).isFalse();
        JsonNode far = engines.get(1);
        assertThat(far.get("name").asText()).isEqualTo("far");
        assertThat(far.get("remote").asBoolean()).isTrue();
        assertThat(far.get("healthy").asBoolean()).isFalse();
        assertThat(far.get("error").asText()).isNotBlank();

        Run text = engine("list");
        assertThat(text.out()).startsWith("NAME").contains("far", "down", "tcp://127.0.0.1:9 {gpu=no}");

        Run refused = engine("remove", "far");
        assertThat(said(refused))
                .contains("Cannot tell whether sandboxes run on engine far")
                .contains("--force");
        Run forced = engine("remove", "far", "--force");
        assertThat(forced.exit()).as(forced.describe()).isZero();
        assertThat(engine("list", "--json").json().get("engines")).hasSize(1);
    }

    @Test
    void aTlsEngineIsListedWithItsLoadAndStaysWhileASandboxRunsThere() throws Exception {
        DockerTests.requireEngineWithGitImage();
        try (PrivateDockerd far = PrivateDockerd.startTls()) {
            far.load("paddock-test:busybox");
            Run add = engine(
                    "add",
                    "far",
                    "--host",
                    far.host(),
                    "--tls-dir",
                    far.tlsDir().toString());
            assertThat(add.exit()).as(add.describe()).isZero();
            String homeId = PaddockHome.resolve(tmp.resolve("home"), Map.of()).id();
            DockerTests.Result run = far.docker(
                    "run",
                    "-d",
                    "--cpus",
                    "0.5",
                    "--memory",
                    "128m",
                    "--label",
                    "paddock.sandbox=busy-20261208-001",
                    "--label",
                    "paddock.home=" + homeId,
                    "paddock-test:busybox",
                    "sleep",
                    "600");
            assertThat(run.code()).as(run.out()).isZero();

            Run list = engine("list", "--json");
            assertThat(list.exit()).as(list.describe()).isZero();
            JsonNode f = list.json().get("engines").get(1);
            assertThat(f.get("healthy").asBoolean()).as(list.out()).isTrue();
            assertThat(f.get("version").asText()).isNotBlank();
            assertThat(f.get("cpus").asInt()).isPositive();
            assertThat(f.get("paddockContainersRunning").asInt()).isEqualTo(1);
            assertThat(f.get("freeCpus").asDouble()).isEqualTo(f.get("cpus").asInt() - 0.5);
            assertThat(f.get("freeMemoryBytes").asLong())
                    .isEqualTo(f.get("memoryBytes").asLong() - 128L * 1024 * 1024);
            assertThat(engine("list").out()).containsPattern("far +up ");

            Run refused = engine("remove", "far");
            assertThat(refused.exit()).isEqualTo(1);
            assertThat(said(refused)).contains("runs sandboxes busy-20261208-001");
            far.docker("rm", "-f", run.out().strip());
            Run removed = engine("remove", "far");
            assertThat(removed.exit()).as(removed.describe()).isZero();
        }
    }
}
