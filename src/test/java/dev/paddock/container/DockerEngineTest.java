package dev.paddock.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Docker engine check behind the status bar, against the real engine (CI starts one and sets
 * {@code PADDOCK_REQUIRE_DOCKER=1}, which turns a missing engine into a failure) and against an
 * address where no engine listens.
 */
class DockerEngineTest {
    private static final boolean REQUIRED = "1".equals(System.getenv("PADDOCK_REQUIRE_DOCKER"));

    @TempDir
    Path temp;

    @Test
    void theRunningEngineAnswersWithItsVersion() {
        try (DockerEngine engine = new DockerEngine(Clock.systemUTC())) {
            EngineStatus status = engine.check();
            if (REQUIRED) {
                assertThat(status.reachable())
                        .as("PADDOCK_REQUIRE_DOCKER=1 but: %s", status.error())
                        .isTrue();
            }
            assumeTrue(status.reachable() || REQUIRED, "no Docker engine here and PADDOCK_REQUIRE_DOCKER is not 1");
            assertThat(status.version()).isNotBlank();
            assertThat(status.error()).isNull();
            assertThat(status.summary()).isEqualTo("Docker " + status.version());
        }
    }

    @Test
    void anEngineThatIsNotThereIsAStatusWithTheReasonNotAnException() {
        String nowhere = "unix://" + temp.resolve("no-engine.sock");
        try (DockerEngine engine = new DockerEngine(Clock.systemUTC(), nowhere)) {
            EngineStatus status = engine.check();

            assertThat(status.reachable()).isFalse();
            assertThat(status.endpoint()).isEqualTo(nowhere);
            assertThat(status.error()).isNotBlank();
            assertThat(status.summary()).isEqualTo("Docker unreachable");
        }
    }
}
