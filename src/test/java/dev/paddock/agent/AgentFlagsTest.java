package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.sandbox.SandboxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a repository's extra flags for an agent may be: tuning is taken, taking Paddock's place is refused. */
class AgentFlagsTest {
    @Test
    void flagsThatTuneTheAgentAreKeptAsTyped() throws Exception {
        assertThat(AgentFlags.check(AgentPreset.CLAUDE, List.of("--max-turns", "30", "--add-dir", "../common lib")))
                .containsExactly("--max-turns", "30", "--add-dir", "../common lib");
        assertThat(AgentFlags.check(AgentPreset.CODEX, List.of("-c", "model_reasoning_effort=high")))
                .containsExactly("-c", "model_reasoning_effort=high");
        assertThat(AgentFlags.check(AgentPreset.AIDER, List.of("--no-auto-commits")))
                .containsExactly("--no-auto-commits");
        assertThat(AgentFlags.check(AgentPreset.GEMINI, null)).isEmpty();
        assertThat(AgentFlags.check(AgentPreset.CUSTOM, List.of())).isEmpty();
    }

    @Test
    void whatPaddockSetsOrReliesOnIsRefusedInEverySpelling() {
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CLAUDE, List.of("--settings", "/tmp/x.json")))
                .isInstanceOf(SandboxException.class)
                .hasMessage("\"--settings\" cannot be an extra flag of claude: Paddock relies on what --settings would"
                        + " switch off. Leave it out.");
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CLAUDE, List.of("--setting-sources=user")))
                .hasMessageContaining("relies on what --setting-sources would switch off");
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CLAUDE, List.of("--dangerously-skip-permissions")))
                .isInstanceOf(SandboxException.class);
        assertThatThrownBy(
                        () -> AgentFlags.check(AgentPreset.CLAUDE, List.of("--permission-mode", "bypassPermissions")))
                .isInstanceOf(SandboxException.class);
        // A cluster of short options: -c (continue) is in it.
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CLAUDE, List.of("--verbose", "-dc")))
                .hasMessage("\"-dc\" cannot be an extra flag of claude: Paddock sets -c itself. Leave it out.");
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CODEX, List.of("--model=o3")))
                .hasMessage("\"--model=o3\" cannot be an extra flag of codex: Paddock sets --model itself. Leave it out"
                        + " (a sandbox's model is its own field: --model).");
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.GEMINI, List.of("--prompt=hi")))
                .isInstanceOf(SandboxException.class);
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.AIDER, List.of("--yes-always")))
                .hasMessageContaining("relies on what --yes-always would switch off");
    }

    @Test
    void codexsSandboxModeIsPaddocksInEverySpelling() throws Exception {
        for (List<String> flags : List.of(
                List.of("-s", "workspace-write"),
                List.of("--sandbox=read-only"),
                List.of("-c", "sandbox_mode=\"workspace-write\""),
                List.of("--config", " sandbox_mode=read-only"),
                List.of("--config=sandbox_mode=read-only"),
                List.of("-csandbox_mode=read-only"))) {
            assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CODEX, flags))
                    .as(flags.toString())
                    .isInstanceOf(SandboxException.class)
                    .hasMessageContaining("cannot be an extra flag of codex");
        }
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CODEX, List.of("-c", "sandbox_mode=\"read-only\"")))
                .hasMessage("\"sandbox_mode=\"read-only\"\" cannot be an extra flag of codex: Paddock sets Codex's"
                        + " sandbox_mode itself (by the sandbox's tier). Leave it out.");
        // Other overrides stay the user's.
        assertThat(AgentFlags.check(
                        AgentPreset.CODEX,
                        List.of(
                                "-c",
                                "model_reasoning_effort=high",
                                "--config",
                                "shell_environment_policy.inherit=all")))
                .hasSize(4);
    }

    @Test
    void malformedFlagsAreRefusedSayingWhy() {
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CLAUDE, List.of("30", "--max-turns")))
                .hasMessage("Extra flags start with a flag (a word that starts with -), not \"30\": Paddock puts the"
                        + " task after them.");
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CLAUDE, List.of("--verbose", "--", "x")))
                .hasMessageContaining("\"--\" cannot be an extra flag of claude");
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CLAUDE, List.of("--append-system-prompt", "a\nb")))
                .hasMessageContaining("each word is one line");
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CLAUDE, Collections.singletonList(null)))
                .isInstanceOf(SandboxException.class);
        List<String> many = new ArrayList<>(Collections.nCopies(AgentFlags.MAX_WORDS + 1, "--verbose"));
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CLAUDE, many))
                .hasMessage("Too many extra flags for claude: 65 words, at most 64.");
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CUSTOM, List.of("--x")))
                .hasMessageStartingWith("The custom agent takes no extra flags");
    }

    /** Claude Code 2.1.332's --bare and --safe-mode skip hooks, Paddock's included: an agent would run unasked. */
    @Test
    void switchesThatSkipHooksOrApprovalsAreRefused() {
        for (String flag : List.of("--bare", "--safe-mode")) {
            assertThatThrownBy(() -> AgentFlags.check(AgentPreset.CLAUDE, List.of("--max-turns", "3", flag)))
                    .hasMessageContaining("relies on what " + flag + " would switch off");
        }
        assertThatThrownBy(() ->
                        AgentFlags.check(AgentPreset.CODEX, List.of("--dangerously-bypass-approvals-and-sandbox")))
                .hasMessageContaining("relies on");
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.GEMINI, List.of("--approval-mode=yolo")))
                .hasMessageContaining("relies on");
        assertThatThrownBy(() -> AgentFlags.check(AgentPreset.GEMINI, List.of("-sy")))
                .hasMessageContaining("-y");
    }
}
