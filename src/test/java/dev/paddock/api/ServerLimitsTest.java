package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The test JVM starts with the JDK HTTP server's limits already set (the surefire configuration in pom.xml), so that
 * a test's own server made before Paddock's API cannot leave the API without them; those values are Paddock's.
 */
class ServerLimitsTest {
    @Test
    void theTestJvmsServerLimitsAreTheApisOwn() {
        ServerLimits.PROPERTIES.forEach(
                (name, value) -> assertThat(System.getProperty(name)).as(name).isEqualTo(value));
    }
}
