package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.sandbox.AgentPrograms;
import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxLayout;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.SettingsStore;
import dev.paddock.store.Database;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.RepositoryLocator;
import dev.paddock.worktree.WorktreeManager;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PresetPrograms} on a real repository and worktree, with programs that are small scripts on a PATH of the
 * test's: what a request may ask for, and what a run of each preset is (its command line run by {@code /bin/sh},
 * its environment, Claude Code's settings).
 */
class PresetProgramsTest {
    @TempDir
    Path tmp;

    private TempRepo repo;
    private Path bin;
    private SandboxLayout layout;

    @BeforeEach
    void setUp() throws Exception {
        repo = BrokerRig.repoWithPolicy(
                tmp.resolve("repo"),
                "{\"permissions\": {\"deny\": [\"Bash(curl:*)\"], \"allow\": [\"Bash(git status)\"]}}");
        bin = Files.createDirectories(tmp.resolve("bin"));
        layout = new SandboxLayout(repo.dir(), "s-1", "agent/s-1");
        Files.createDirectories(layout.controlDir());
        new WorktreeManager(new GitCli()).add(repo.dir(), layout.worktree(), "agent/s-1", true, repo.head());
    }

    private PresetPrograms programs(Map<String, String> environment) {
        return new PresetPrograms(
                tmp.resolve("paddock-home"), tmp.resolve("user-home"), new GitCli(), () -> 600_000L, () -> environment);
    }

    /** A program that prints each of its arguments on a line of its own. */
    private Path echoArgs(String name) throws Exception {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }

    private SandboxRecord sandbox(String agent, String task, String command, String model, Tier tier) {
        Instant now = Instant.now();
        return SandboxRecord.builder()
                .id("s-1")
                .repositoryId(1)
                .task(task)
                .agentCommand(command)
                .tier(tier)
                .agent(agent)
                .model(model)
                .branch("agent/s-1")
                .baseBranch("main")
                .baseCommit(repo.head())
                .worktreePath(layout.worktree().toString())
                .state(SandboxState.PENDING)
                .createdAt(now)
                .stateChangedAt(now)
                .leaseMs(60_000)
                .build();
    }

    @Test
    void aRequestNamesAKnownAgentAndACommandOnlyForTheCustomOne() throws Exception {
        PresetPrograms p = programs(Map.of());

        assertThat(p.check(null, null, "make test")).isEqualTo("make test");
        assertThat(p.check("custom", null, "make test")).isEqualTo("make test");
        assertThat(p.check("claude", "claude-sonnet-4-5", null)).isEqualTo("claude");
        assertThat(p.check("Codex", null, " ")).isEqualTo("codex");
        assertThatThrownBy(() -> p.check("cursor", null, null))
                .isInstanceOf(SandboxException.class)
                .hasMessage("Unknown agent \"cursor\"; known agents: claude, codex, gemini, aider, custom.");
        assertThatThrownBy(() -> p.check("claude", null, "claude -p hi"))
                .isInstanceOf(SandboxException.class)
                .hasMessageStartingWith("A command (--cmd) is for the custom agent only: Paddock builds the claude"
                        + " agent's command line itself.");
        assertThatThrownBy(() -> p.check("custom", null, ""))
                .isInstanceOf(SandboxException.class)
                .hasMessageStartingWith("The agent command is empty");
        assertThatThrownBy(() -> p.check(null, "gpt-5", "make"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("a custom command names its own");
        assertThatThrownBy(() -> p.check("claude", "--dangerously-skip-permissions", null))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("is not a model name");
        // Without a tier: the host for a custom command (as always) and Claude Code (its hook asks Paddock),
        // bubblewrap for the agents that do not ask.
        assertThat(p.defaultTier(null)).isEqualTo(Tier.WORKTREE);
        assertThat(p.defaultTier("custom")).isEqualTo(Tier.WORKTREE);
        assertThat(p.defaultTier("claude")).isEqualTo(Tier.WORKTREE);
        assertThat(p.defaultTier("codex")).isEqualTo(Tier.NAMESPACE);
        assertThat(p.defaultTier("aider")).isEqualTo(Tier.NAMESPACE);
    }

    @Test
    void aClaudeRunIsItsHeadlessCommandLineWithTheTaskAsOneArgumentAndAFreshSessionId() throws Exception {
        Path claude = echoArgs("claude");
        String task = "fix 'the' \"bug\"; $(rm -rf /) `x` \\ -- -p";
        PresetPrograms p = programs(Map.of(
                "PATH",
                bin.toString(),
                "ANTHROPIC_API_KEY",
                "sk-secret-1",
                "ANTHROPIC_BASE_URL",
                "http://127.0.0.1:9",
                "OPENAI_API_KEY",
                "sk-not-for-claude"));

        AgentPrograms.Program run =
                p.prepare(sandbox("claude", task, "claude", "claude-opus-4", Tier.WORKTREE), layout);
        AgentPrograms.Program again =
                p.prepare(sandbox("claude", task, "claude", "claude-opus-4", Tier.WORKTREE), layout);

        UUID.fromString(run.session());
        assertThat(again.session()).isNotEqualTo(run.session());
        // The shell gives the program exactly the preset's arguments: the task stays one argument, unexpanded.
        List<String> argv = AgentPreset.CLAUDE.startCommand("x", new AgentTurn(task, run.session(), "claude-opus-4"));
        assertThat(sh(run.command()))
                .containsExactlyElementsOf(argv.subList(1, argv.size()))
                .contains(task, "--session-id", run.session(), "claude-opus-4");
        assertThat(run.command()).startsWith("exec '" + claude + "' ");
        assertThat(run.env())
                .containsEntry("PADDOCK_TASK", task)
                .containsEntry("ANTHROPIC_API_KEY", "sk-secret-1")
                .containsEntry("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
                .containsEntry("DISABLE_AUTOUPDATER", "1")
                .containsEntry(
                        TurnHook.FILE_VARIABLE,
                        layout.controlDir().resolve("turn.json").toString())
                .doesNotContainKey("OPENAI_API_KEY");
        assertThat(run.toString()).contains("ANTHROPIC_API_KEY").doesNotContain("sk-secret-1");
        assertThat(run.describe()).doesNotContain("sk-secret-1");

        JsonNode settings = Json.mapper()
                .readTree(
                        layout.worktree().resolve(ClaudeSettingsWriter.RELATIVE).toFile());
        assertThat(settings.at("/hooks/PreToolUse/0/hooks/0/command").asText())
                .isEqualTo(tmp.resolve("paddock-home/bin/paddock-hook-claude").toAbsolutePath() + " --timeout 660");
        assertThat(settings.at("/hooks/Stop/0/hooks/0/command").asText()).endsWith("/bin/paddock-turn-claude");
        assertThat(settings.at("/permissions/deny").findValuesAsText("")).isEmpty();
        assertThat(settings.at("/permissions/deny").toString())
                .contains("Bash(curl:*)")
                .doesNotContain("git status");
        assertThat(tmp.resolve("paddock-home/bin/paddock-hook-claude"))
                .isExecutable()
                .isNotEmptyFile();
    }

    @Test
    void aPresetWhoseProgramIsNotOnPaddocksPathFailsNamingThePresetAndThePath() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        PresetPrograms p = programs(Map.of("PATH", empty.toString()));

        assertThatThrownBy(() -> p.prepare(sandbox("aider", "task", "aider", null, Tier.WORKTREE), layout))
                .isInstanceOf(SandboxException.class)
                .hasMessage("Cannot start the aider agent of s-1: no executable \"aider\" on Paddock's PATH (" + empty
                        + "). Install it (checked against aider (checked against 0.86.2)) or put its folder on the"
                        + " PATH Paddock is started with.");
        // A container runs the name on its image's PATH.
        assertThat(p.prepare(sandbox("codex", "task", "codex", null, Tier.CONTAINER), layout)
                        .command())
                .isEqualTo("exec 'codex' 'exec' '--json' '-c' 'sandbox_mode=\"danger-full-access\"' '--' 'task'");
        assertThat(layout.worktree().resolve(".claude")).doesNotExist();
    }

    @Test
    void aCustomAgentRunsItsCommandWithTheTaskInPaddockTask() throws Exception {
        AgentPrograms.Program run = programs(Map.of("ANTHROPIC_API_KEY", "sk-x"))
                .prepare(sandbox("custom", "say hi", "echo \"$PADDOCK_TASK\"", null, Tier.WORKTREE), layout);

        assertThat(run.command()).isEqualTo("echo \"$PADDOCK_TASK\"");
        assertThat(run.env()).isEqualTo(Map.of("PADDOCK_TASK", "say hi"));
        assertThat(run.session()).isNull();
    }

    /** Paddock's settings and repositories in a real store, for {@link AgentOptions#stored}. */
    private record Store(Database db, SettingsStore settings, RepoService repos) implements AutoCloseable {
        static Store open(Path dir) throws Exception {
            Database db = Database.open(dir.resolve("paddock"));
            EventLog events = new EventLog(db, Clock.systemUTC());
            GitCli git = new GitCli();
            return new Store(
                    db,
                    new SettingsStore(db, events),
                    new RepoService(new RepositoryLocator(git), git, new RepoStore(db, Clock.systemUTC()), events));
        }

        PresetPrograms programs(Path tmp, Map<String, String> environment) {
            return new PresetPrograms(
                    tmp.resolve("paddock-home"),
                    tmp.resolve("user-home"),
                    new GitCli(),
                    () -> 600_000L,
                    () -> environment,
                    AgentOptions.stored(settings, repos));
        }

        @Override
        public void close() {
            db.close();
        }
    }

    @Test
    void aSetExecutableIsTheRunsProgramAndOneThatIsGoneIsRefusedNamingTheSetting() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("opt/claude-code/bin"));
        Path claude = elsewhere.resolve("claude");
        Files.writeString(claude, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
        Files.setPosixFilePermissions(claude, PosixFilePermissions.fromString("rwx------"));
        Path onPath = echoArgs("claude");
        try (Store store = Store.open(tmp.resolve("store"))) {
            PresetPrograms p = store.programs(tmp, Map.of("PATH", bin.toString()));
            assertThat(p.prepare(sandbox("claude", "task", "claude", null, Tier.WORKTREE), layout)
                            .command())
                    .startsWith("exec '" + onPath + "' ");

            store.settings().set("agents.claude.executable", claude.toString(), "ann");
            p.checkProgram("claude", Tier.WORKTREE);
            AgentPrograms.Program run = p.prepare(sandbox("claude", "task", "claude", null, Tier.NAMESPACE), layout);
            assertThat(run.command()).startsWith("exec '" + claude + "' '-p' ");
            assertThat(sh(run.command())).contains("task", "--session-id");

            Files.setPosixFilePermissions(claude, PosixFilePermissions.fromString("rw-------"));
            String fix = ". Point it at the program (paddock config set agents.claude.executable PATH), or reset it to"
                    + " run claude from Paddock's PATH (paddock config reset agents.claude.executable).";
            assertThatThrownBy(() -> p.checkProgram("claude", Tier.WORKTREE))
                    .isInstanceOf(SandboxException.class)
                    .hasMessage("Cannot create a claude sandbox: the setting agents.claude.executable names " + claude
                            + ", and it is not executable (chmod +x)" + fix);
            Files.delete(claude);
            assertThatThrownBy(() -> p.checkProgram("claude", Tier.NAMESPACE))
                    .hasMessage("Cannot create a claude sandbox: the setting agents.claude.executable names " + claude
                            + ", and there is no such file" + fix);
            assertThatThrownBy(() -> p.prepare(sandbox("claude", "task", "claude", null, Tier.WORKTREE), layout))
                    .hasMessage("Cannot start the claude agent of s-1: the setting agents.claude.executable names "
                            + claude + ", and there is no such file" + fix);
            // Not the program of the others, of a custom command, or of a container (which runs the image's).
            p.checkProgram("codex", Tier.WORKTREE);
            p.checkProgram("custom", Tier.WORKTREE);
            p.checkProgram("claude", Tier.CONTAINER);
            assertThat(p.prepare(sandbox("claude", "task", "claude", null, Tier.CONTAINER), layout)
                            .command())
                    .startsWith("exec 'claude' '-p' ");
        }
    }

    @Test
    void everyPresetNamesAKnownExecutableSetting() throws Exception {
        for (AgentPreset preset : AgentPreset.ALL) {
            if (preset == AgentPreset.CUSTOM) {
                assertThat(preset.executableSetting()).isNull();
            } else {
                assertThat(SettingsStore.known(preset.executableSetting()).type())
                        .isEqualTo("executable");
                assertThat(preset.executableSetting()).isEqualTo("agents." + preset.id() + ".executable");
            }
        }
    }

    /**
     * Codex in a namespace sandbox: its own sandbox off (the tier is the wall), its home in the control directory
     * (kept between runs, so a follow-up can resume the thread) with the user's config.toml copied and nothing else;
     * in the worktree tier neither. The thread id is read back from the log when a run ended.
     */
    @Test
    void codexInTheNamespaceTierGetsAHomeKeptBetweenRunsAndItsThreadIsReadFromTheLog() throws Exception {
        echoArgs("codex");
        Path userCodex = Files.createDirectories(tmp.resolve("user").resolve(".codex"));
        Files.writeString(userCodex.resolve("config.toml"), "model = \"o9\"\n");
        Files.writeString(userCodex.resolve("auth.json"), "{\"OPENAI_API_KEY\":\"sk-secret\"}");
        PresetPrograms p = programs(
                Map.of("PATH", bin.toString(), "HOME", tmp.resolve("user").toString(), "OPENAI_API_KEY", "sk-env"));

        AgentPrograms.Program ns = p.prepare(sandbox("codex", "task", "codex", null, Tier.NAMESPACE), layout);
        Path codexHome = layout.controlDir().resolve("codex-home");
        assertThat(ns.env())
                .containsEntry("CODEX_HOME", codexHome.toString())
                .containsEntry("OPENAI_API_KEY", "sk-env");
        // The user's configuration, then Paddock's PreToolUse hook, at the path the sandbox shows the hook at.
        String config = Files.readString(codexHome.resolve("config.toml"));
        assertThat(config)
                .startsWith("model = \"o9\"\n")
                .contains("[[hooks.PreToolUse]]")
                .contains("command = \"/run/paddock/bin/paddock-hook-claude --timeout ");
        assertThat(codexHome.resolve("auth.json")).doesNotExist();
        assertThat(sh(ns.command()))
                .containsExactly(
                        "exec",
                        "--json",
                        "-c",
                        "sandbox_mode=\"danger-full-access\"",
                        "--dangerously-bypass-hook-trust",
                        "--",
                        "task");
        // A hooks.json a run left in the home is gone before the next run.
        Files.writeString(codexHome.resolve("hooks.json"), "{\"hooks\": {}}");
        p.prepare(sandbox("codex", "task", "codex", null, Tier.NAMESPACE), layout);
        assertThat(codexHome.resolve("hooks.json")).doesNotExist();
        assertThat(Files.readString(codexHome.resolve("config.toml")))
                .as("written anew, not appended twice")
                .isEqualTo(config);
        assertThat(ns.session()).isNull();

        AgentPrograms.Program wt = p.prepare(sandbox("codex", "task", "codex", null, Tier.WORKTREE), layout);
        assertThat(wt.env()).doesNotContainKey("CODEX_HOME");
        assertThat(sh(wt.command())).containsExactly("exec", "--json", "--", "task");

        Path log = tmp.resolve("s-1.log");
        SandboxRecord s = sandbox("codex", "task", "codex", null, Tier.NAMESPACE);
        assertThat(p.sessionOf(s, log)).isEmpty();
        Files.writeString(
                log,
                "=== run 1 of s-1\n{\"type\":\"thread.started\",\"thread_id\":\"01a24a73-006b\"}\n"
                        + "{\"type\":\"turn.started\"}\n");
        assertThat(p.sessionOf(s, log)).contains("01a24a73-006b");
        // Only an id as Paddock stores them; and Claude Code's session is Paddock's own, never read back.
        Files.writeString(log, "{\"type\":\"thread.started\",\"thread_id\":\"x'; rm -rf ~\"}\n");
        assertThat(p.sessionOf(s, log)).isEmpty();
        assertThat(p.sessionOf(sandbox("claude", "task", "claude", null, Tier.WORKTREE), log))
                .isEmpty();
    }

    @Test
    void theRepositorysExtraFlagsGoIntoFirstRunsAndFollowUpsBeforeTheText() throws Exception {
        echoArgs("claude");
        echoArgs("codex");
        try (Store store = Store.open(tmp.resolve("store"))) {
            long repoId = store.repos().open(repo.dir()).record().id();
            store.repos()
                    .setAgentFlags(
                            repo.dir(),
                            "claude",
                            List.of("--max-turns", "30", "--append-system-prompt", "answer in one line; don't $(rm)"));
            store.repos().setAgentFlags(repo.dir(), "codex", List.of("-c", "model_reasoning_effort=high"));
            PresetPrograms p = store.programs(tmp, Map.of("PATH", bin.toString()));

            SandboxRecord claude = sandbox("claude", "the task", "claude", "opus", Tier.WORKTREE).toBuilder()
                    .repositoryId(repoId)
                    .build();
            AgentPrograms.Program run = p.prepare(claude, layout);
            assertThat(sh(run.command()))
                    .containsExactly(
                            "-p",
                            "--output-format",
                            "stream-json",
                            "--verbose",
                            "--session-id",
                            run.session(),
                            "--model",
                            "opus",
                            "--max-turns",
                            "30",
                            "--append-system-prompt",
                            "answer in one line; don't $(rm)",
                            "--",
                            "the task");
            AgentPrograms.Program next = p.prepareFollowUp(
                    claude.toBuilder().agentSession(run.session()).iteration(1).build(), layout, "go on");
            assertThat(sh(next.command()))
                    .containsSubsequence("--resume", run.session(), "--max-turns", "30", "--", "go on");

            SandboxRecord codex = sandbox("codex", "the task", "codex", null, Tier.NAMESPACE).toBuilder()
                    .repositoryId(repoId)
                    .agentSession("thread-1")
                    .iteration(1)
                    .build();
            // Paddock's own option for the tier comes first (Codex's sandbox off: the namespace is the wall).
            String own = "sandbox_mode=\"danger-full-access\"";
            String trust = "--dangerously-bypass-hook-trust";
            assertThat(sh(p.prepare(codex, layout).command()))
                    .containsExactly(
                            "exec", "--json", "-c", own, trust, "-c", "model_reasoning_effort=high", "--", "the task");
            assertThat(sh(p.prepareFollowUp(codex, layout, "more").command()))
                    .containsExactly(
                            "exec",
                            "resume",
                            "--json",
                            "-c",
                            own,
                            trust,
                            "-c",
                            "model_reasoning_effort=high",
                            "thread-1",
                            "--",
                            "more");
            // Another repository's sandboxes do not get them.
            assertThat(sh(p.prepare(codex.toBuilder().repositoryId(repoId + 1).build(), layout)
                            .command()))
                    .containsExactly("exec", "--json", "-c", own, trust, "--", "the task");

            // Flags stored before a rule refused them stop the run with the reason, never run unchecked.
            store.db()
                    .jdbc()
                    .update(
                            "UPDATE repository_agent_flags SET flags = ? WHERE agent = 'claude'",
                            "[\"--settings\", \"/tmp/evil.json\"]");
            assertThatThrownBy(() -> p.prepare(claude, layout))
                    .isInstanceOf(SandboxException.class)
                    .hasMessageStartingWith("Cannot start the claude agent of s-1: its repository's extra flags are"
                            + " refused now: \"--settings\" cannot be an extra flag of claude");
        }
    }

    /** The lines {@code /bin/sh -c command} prints. */
    /**
     * Gemini CLI where HOME is not the user's (namespace, container): its home in the control directory with the
     * user's settings and the key's auth type, the key in the environment only; in the worktree tier its own home, or
     * the GEMINI_CLI_HOME Paddock was given.
     */
    @Test
    void geminiOutsideTheWorktreeTierGetsAHomeInTheControlDirectoryWithTheUsersSettings() throws Exception {
        echoArgs("gemini");
        Path userGemini = Files.createDirectories(tmp.resolve("user").resolve(".gemini"));
        Files.writeString(userGemini.resolve("settings.json"), "{\"model\": {\"name\": \"gemini-9\"}}");
        Files.writeString(userGemini.resolve("oauth_creds.json"), "{\"refresh_token\":\"SECRET\"}");
        PresetPrograms p = programs(
                Map.of("PATH", bin.toString(), "HOME", tmp.resolve("user").toString(), "GEMINI_API_KEY", "gm-SECRET"));
        Path geminiHome = layout.controlDir().resolve("gemini-home");
        for (Tier tier : List.of(Tier.NAMESPACE, Tier.CONTAINER)) {
            AgentPrograms.Program run = p.prepare(sandbox("gemini", "task", "gemini", null, tier), layout);
            assertThat(run.env())
                    .containsEntry("GEMINI_CLI_HOME", geminiHome.toString())
                    .containsEntry("GEMINI_API_KEY", "gm-SECRET");
            assertThat(run.toString()).doesNotContain("SECRET");
        }
        JsonNode settings = Json.mapper()
                .readTree(geminiHome.resolve(".gemini/settings.json").toFile());
        assertThat(settings.at("/security/auth/selectedType").asText()).isEqualTo("gemini-api-key");
        assertThat(settings.at("/model/name").asText()).isEqualTo("gemini-9");
        assertThat(geminiHome.resolve(".gemini/oauth_creds.json")).doesNotExist();

        AgentPrograms.Program wt = p.prepare(sandbox("gemini", "task", "gemini", null, Tier.WORKTREE), layout);
        assertThat(wt.env()).doesNotContainKey("GEMINI_CLI_HOME");
        PresetPrograms given = programs(Map.of("PATH", bin.toString(), "GEMINI_CLI_HOME", "/home/me/gemini"));
        assertThat(given.prepare(sandbox("gemini", "task", "gemini", null, Tier.WORKTREE), layout)
                        .env())
                .containsEntry("GEMINI_CLI_HOME", "/home/me/gemini");
    }

    private static List<String> sh(String command) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", command)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return new ArrayList<>(out.lines().toList());
    }
}
