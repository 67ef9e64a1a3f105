package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.sandbox.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentPresetTest {
    private static final String TASK = "--fix the build; rm -rf / is not an option";
    private static final String ID = "0b8f3c52-6f0e-4d55-9a53-3c1c8b7f4a10";

    @TempDir
    Path tmp;

    @Test
    void claudeRunsHeadlessWithStreamJsonAndPaddocksSessionId() {
        assertThat(AgentPreset.CLAUDE.startCommand("/opt/claude", new AgentTurn(TASK, ID, null)))
                .containsExactly(
                        "/opt/claude",
                        "-p",
                        "--output-format",
                        "stream-json",
                        "--verbose",
                        "--session-id",
                        ID,
                        "--",
                        TASK);
        assertThat(AgentPreset.CLAUDE.startCommand("claude", new AgentTurn("t", ID, "claude-opus-5-5")))
                .containsSubsequence("--model", "claude-opus-5-5", "--", "t");
        assertThat(AgentPreset.CLAUDE.followUpCommand("claude", new AgentTurn("and tests", ID, null)))
                .contains(List.of(
                        "claude",
                        "--resume",
                        ID,
                        "-p",
                        "--output-format",
                        "stream-json",
                        "--verbose",
                        "--",
                        "and tests"));
        assertThatThrownBy(() -> AgentPreset.CLAUDE.startCommand("claude", new AgentTurn("t", null, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("session id");
    }

    @Test
    void codexUsesExecJsonAndResumesByItsOwnThreadId() {
        assertThat(AgentPreset.CODEX.startCommand("codex", new AgentTurn(TASK, null, "gpt-6")))
                .containsExactly("codex", "exec", "--json", "--model", "gpt-6", "--", TASK);
        assertThat(AgentPreset.CODEX.followUpCommand("codex", new AgentTurn("more", null, null)))
                .isEmpty();
        assertThat(AgentPreset.CODEX.followUpCommand("codex", new AgentTurn("more", "thread-1", null)))
                .contains(List.of("codex", "exec", "resume", "--json", "thread-1", "--", "more"));
    }

    @Test
    void geminiAndAiderTakeTheTextAsOneArgument() {
        assertThat(AgentPreset.GEMINI.startCommand("gemini", new AgentTurn(TASK, ID, null)))
                .containsExactly(
                        "gemini",
                        "--skip-trust",
                        "--output-format",
                        "stream-json",
                        "--session-id",
                        ID,
                        "--prompt=" + TASK);
        assertThat(AgentPreset.GEMINI.followUpCommand("gemini", new AgentTurn("more", ID, null)))
                .contains(List.of(
                        "gemini", "--skip-trust", "--output-format", "stream-json", "--resume", ID, "--prompt=more"));
        List<String> aider = AgentPreset.AIDER.startCommand("aider", new AgentTurn(TASK, null, "sonnet"));
        assertThat(aider)
                .containsExactly(
                        "aider",
                        "--no-pretty",
                        "--no-fancy-input",
                        "--no-check-update",
                        "--model",
                        "sonnet",
                        "--message=" + TASK);
        assertThat(aider).doesNotContain("--yes-always", "--yes");
        assertThat(AgentPreset.AIDER
                        .followUpCommand("aider", new AgentTurn("more", null, null))
                        .orElseThrow())
                .contains("--restore-chat-history", "--message=more");
    }

    @Test
    void customRunsTheUsersCommandWithTheTaskInItsEnvironment() {
        AgentTurn turn = new AgentTurn(TASK, null, null);
        assertThat(AgentPreset.CUSTOM.startCommand("./agent.sh --fast", turn))
                .containsExactly("/bin/sh", "-c", "./agent.sh --fast");
        assertThat(AgentPreset.CUSTOM.extraEnvironment(turn)).containsEntry("PADDOCK_TASK", TASK);
        assertThat(AgentPreset.CUSTOM.followUpCommand("x", turn)).isEmpty();
        assertThat(AgentPreset.CUSTOM.canFollowUp()).isFalse();
    }

    @Test
    void tiersVersionsAndLookUp() {
        assertThat(AgentPreset.ALL)
                .extracting(AgentPreset::id)
                .containsExactly("claude", "codex", "gemini", "aider", "custom");
        assertThat(AgentPreset.CLAUDE.defaultTier()).isEqualTo(Tier.WORKTREE);
        assertThat(AgentPreset.CLAUDE.paddockHook()).isTrue();
        assertThat(List.of(AgentPreset.CODEX, AgentPreset.GEMINI, AgentPreset.AIDER, AgentPreset.CUSTOM))
                .allSatisfy(p -> {
                    assertThat(p.defaultTier()).isEqualTo(Tier.NAMESPACE);
                    assertThat(p.paddockHook()).isFalse();
                });
        assertThat(AgentPreset.CLAUDE.checkedVersion()).isEqualTo("2.1.332");
        assertThat(AgentPreset.CODEX.checkedVersion()).isEqualTo("0.171.0");
        assertThat(AgentPreset.GEMINI.checkedVersion()).isEqualTo("0.61.0");
        assertThat(AgentPreset.of("gemini")).isSameAs(AgentPreset.GEMINI);
        assertThatThrownBy(() -> AgentPreset.of("cursor")).hasMessageContaining("claude, codex, gemini, aider, custom");
        assertThat(AgentPreset.CLAUDE.extraEnvironment(new AgentTurn("t", ID, null)))
                .containsEntry("DISABLE_AUTOUPDATER", "1");
    }

    @Test
    void passThroughTakesOnlyTheListedNamesAndNeverShowsAValue() {
        Map<String, String> paddockEnv = Map.of(
                "ANTHROPIC_API_KEY",
                "sk-ant-SECRET-1",
                "ANTHROPIC_BASE_URL",
                "http://127.0.0.1:9/",
                "OPENAI_API_KEY",
                "sk-SECRET-2",
                "HOME",
                "/home/me",
                "ANTHROPIC_MODEL",
                "");
        PassThrough claude = PassThrough.from(AgentPreset.CLAUDE, paddockEnv);
        assertThat(claude.names()).containsExactly("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL");
        Map<String, String> env = new HashMap<>();
        claude.applyTo(env);
        assertThat(env)
                .containsOnly(
                        Map.entry("ANTHROPIC_API_KEY", "sk-ant-SECRET-1"),
                        Map.entry("ANTHROPIC_BASE_URL", "http://127.0.0.1:9/"));
        for (String shown : List.of(claude.toString(), claude.describe(), String.join(",", claude.names()))) {
            assertThat(shown).doesNotContain("SECRET").doesNotContain("127.0.0.1");
        }
        assertThat(claude.describe()).isEqualTo("passes ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL");
        assertThat(PassThrough.from(AgentPreset.CODEX, paddockEnv).names()).containsExactly("OPENAI_API_KEY");
        assertThat(PassThrough.from(AgentPreset.GEMINI, paddockEnv).describe()).isEqualTo("passes nothing");
        assertThat(PassThrough.from(AgentPreset.CUSTOM, paddockEnv).names()).isEmpty();
        // The presets' own descriptions carry no value either.
        assertThat(AgentPreset.CLAUDE.toString()).isEqualTo("claude (checked against 2.1.332)");
    }

    @Test
    void theExecutableComesFromTheSettingOrPath() throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path b = Files.createDirectories(tmp.resolve("b"));
        Path notExec = Files.writeString(a.resolve("codex"), "#!/bin/sh\n");
        Path exec = Files.writeString(b.resolve("codex"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(exec, PosixFilePermissions.fromString("rwx------"));
        String path = "relative:" + a + "::" + b;
        assertThat(ExecutableLocator.locate(AgentPreset.CODEX, null, path)).contains(exec);
        assertThat(ExecutableLocator.locate(AgentPreset.CODEX, " " + exec + " ", ""))
                .contains(exec);
        assertThat(ExecutableLocator.locate(AgentPreset.CODEX, notExec.toString(), path))
                .isEmpty();
        assertThat(ExecutableLocator.locate(AgentPreset.CODEX, "codex", path))
                .as("relative setting")
                .isEmpty();
        assertThat(ExecutableLocator.locate(AgentPreset.GEMINI, null, path)).isEmpty();
    }
}
