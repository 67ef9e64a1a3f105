package dev.paddock.container;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An engine given by a docker context is held to what an engine given by address is: TLS on tcp://. */
class EngineRegistryContextTest {
    @TempDir
    Path tmp;

    private String savedHome;

    @BeforeEach
    void setUp() {
        savedHome = System.getProperty("user.home");
        System.setProperty("user.home", tmp.toString());
    }

    @AfterEach
    void tearDown() {
        System.setProperty("user.home", savedHome);
    }

    private void context(String name, String host) throws Exception {
        Path meta = tmp.resolve(".docker/contexts/meta").resolve(DockerEndpoint.sha256(name));
        Files.createDirectories(meta);
        Files.writeString(
                meta.resolve("meta.json"),
                "{\"Name\":\"" + name + "\",\"Endpoints\":{\"docker\":{\"Host\":\"" + host + "\"}}}");
    }

    @Test
    void aContextOnTcpWithoutTlsIsRefusedLikeAnAddressWithoutTls() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("DOCKER_CONFIG") == null
                || System.getenv("DOCKER_CONFIG").isBlank());
        context("plain", "tcp://127.0.0.1:2375");

        assertThatThrownBy(() -> EngineRegistry.validate(new EngineEntry("plain", null, null, "plain", Map.of())))
                .isInstanceOf(ContainerException.class)
                .hasMessageContaining("without TLS");
        assertThatThrownBy(() ->
                        EngineRegistry.validate(new EngineEntry("plain", "tcp://127.0.0.1:2375", null, null, Map.of())))
                .isInstanceOf(ContainerException.class)
                .hasMessageContaining("without TLS");
    }
}
