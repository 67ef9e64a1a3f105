package dev.paddock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.container.DockerEngine;
import dev.paddock.container.EngineStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * For tests against the real Docker engine: require it (a failure with {@code PADDOCK_REQUIRE_DOCKER=1}, as
 * in CI; a skip otherwise), make sure the test image with git exists (built by
 * {@code src/test/docker/build-test-image.sh}), and look at containers through the docker CLI, the way a
 * person would check what Paddock did.
 */
public final class DockerTests {
    /** The image with busybox and git the container-tier tests run in. */
    public static final String GIT_IMAGE = "paddock-test:git";

    private static final boolean REQUIRED = "1".equals(System.getenv("PADDOCK_REQUIRE_DOCKER"));

    private DockerTests() {}

    /** Fails (CI) or skips the test when no engine answers; builds the git test image when it is missing. */
    public static void requireEngineWithGitImage() {
        try (DockerEngine engine = new DockerEngine(Clock.systemUTC())) {
            EngineStatus status = engine.check();
            if (REQUIRED) {
                assertThat(status.reachable())
                        .as("PADDOCK_REQUIRE_DOCKER=1 but: %s", status.error())
                        .isTrue();
            }
            assumeTrue(status.reachable(), "no Docker engine here and PADDOCK_REQUIRE_DOCKER is not 1");
        }
        Result built = run(List.of(
                Path.of("src/test/docker/build-test-image.sh").toAbsolutePath().toString(), GIT_IMAGE));
        assertThat(built.code()).as("build-test-image.sh: %s", built.out()).isZero();
    }

    /** What a docker CLI call printed (stdout and stderr together) and its exit code. */
    public record Result(int code, String out) {}

    /** Runs {@code docker <args>}. */
    public static Result docker(String... args) {
        List<String> cmd = new ArrayList<>(List.of("docker"));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    /** {@code docker inspect <id>}: the container's JSON. */
    public static JsonNode inspect(String containerId) {
        Result r = docker("inspect", containerId);
        assertThat(r.code()).as("docker inspect %s: %s", containerId, r.out()).isZero();
        try {
            return Json.mapper().readTree(r.out()).get(0);
        } catch (IOException e) {
            throw new AssertionError("docker inspect printed no JSON: " + r.out(), e);
        }
    }

    /** Ids of every container (running or not) matching a {@code label=...} filter. */
    public static List<String> containers(String labelFilter) {
        Result r = docker("ps", "-aq", "--no-trunc", "--filter", "label=" + labelFilter);
        assertThat(r.code()).as("docker ps: %s", r.out()).isZero();
        return r.out().lines().filter(l -> !l.isBlank()).toList();
    }

    /** Removes every container matching a {@code label=...} filter (cleanup after a test). */
    public static void removeAll(String labelFilter) {
        for (String id : containers(labelFilter)) {
            docker("rm", "-f", id);
        }
    }

    private static Result run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + cmd);
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError("cannot run " + cmd + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: " + cmd, e);
        }
    }
}
