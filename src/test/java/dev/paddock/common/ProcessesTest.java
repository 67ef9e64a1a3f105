package dev.paddock.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Paddock's helper processes do not inherit the variables that may hold its store's password. */
class ProcessesTest {
    @Test
    void aHelperProcessDoesNotSeeTheStoreUrl() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("env").redirectInput(Processes.NO_INPUT);
        pb.environment().put("PADDOCK_STORE", "jdbc:postgresql://db/p?password=SECRET");
        pb.environment().put("KEPT", "yes");

        Process p = Processes.withoutPaddockSecrets(pb).start();
        String env = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();

        assertThat(env).contains("KEPT=yes").doesNotContain("PADDOCK_STORE").doesNotContain("SECRET");
    }
}
