package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.Tier;
import dev.paddock.testing.CodexCli;
import dev.paddock.testing.ScriptedOpenAI;
import dev.paddock.testing.ScriptedOpenAI.Reply;
import dev.paddock.testing.ScriptedOpenAI.Script;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Codex CLI (the version {@code .ci/run} installs) against a scripted Responses API, in a temporary git
 * repository, driven by the command lines of {@link AgentPreset#CODEX} (with the options of the namespace tier) and
 * read back with {@link CodexJsonParser}.
 */
class CodexCliTest {
    @TempDir
    Path tmp;

    private Path bin;
    private Path repo;
    private Path codexHome;

    @BeforeEach
    void setUp() {
        bin = CodexCli.require();
        repo = TempRepo.init(tmp.resolve("repo")).dir();
        codexHome = tmp.resolve("home").resolve(".codex");
    }

    private static Transcript parse(String stdout) {
        TranscriptParser p = AgentPreset.CODEX.format().newParser();
        return Transcript.EMPTY.plus(p.feed(stdout)).plus(p.finish());
    }

    /** The preset's command line without the program (run with {@link CodexCli#run}). */
    private static List<String> args(List<String> command) {
        return new ArrayList<>(command.subList(1, command.size()));
    }

    @Test
    void runsAScriptedCommandAndPatchAndResumesTheSameThread() throws Exception {
        String task = "-look at the tree (a task that starts with a dash)";
        String followUp = "Say it once more.";
        try (ScriptedOpenAI api = ScriptedOpenAI.start(t -> t.prompt().equals(followUp)
                ? Reply.text("AGAIN.")
                : Script.steps(
                                Reply.exec("git status"),
                                Reply.addFile("notes.txt", "hello from codex"),
                                Reply.text("The tree is clean."))
                        .reply(t))) {
            CodexCli.configure(codexHome, api);
            List<String> own = AgentPreset.CODEX.ownOptions(Tier.NAMESPACE);
            CodexCli.Run run = CodexCli.run(
                    bin,
                    repo,
                    codexHome,
                    args(AgentPreset.CODEX.startCommand(bin.toString(), new AgentTurn(task, null, null, own))),
                    CodexCli.TIMEOUT);
            assertThat(run.exitCode()).as(run.stdout() + run.stderr()).isZero();

            assertThat(api.turns()).as(run.stdout()).hasSize(3);
            assertThat(api.turns().get(0).prompt()).isEqualTo(task);
            assertThat(api.turns().get(1).lastToolResults())
                    .singleElement()
                    .asString()
                    .contains("On branch");
            assertThat(Files.readString(repo.resolve("notes.txt"))).isEqualTo("hello from codex\n");
            api.requests()
                    .forEach(r ->
                            assertThat(r.headers().get("authorization")).isEqualTo("Bearer " + ScriptedOpenAI.API_KEY));

            Transcript t = parse(run.stdout());
            String thread = t.sessionId();
            assertThat(thread).as(run.stdout()).isNotBlank();
            assertThat(t.entries())
                    .anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(TranscriptEntry.ToolCall.class, c -> {
                        assertThat(c.name()).isEqualTo("command_execution");
                        assertThat(c.inputJson()).contains("git status");
                    }));
            assertThat(t.entries())
                    .anySatisfy(e -> assertThat(e)
                            .isInstanceOfSatisfying(
                                    TranscriptEntry.ToolResult.class,
                                    r -> assertThat(r.text()).contains("On branch")));
            assertThat(t.entries())
                    .anySatisfy(e -> assertThat(e).isInstanceOfSatisfying(TranscriptEntry.ToolCall.class, c -> {
                        assertThat(c.name()).isEqualTo("file_change");
                        assertThat(c.inputJson()).contains("notes.txt").contains("add");
                    }));
            assertThat(t.entries()).contains(new TranscriptEntry.Message("assistant", "The tree is clean.", false));
            assertThat(t.entries())
                    .anySatisfy(e -> assertThat(e)
                            .isInstanceOfSatisfying(
                                    TranscriptEntry.Usage.class,
                                    u -> assertThat(u.outputTokens()).isPositive()));

            // The follow-up resumes the same thread: the model is shown the first prompt and answer again.
            CodexCli.Run resumed = CodexCli.run(
                    bin,
                    repo,
                    codexHome,
                    args(AgentPreset.CODEX
                            .followUpCommand(bin.toString(), new AgentTurn(followUp, thread, null, own))
                            .orElseThrow()),
                    CodexCli.TIMEOUT);
            assertThat(resumed.exitCode())
                    .as(resumed.stdout() + resumed.stderr())
                    .isZero();
            ScriptedOpenAI.Turn last = api.turns().get(api.turns().size() - 1);
            assertThat(last.prompt()).isEqualTo(followUp);
            assertThat(last.texts()).contains("user: " + task, "assistant: The tree is clean.");
            Transcript t2 = parse(resumed.stdout());
            assertThat(t2.sessionId()).isEqualTo(thread);
            assertThat(t2.entries()).contains(new TranscriptEntry.Message("assistant", "AGAIN.", false));
        }
    }
}
