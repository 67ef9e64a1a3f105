package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.RemoveMode;
import org.junit.jupiter.api.Test;

/** What a refused removal suggests next: never the command that was just refused. */
class SandboxTextTest {
    @Test
    void aRefusedStrictRemovalSuggestsCommitOrForce() {
        assertThat(SandboxText.howToGoOn("s-1", RemoveMode.STRICT))
                .contains("paddock sandbox rm s-1 --commit ")
                .contains("paddock sandbox rm s-1 --force ");
    }

    @Test
    void aRefusedCommitModeRemovalSuggestsOnlyForce() {
        assertThat(SandboxText.howToGoOn("s-1", RemoveMode.COMMIT))
                .doesNotContain("--commit")
                .contains("paddock sandbox rm s-1 --force    throw the work away");
    }
}
