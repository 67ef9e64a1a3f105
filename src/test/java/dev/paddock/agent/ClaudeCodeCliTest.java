package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.approval.ClaudeHookInstaller;
import dev.paddock.common.Json;
import dev.paddock.testing.ClaudeCli;
import dev.paddock.testing.ScriptedAnthropic;
import dev.paddock.testing.ScriptedAnthropic.Reply;
import dev.paddock.testing.ScriptedAnthropic.Script;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Claude Code CLI (the version {@code .ci/run} installs) against a scripted Messages API, in a temporary
 * git repository, driven by the command lines of {@link AgentPreset#CLAUDE} and the settings of
 * {@link ClaudeSettingsWriter}.
 */
class ClaudeCodeCliTest {
    @TempDir
    Path tmp;

    private Path bin;
    private Path repo;
    private Path home;

    @BeforeEach
    void setUp() {
        bin = ClaudeCli.require();
        repo = TempRepo.init(tmp.resolve("repo")).dir();
        home = tmp.resolve("home");
    }

    private ClaudeCli.Run start(ScriptedAnthropic api, String task, String session, Map<String, String> env) {
        List<String> cmd = AgentPreset.CLAUDE.startCommand(bin.toString(), new AgentTurn(task, session, null));
        return ClaudeCli.exec(cmd, repo, home, api, env, ClaudeCli.TIMEOUT);
    }

    private static Transcript parse(String stdout) {
        TranscriptParser p = AgentPreset.CLAUDE.format().newParser();
        return Transcript.EMPTY.plus(p.feed(stdout)).plus(p.finish());
    }

    @Test
    void runsAScriptedBashCallAndEndsWithAParsedStreamJsonTranscript() throws Exception {
        String session = UUID.randomUUID().toString();
        try (ScriptedAnthropic api = ScriptedAnthropic.start(
                Script.steps(Reply.bash("printf 'hello from bash'"), Reply.text("All done.")))) {
            ClaudeCli.Run run = start(api, "-say hello (a task that starts with a dash)", session, Map.of());

            assertThat(run.exitCode()).as(run.stderr()).isZero();
            // The model saw the task as the prompt, then the command's output as the tool result.
            assertThat(api.turns()).hasSize(2);
            assertThat(api.turns().get(0).prompt()).isEqualTo("-say hello (a task that starts with a dash)");
            assertThat(api.turns().get(1).lastToolResults()).containsExactly("hello from bash");
            assertThat(api.requests()).allSatisfy(r -> assertThat(r.path()).startsWith("/v1/messages"));

            Transcript t = parse(run.stdout());
            assertThat(t.sessionId()).isEqualTo(session);
            assertThat(t.entries())
                    .filteredOn(TranscriptEntry.ToolCall.class::isInstance)
                    .singleElement()
                    .satisfies(e -> {
                        TranscriptEntry.ToolCall c = (TranscriptEntry.ToolCall) e;
                        assertThat(c.name()).isEqualTo("Bash");
                        assertThat(Json.mapper()
                                        .readTree(c.inputJson())
                                        .path("command")
                                        .asText())
                                .isEqualTo("printf 'hello from bash'");
                    });
            assertThat(t.entries()).contains(new TranscriptEntry.Message("assistant", "All done.", false));
            assertThat(t.entries())
                    .filteredOn(TranscriptEntry.ToolResult.class::isInstance)
                    .extracting(e -> ((TranscriptEntry.ToolResult) e).text())
                    .containsExactly("hello from bash");
            TranscriptEntry last = t.entries().get(t.entries().size() - 1);
            assertThat(last).isInstanceOfSatisfying(TranscriptEntry.Usage.class, u -> {
                assertThat(u.failed()).isFalse();
                assertThat(u.turns()).isEqualTo(2);
                assertThat(u.outputTokens()).isPositive();
                assertThat(u.durationMs()).isNotNull();
            });
            // Refresh the committed fixture by hand from here when the CLI changes.
            Files.writeString(Path.of("target", "claude-stream-captured.jsonl"), run.stdout(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void hooksGetTheRealPayloadsADenyReachesTheModelAndStopSignalsTheTurnEnd() throws Exception {
        Path log = tmp.resolve("pre-tool-use.json");
        Path preHook = script(
                "pre-hook.sh",
                "#!/bin/sh\ncat > '" + log + "'\n"
                        + "echo 'Paddock: denied by Bash(rm:*) from test policy' >&2\nexit 2\n");
        Path turnFile = tmp.resolve("turn.json");
        Path paddockHome = tmp.resolve("paddock-home");
        Path turnHook = TurnHook.write(paddockHome);
        new ClaudeSettingsWriter(new GitCli())
                .write(
                        repo,
                        new ClaudeSettingsWriter.Spec(preHook.toString(), 30, turnHook.toString(), List.of(), null));
        String session = UUID.randomUUID().toString();
        try (ScriptedAnthropic api =
                ScriptedAnthropic.start(Script.steps(Reply.bash("rm -rf build"), Reply.text("Understood.")))) {
            ClaudeCli.Run run = start(api, "clean up", session, Map.of(TurnHook.FILE_VARIABLE, turnFile.toString()));
            assertThat(run.exitCode()).as(run.stderr()).isZero();

            JsonNode pre = Json.mapper().readTree(Files.readString(log));
            assertThat(pre.path("hook_event_name").asText()).isEqualTo("PreToolUse");
            assertThat(pre.path("tool_name").asText()).isEqualTo("Bash");
            assertThat(pre.path("tool_input").path("command").asText()).isEqualTo("rm -rf build");
            assertThat(pre.path("session_id").asText()).isEqualTo(session);
            assertThat(Path.of(pre.path("cwd").asText()).toRealPath()).isEqualTo(repo.toRealPath());
            assertThat(pre.path("transcript_path").asText()).endsWith(session + ".jsonl");
            assertThat(pre.path("tool_use_id").asText()).startsWith("toolu_");
            assertThat(pre.path("permission_mode").asText()).isEqualTo("default");

            // The deny's reason is the tool result the model reads, as an error.
            List<String> results = api.turns().get(1).lastToolResults();
            assertThat(results).singleElement().asString().contains("Paddock: denied by Bash(rm:*) from test policy");
            assertThat(parse(run.stdout()).entries())
                    .anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(TranscriptEntry.ToolResult.class, r -> {
                        assertThat(r.error()).isTrue();
                        assertThat(r.text()).contains("Paddock: denied by Bash(rm:*)");
                    }));

            // The Stop hook ran Paddock's turn script, which wrote the hook's input to the turn file.
            TurnSignal signal = TurnSignal.parse(Files.readString(turnFile)).orElseThrow();
            assertThat(signal.kind()).isEqualTo(TurnSignal.Kind.TURN_ENDED);
            assertThat(signal.sessionId()).isEqualTo(session);
            assertThat(signal.detail()).isEqualTo("Understood.");
        }
    }

    @Test
    void aHookAllowRunsTheCallAndResumeContinuesTheSameSession() throws Exception {
        Path allow = script(
                "allow.sh",
                "#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' "
                        + "'{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'\n");
        new ClaudeSettingsWriter(new GitCli())
                .write(repo, new ClaudeSettingsWriter.Spec(allow.toString(), 30, null, List.of(), null));
        String session = UUID.randomUUID().toString();
        Script script = t -> t.prompt().equals("write the file")
                ? Script.steps(Reply.bash("printf one > out.txt"), Reply.text("Wrote it."))
                        .reply(t)
                : Script.steps(Reply.text(
                                "Second turn: I remember " + t.messages().size() + " messages."))
                        .reply(t);
        try (ScriptedAnthropic api = ScriptedAnthropic.start(script)) {
            ClaudeCli.Run first = start(api, "write the file", session, Map.of());
            assertThat(first.exitCode()).as(first.stderr()).isZero();
            // Without the hook, -p refuses a shell redirection; the hook's allow let it run.
            assertThat(repo.resolve("out.txt")).hasContent("one");

            List<String> follow = AgentPreset.CLAUDE
                    .followUpCommand(bin.toString(), new AgentTurn("and now?", session, null))
                    .orElseThrow();
            ClaudeCli.Run second = ClaudeCli.exec(follow, repo, home, api, Map.of(), ClaudeCli.TIMEOUT);
            assertThat(second.exitCode()).as(second.stderr()).isZero();

            ScriptedAnthropic.Turn resumed = api.turns().get(api.turns().size() - 1);
            assertThat(resumed.prompt()).isEqualTo("and now?");
            // The earlier prompt, tool call and result came along: the same conversation goes on.
            assertThat(resumed.request().path("messages").toString())
                    .contains("write the file")
                    .contains("printf one > out.txt")
                    .contains("Wrote it.");
            Transcript t = parse(second.stdout());
            assertThat(t.sessionId()).isEqualTo(session);
            assertThat(t.entries())
                    .anySatisfy(e -> assertThat(e)
                            .isInstanceOfSatisfying(
                                    TranscriptEntry.Message.class,
                                    m -> assertThat(m.text()).startsWith("Second turn")));
        }
    }

    @Test
    void aSettingsDenyRuleBeatsTheHooksAllowAndABrokenHookBlocks() throws Exception {
        Path allow = script(
                "allow.sh",
                "#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' "
                        + "'{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'\n");
        GitCli git = new GitCli();
        List<String> deny = new java.util.ArrayList<>(ClaudePermissions.denyRules(null, repo, tmp.resolve("ph")));
        deny.add("Bash(touch:*)");
        new ClaudeSettingsWriter(git)
                .write(repo, new ClaudeSettingsWriter.Spec(allow.toString(), 30, null, deny, null));
        try (ScriptedAnthropic api = ScriptedAnthropic.start(Script.steps(
                Reply.bash("touch denied.txt"),
                Reply.write(repo.resolve(".claude/agent-wrote.json").toString(), "{}"),
                Reply.write(repo.resolve("allowed.txt").toString(), "fine"),
                Reply.text("ok")))) {
            ClaudeCli.Run run = start(api, "touch it", UUID.randomUUID().toString(), Map.of());
            assertThat(run.exitCode()).as(run.stderr()).isZero();
            assertThat(repo.resolve("denied.txt")).doesNotExist();
            assertThat(api.turns().get(1).lastToolResults())
                    .singleElement()
                    .asString()
                    .contains("denied");
            // Edit(//<worktree>/.claude/**) is read as an absolute path and denies ("denied"); without it Claude Code
            // refuses in -p too, but as a question nobody answers ("... which is a sensitive file").
            assertThat(repo.resolve(".claude/agent-wrote.json")).doesNotExist();
            assertThat(api.turns().get(2).lastToolResults())
                    .singleElement()
                    .asString()
                    .contains("denied");
            assertThat(repo.resolve("allowed.txt")).hasContent("fine");
        }
        // A hook that cannot start: onFailure "block" refuses the call instead of falling through.
        new ClaudeSettingsWriter(git)
                .write(
                        repo,
                        new ClaudeSettingsWriter.Spec(
                                ClaudeHookInstaller.hookCommand(tmp.resolve("missing-hook"), 30),
                                30,
                                null,
                                List.of(),
                                null));
        try (ScriptedAnthropic api = ScriptedAnthropic.start(Script.steps(Reply.bash("printf x"), Reply.text("ok")))) {
            ClaudeCli.Run run = start(api, "print", UUID.randomUUID().toString(), Map.of());
            assertThat(run.exitCode()).as(run.stderr()).isZero();
            assertThat(api.turns().get(1).lastToolResults())
                    .singleElement()
                    .asString()
                    .contains("onFailure is \"block\"");
        }
    }

    @Test
    void itsOwnSandboxKeepsBashWritesInTheWorktreeAndOffTheNetwork() throws Exception {
        ClaudeCli.requireSandboxTools();
        Path allow = script(
                "allow.sh",
                "#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' "
                        + "'{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'\n");
        Path outside = tmp.resolve("outside");
        Files.createDirectories(outside);
        new ClaudeSettingsWriter(new GitCli())
                .write(
                        repo,
                        new ClaudeSettingsWriter.Spec(
                                allow.toString(), 30, null, List.of(), ClaudeSandboxGrant.closed()));
        java.util.concurrent.atomic.AtomicInteger port = new java.util.concurrent.atomic.AtomicInteger();
        Script script = t -> Script.steps(
                        Reply.bash("printf in > inside.txt; printf out > " + outside.resolve("x.txt")
                                + "; echo write=$?; (echo > /dev/tcp/127.0.0.1/" + port.get()
                                + ") 2>/dev/null; echo connect=$?"),
                        Reply.text("ok"))
                .reply(t);
        try (ScriptedAnthropic api = ScriptedAnthropic.start(script)) {
            port.set(api.port());
            ClaudeCli.Run run = start(api, "write", UUID.randomUUID().toString(), Map.of());
            assertThat(run.exitCode()).as(run.stderr()).isZero();
            assertThat(run.stdout()).contains("\"sandbox_enabled\":true");
            assertThat(repo.resolve("inside.txt")).hasContent("in");
            assertThat(outside.resolve("x.txt")).doesNotExist();
            String result = api.turns().get(1).lastToolResults().get(0);
            assertThat(result).contains("write=1").doesNotContain("connect=0");
        }
    }

    private Path script(String name, String text) throws Exception {
        Path p = tmp.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p;
    }
}
