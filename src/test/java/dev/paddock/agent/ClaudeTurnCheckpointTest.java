package dev.paddock.agent;

import static dev.paddock.testing.AgentRuns.awaitEnd;
import static dev.paddock.testing.AgentRuns.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.checkpoint.CheckpointService;
import dev.paddock.common.Json;
import dev.paddock.testing.AgentRuns.Run;
import dev.paddock.testing.ClaudeCli;
import dev.paddock.testing.ScriptedAnthropic;
import dev.paddock.testing.ScriptedAnthropic.Reply;
import dev.paddock.testing.ScriptedAnthropic.Script;
import dev.paddock.testing.ServeProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints at the end of the real Claude Code CLI's turns: a {@code paddock serve} (child JVM) runs the CLI
 * against a {@link ScriptedAnthropic}; its Bash calls change files in the worktree (allowed by the repository's
 * policy), its Stop hook ends the turn, and Paddock takes one checkpoint "turn ended" per turn that changed something,
 * listing exactly the files the turn changed (none of Paddock's own). A follow-up turn that changes nothing takes none;
 * the next one that does lists only its own change; {@code paddock sandbox rollback ID 1} brings back the first
 * turn's files. Without the CLI it fails when {@code PADDOCK_REQUIRE_CLAUDE=1} (as in CI), else it is skipped
 * ({@link ClaudeCli#require}).
 */
class ClaudeTurnCheckpointTest {
    private static final String TASK = "Add new.txt, drop old.txt and edit the README.";
    private static final String LOOK = "Only look at the tree this time.";
    private static final String ONE_MORE = "Add second.txt too.";
    private static final String POLICY = "{\"permissions\": {\"allow\": [\"Bash(git status)\", \"Bash(touch:*)\","
            + " \"Bash(rm:*)\", \"Bash(sed -i:*)\"], \"deny\": [\"Bash(rm -rf:*)\"]}}";

    @TempDir
    Path tmp;

    @Test
    void eachTurnThatChangedFilesMakesOneCheckpointOfItsChangesAndRollbackBringsTheFirstBack() throws Exception {
        Path bin = ClaudeCli.require();
        Path agentHome = Files.createDirectories(tmp.resolve("agent-home"));
        try (ScriptedAnthropic api = ScriptedAnthropic.start(ClaudeTurnCheckpointTest::reply);
                ServeProcess serve = ServeProcess.start(tmp, ClaudeCli.serveEnvironment(bin, agentHome, api))) {
            Path repo = serve.repo().dir();
            Files.writeString(repo.resolve(".paddock/policy.json"), POLICY);
            Files.writeString(repo.resolve("old.txt"), "old\n");
            serve.repo().git("add", "old.txt");
            serve.repo().git("commit", "-q", "-m", "Add old.txt");
            String home = serve.home().toString();
            Run created = paddock(
                    "--home",
                    home,
                    "sandbox",
                    "new",
                    "--repo",
                    repo.toString(),
                    "--agent",
                    "claude",
                    "--task",
                    TASK,
                    "--json");
            assertThat(created.exit()).as(created.err() + serve.report()).isZero();
            String id = Json.mapper().readTree(created.out()).get("id").asText();

            // Turn 1: three Bash calls (add, delete, modify), then the answer; the Stop hook ends the turn.
            JsonNode s = awaitEnd(serve, id, ClaudeCli.TIMEOUT);
            assertThat(s.get("state").asText())
                    .as(s + log(serve, id) + serve.report())
                    .isEqualTo("done");
            Path worktree = Path.of(s.get("worktreePath").asText());
            assertThat(worktree.resolve("new.txt")).exists();
            assertThat(worktree.resolve("old.txt")).doesNotExist();
            assertThat(Files.readString(worktree.resolve("README.md"))).isEqualTo("# first repository\n");
            List<JsonNode> first = awaitCheckpoints(serve, id, 1);
            assertThat(first.get(0).get("number").asInt()).isEqualTo(1);
            assertThat(first.get(0).get("message").asText()).isEqualTo(CheckpointService.TURN_ENDED);
            assertThat(first.get(0).get("turn").asInt()).isEqualTo(1);
            assertThat(paths(first.get(0), "added")).containsExactly("new.txt");
            assertThat(paths(first.get(0), "modified")).containsExactly("README.md");
            assertThat(paths(first.get(0), "deleted")).containsExactly("old.txt");

            // Turn 2: a follow-up whose only call (git status) changes nothing: its turn ends, no checkpoint.
            say(home, id, LOOK);
            JsonNode looked = awaitRun(serve, id, 2);
            assertThat(looked.get("state").asText()).as(looked + serve.report()).isEqualTo("done");

            // Turn 3: it adds one file; its checkpoint lists that file alone. The checkpoints are taken in the order
            // the turns ended, so two in all (numbered 1 and 2) means turn 2 took none.
            say(home, id, ONE_MORE);
            JsonNode added = awaitRun(serve, id, 3);
            assertThat(added.get("state").asText()).as(added + serve.report()).isEqualTo("done");
            assertThat(worktree.resolve("second.txt")).exists();
            List<JsonNode> all = awaitCheckpoints(serve, id, 2);
            assertThat(all).hasSize(2);
            JsonNode third = all.get(1);
            assertThat(third.get("number").asInt()).isEqualTo(2);
            assertThat(third.get("message").asText()).isEqualTo(CheckpointService.TURN_ENDED);
            assertThat(third.get("turn").asInt()).isEqualTo(3);
            assertThat(paths(third, "added")).containsExactly("second.txt");
            assertThat(paths(third, "modified")).isEmpty();
            assertThat(paths(third, "deleted")).isEmpty();
            // Three turns ended, each once.
            assertThat(detail(serve, id).get("history").findValuesAsText("kind").stream()
                            .filter("agent.turn_ended"::equals)
                            .count())
                    .isEqualTo(3);
            // The CLI lists the same.
            Run listed = paddock("--home", home, "sandbox", "checkpoints", id, "--json");
            assertThat(listed.exit()).as(listed.err()).isZero();
            assertThat(Json.mapper().readTree(listed.out()).get("checkpoints").findValuesAsText("message"))
                    .containsExactly(CheckpointService.TURN_ENDED, CheckpointService.TURN_ENDED);

            // Back to the first turn's files: second.txt goes, the rest is as turn 1 left it.
            Run back = paddock("--home", home, "sandbox", "rollback", id, "1");
            assertThat(back.exit()).as(back.err() + serve.report()).isZero();
            assertThat(back.out())
                    .contains("Rolled " + id + " back to checkpoint 1: 0 restored, 1 removed.")
                    .contains("removed second.txt")
                    .contains("Undo with: paddock sandbox rollback " + id + " 3");
            assertThat(worktree.resolve("second.txt")).doesNotExist();
            assertThat(worktree.resolve("new.txt")).exists();
            assertThat(worktree.resolve("old.txt")).doesNotExist();
            assertThat(Files.readString(worktree.resolve("README.md"))).isEqualTo("# first repository\n");
            List<JsonNode> after = checkpoints(serve, id);
            assertThat(after).hasSize(3);
            assertThat(after.get(2).get("message").asText()).isEqualTo("before rollback to 1");
        }
    }

    /** The model: per prompt, Bash calls in order, then a closing answer. */
    private static Reply reply(ScriptedAnthropic.Turn t) {
        Script script = switch (t.prompt()) {
            case TASK ->
                Script.steps(
                        Reply.bash("touch new.txt"),
                        Reply.bash("rm old.txt"),
                        Reply.bash("sed -i s/test/first/ README.md"),
                        Reply.text("Added, dropped and edited."));
            case LOOK -> Script.steps(Reply.bash("git status"), Reply.text("Nothing to change."));
            case ONE_MORE -> Script.steps(Reply.bash("touch second.txt"), Reply.text("Added second.txt."));
            default -> Script.steps(Reply.text("Done."));
        };
        return script.reply(t);
    }

    private static void say(String home, String id, String text) {
        Run said = paddock("--home", home, "sandbox", "say", id, text);
        assertThat(said.exit()).as(said.err()).isZero();
    }

    /** The sandbox once run {@code run} ended (its follow-up is taken as it starts, so the wait sees that run). */
    private static JsonNode awaitRun(ServeProcess serve, String id, int run) throws Exception {
        long deadline = System.nanoTime() + ClaudeCli.TIMEOUT.toNanos();
        while (true) {
            JsonNode s = awaitEnd(serve, id, ClaudeCli.TIMEOUT);
            if (s.get("iteration").asInt() >= run || System.nanoTime() > deadline) {
                return s;
            }
            Thread.sleep(100);
        }
    }

    /** The checkpoints once there are at least {@code n} (they are taken on the event bus after the turn ends). */
    private static List<JsonNode> awaitCheckpoints(ServeProcess serve, String id, int n) throws Exception {
        long deadline = System.nanoTime() + ClaudeCli.TIMEOUT.toNanos();
        while (true) {
            List<JsonNode> list = checkpoints(serve, id);
            if (list.size() >= n) {
                return list;
            }
            assertThat(System.nanoTime() < deadline)
                    .as("%d checkpoint(s) of %s; have %s%s", n, id, list, serve.report())
                    .isTrue();
            Thread.sleep(100);
        }
    }

    private static List<JsonNode> checkpoints(ServeProcess serve, String id) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        Json.mapper()
                .readTree(serve.call("GET", "/v1/sandboxes/" + id + "/checkpoints", null)
                        .body())
                .get("checkpoints")
                .forEach(out::add);
        return out;
    }

    private static List<String> paths(JsonNode checkpoint, String field) {
        List<String> out = new ArrayList<>();
        checkpoint.get(field).forEach(p -> out.add(p.asText()));
        return out;
    }

    private static JsonNode detail(ServeProcess serve, String id) throws Exception {
        return Json.mapper()
                .readTree(serve.call("GET", "/v1/sandboxes/" + id, null).body());
    }

    private static String log(ServeProcess serve, String id) throws Exception {
        return "\n--- log ---\n"
                + serve.call("GET", "/v1/sandboxes/" + id + "/log", null).body();
    }
}
