package dev.paddock.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docker CLI's choice of engine, from temporary home folders laid out as {@code docker context create}
 * leaves them ({@code ~/.docker/config.json} and {@code ~/.docker/contexts/meta/<sha256>/meta.json}).
 */
class DockerEndpointTest {
    @TempDir
    Path home;

    private void context(Path configDir, String name, String host) throws Exception {
        Path dir = configDir.resolve("contexts/meta").resolve(DockerEndpoint.sha256(name));
        Files.createDirectories(dir);
        Files.writeString(
                dir.resolve("meta.json"),
                "{\"Name\":\"" + name + "\",\"Metadata\":{}," + "\"Endpoints\":{\"docker\":{\"Host\":\"" + host
                        + "\",\"SkipTLSVerify\":false}}}");
    }

    private void currentContext(Path configDir, String name) throws Exception {
        Files.createDirectories(configDir);
        Files.writeString(configDir.resolve("config.json"), "{\"auths\":{},\"currentContext\":\"" + name + "\"}");
    }

    @Test
    void theContextFolderIsTheSha256OfItsNameAsTheDockerCliWritesIt() {
        // printf remote | sha256sum; printf default | sha256sum
        assertThat(DockerEndpoint.sha256("remote"))
                .isEqualTo("b71199ebd070b36beab7317920c2c2f1d777df8d05e5527d8458fda57cb17a7a");
        assertThat(DockerEndpoint.sha256("default"))
                .isEqualTo("37a8eec1ce19687d132fe29051dca629d164e2c4958ba141d5f4133a33f0688f");
    }

    @Test
    void withNothingSetItIsTheLocalSocket() {
        DockerEndpoint e = DockerEndpoint.resolve(Map.of(), home);

        assertThat(e).isEqualTo(new DockerEndpoint("unix:///var/run/docker.sock", "default socket", null, null));
    }

    @Test
    void theCurrentContextOfConfigJsonIsFollowed() throws Exception {
        Path docker = home.resolve(".docker");
        context(docker, "remote", "tcp://build-host:2375");
        currentContext(docker, "remote");

        DockerEndpoint e = DockerEndpoint.resolve(Map.of(), home);

        assertThat(e.host()).isEqualTo("tcp://build-host:2375");
        assertThat(e.source()).isEqualTo("context remote");
        assertThat(e.problem()).isNull();
        assertThat(e.describe()).isEqualTo("tcp://build-host:2375 (context remote)");
    }

    @Test
    void dockerContextWinsOverConfigJsonAndDockerHostWinsOverBoth() throws Exception {
        Path docker = home.resolve(".docker");
        context(docker, "remote", "tcp://build-host:2375");
        context(docker, "other", "unix:///run/other.sock");
        currentContext(docker, "remote");

        assertThat(DockerEndpoint.resolve(Map.of("DOCKER_CONTEXT", "other"), home)
                        .host())
                .isEqualTo("unix:///run/other.sock");
        DockerEndpoint viaHost =
                DockerEndpoint.resolve(Map.of("DOCKER_CONTEXT", "other", "DOCKER_HOST", "tcp://10.0.0.9:2376"), home);
        assertThat(viaHost.host()).isEqualTo("tcp://10.0.0.9:2376");
        assertThat(viaHost.source()).isEqualTo("DOCKER_HOST");
    }

    @Test
    void theDefaultContextAndAnEmptyDockerHostMeanTheLocalSocket() throws Exception {
        Path docker = home.resolve(".docker");
        currentContext(docker, "default");

        DockerEndpoint e = DockerEndpoint.resolve(Map.of("DOCKER_HOST", " "), home);

        assertThat(e.host()).isEqualTo(DockerEndpoint.DEFAULT_HOST);
        assertThat(e.problem()).isNull();
    }

    @Test
    void dockerConfigMovesTheConfigFolder() throws Exception {
        Path elsewhere = home.resolve("cfg");
        context(elsewhere, "ci", "tcp://ci:2375");
        currentContext(elsewhere, "ci");

        assertThat(DockerEndpoint.resolve(Map.of("DOCKER_CONFIG", elsewhere.toString()), home)
                        .host())
                .isEqualTo("tcp://ci:2375");
    }

    @Test
    void aContextWithTlsFilesUsesThem() throws Exception {
        Path docker = home.resolve(".docker");
        context(docker, "secure", "tcp://secure:2376");
        Path tls = docker.resolve("contexts/tls")
                .resolve(DockerEndpoint.sha256("secure"))
                .resolve("docker");
        Files.createDirectories(tls);

        assertThat(DockerEndpoint.resolve(Map.of("DOCKER_CONTEXT", "secure"), home)
                        .tlsDir())
                .isEqualTo(tls);
    }

    @Test
    void aNamedContextIsReadWhateverTheCurrentOneIs() throws Exception {
        Path docker = home.resolve(".docker");
        context(docker, "build", "tcp://build:2376");
        context(docker, "other", "tcp://other:2376");
        currentContext(docker, "other");
        Path tls = Files.createDirectories(docker.resolve("contexts/tls")
                .resolve(DockerEndpoint.sha256("build"))
                .resolve("docker"));

        DockerEndpoint build = DockerEndpoint.ofContext(Map.of("DOCKER_HOST", "tcp://ignored:1"), home, "build");

        assertThat(build.host()).isEqualTo("tcp://build:2376");
        assertThat(build.tlsDir()).isEqualTo(tls);
        assertThat(build.problem()).isNull();
        assertThat(DockerEndpoint.ofContext(Map.of(), home, "default").host()).isEqualTo(DockerEndpoint.DEFAULT_HOST);
        assertThat(DockerEndpoint.ofContext(Map.of(), home, "gone").problem()).contains("does not exist");
    }

    @Test
    void aMissingOrBrokenContextIsAProblemInWordsAndTheLocalSocketIsTried() throws Exception {
        Path docker = home.resolve(".docker");
        currentContext(docker, "gone");

        DockerEndpoint missing = DockerEndpoint.resolve(Map.of(), home);
        assertThat(missing.host()).isEqualTo(DockerEndpoint.DEFAULT_HOST);
        assertThat(missing.problem())
                .startsWith("the docker context gone (from config.json) does not exist: no ")
                .contains(DockerEndpoint.sha256("gone"));

        Path dir = docker.resolve("contexts/meta").resolve(DockerEndpoint.sha256("gone"));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("meta.json"), "{\"Name\":\"gone\",\"Endpoints\":{}}");
        assertThat(DockerEndpoint.resolve(Map.of(), home).problem())
                .startsWith("the docker context gone (from config.json) has no Endpoints.docker.Host in ");

        Files.writeString(docker.resolve("config.json"), "{not json");
        assertThat(DockerEndpoint.resolve(Map.of(), home).problem()).startsWith("cannot read ");
    }

    @Test
    void theEngineReportsTheEndpointAndWhereItCameFromAndTheContextProblem() throws Exception {
        Path docker = home.resolve(".docker");
        String sock = "unix://" + home.resolve("nobody.sock");
        context(docker, "local2", sock);
        currentContext(docker, "local2");
        try (DockerEngine engine = new DockerEngine(Clock.systemUTC(), DockerEndpoint.resolve(Map.of(), home))) {
            EngineStatus s = engine.check();

            assertThat(s.reachable()).isFalse();
            assertThat(s.endpoint()).isEqualTo(sock);
            assertThat(s.endpointText()).isEqualTo(sock + " (context local2)");
        }
        currentContext(docker, "missing");
        try (DockerEngine engine = new DockerEngine(
                Clock.systemUTC(),
                new DockerEndpoint(
                        sock,
                        "default socket",
                        null,
                        DockerEndpoint.resolve(Map.of(), home).problem()))) {
            assertThat(engine.check().error()).contains("the docker context missing (from config.json) does not exist");
        }
    }
}
