package dev.paddock.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.DockerTests;
import dev.paddock.testing.PrivateDockerd;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The remote test engine ({@link PrivateDockerd#startTls()}) is what it claims to be: reached over TCP at its own
 * address, only with the client certificate made for it, and Paddock's Docker client speaks to it with that
 * certificate the way it would to a docker context over TLS.
 */
class TlsEngineTest {
    private static PrivateDockerd engine;

    @BeforeAll
    static void start() throws Exception {
        DockerTests.requireEngineWithGitImage();
        engine = PrivateDockerd.startTls();
    }

    @AfterAll
    static void stop() {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void answersOnlyWithItsClientCertificate() {
        assertThat(engine.host()).startsWith("tcp://10.231.").endsWith(":2376");
        assertThat(engine.docker("version", "--format", "{{.Server.Version}}").code())
                .isZero();
        DockerTests.Result plain =
                DockerTests.docker("-H", engine.host(), "version", "--format", "{{.Server.Version}}");
        assertThat(plain.code()).as("without TLS: %s", plain.out()).isNotZero();
        DockerTests.Result noCert = DockerTests.docker(
                "-H",
                engine.host(),
                "--tls",
                "--tlscacert",
                engine.tlsDir().resolve("ca.pem").toString(),
                "version",
                "--format",
                "{{.Server.Version}}");
        assertThat(noCert.code())
                .as("TLS without a client certificate: %s", noCert.out())
                .isNotZero();
    }

    @Test
    void paddocksClientReachesItWithTheContextsFiles() {
        try (DockerEngine client =
                new DockerEngine(Clock.systemUTC(), new DockerEndpoint(engine.host(), "test", engine.tlsDir(), null))) {
            EngineStatus status = client.check();
            assertThat(status.reachable()).as("%s", status.error()).isTrue();
        }
        try (DockerEngine noTls =
                new DockerEngine(Clock.systemUTC(), new DockerEndpoint(engine.host(), "test", null, null))) {
            assertThat(noTls.check().reachable()).isFalse();
        }
    }

    @Test
    void runsTheTestImageWithLimitsAndANetwork() throws Exception {
        engine.load(DockerTests.GIT_IMAGE);
        DockerTests.Result run = engine.docker(
                "run", "--rm", "--memory", "64m", DockerTests.GIT_IMAGE, "sh", "-c", "git --version && ip -4 addr");
        assertThat(run.code()).as("%s", run.out()).isZero();
        assertThat(run.out()).contains("git version").contains("eth0");
    }
}
