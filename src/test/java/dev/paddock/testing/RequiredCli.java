package dev.paddock.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.paddock.agent.AgentPreset;
import dev.paddock.agent.ExecutableLocator;
import dev.paddock.isolation.bubblewrap.BubblewrapProbe;
import java.nio.file.Path;
import java.util.Optional;

/**
 * An agent CLI a test runs for real: found through {@code PADDOCK_<NAME>_BIN}, else on PATH; a failure when
 * {@code PADDOCK_REQUIRE_<NAME>=1} (as in CI, which installs a pinned version), a skip otherwise. The one place
 * where these tests may skip, so CI (which sets every {@code PADDOCK_REQUIRE_*}) cannot pass by skipping.
 *
 * @param preset the agent
 * @param name   the variables' infix: {@code CLAUDE}, {@code CODEX}, {@code GEMINI}
 * @param label  the CLI as messages name it
 */
record RequiredCli(AgentPreset preset, String name, String label) {
    /** Whether CI asks for it. */
    boolean required() {
        return "1".equals(System.getenv("PADDOCK_REQUIRE_" + name));
    }

    /** The binary, or a failed / skipped test. */
    Path require() {
        Optional<Path> bin =
                ExecutableLocator.locate(preset, System.getenv("PADDOCK_" + name + "_BIN"), System.getenv("PATH"));
        String why = "no " + label + " (PADDOCK_" + name + "_BIN or " + preset.executable()
                + " on PATH; .ci/run installs one)";
        need(bin.isPresent(), why);
        return bin.get();
    }

    /** Bubblewrap can make namespaces here (the namespace tier, or the CLI's own sandbox). */
    void requireBubblewrap() {
        BubblewrapProbe.Status bwrap = new BubblewrapProbe().probe();
        need(bwrap.usable(), "bubblewrap cannot make namespaces here: " + bwrap.summary());
    }

    /** {@code ok}, or a failure when required, else a skip saying {@code why}. */
    void need(boolean ok, String why) {
        if (required()) {
            assertThat(ok).as("PADDOCK_REQUIRE_" + name + "=1 but " + why).isTrue();
        }
        assumeTrue(ok, why + " and PADDOCK_REQUIRE_" + name + " is not 1");
    }
}
