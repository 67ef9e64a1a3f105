package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Host;
import dev.paddock.cli.StatusCommandTest.Run;
import dev.paddock.sandbox.AgentCounts;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxGroup;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.ClaudeCli;
import dev.paddock.testing.ScriptedAnthropic;
import dev.paddock.testing.ScriptedAnthropic.Reply;
import dev.paddock.testing.ScriptedAnthropic.Turn;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock sandbox compare GROUP|ID [--json]} on a fan-out of two real Claude Code agents ({@code claude:2},
 * run by a real Paddock against a {@link ScriptedAnthropic}): each runs a command the policy allows and one it
 * denies, so each row counts two calls, one denied, the failed result, and the tokens and cost Claude Code reports;
 * through the running Paddock's API, then from the store once it stopped; and a sandbox made on its own is refused.
 */
class SandboxCompareCommandTest {
    private static final String POLICY =
            "{\"permissions\": {\"allow\": [\"Bash(git status)\"]," + " \"deny\": [\"Bash(rm -rf:*)\"]}}";

    @TempDir
    Path temp;

    @Test
    void aFanOutsSandboxesOneRowEachThroughTheApiAndFromTheStore() throws Exception {
        Path bin = ClaudeCli.require();
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        Files.createDirectories(repo.dir().resolve(".paddock"));
        Files.writeString(repo.dir().resolve(".paddock/policy.json"), POLICY);
        repo.git("add", ".paddock/policy.json");
        repo.git("commit", "-q", "-m", "Add the policy");
        SandboxGroup g;
        String alone;
        try (ScriptedAnthropic api = ScriptedAnthropic.start(this::reply)) {
            Host host = Host.start(PaddockHome.resolve(home(), Map.of()), "serve", environment(bin, api));
            try {
                g = host.wiring()
                        .sandboxService()
                        .createGroup(
                                NewSandbox.custom(repo.dir(), "Look around.", null)
                                        .tier(Tier.WORKTREE)
                                        .maxRetries(0)
                                        .build(),
                                AgentCounts.parse("claude:2"));
                alone = host.wiring()
                        .sandboxService()
                        .create(NewSandbox.custom(repo.dir(), "Alone", "true")
                                .tier(Tier.WORKTREE)
                                .build())
                        .id();
                long deadline = System.nanoTime() + 120_000_000_000L;
                while (!g.sandboxes().stream().allMatch(s -> state(host, s) == SandboxState.DONE)) {
                    assertThat(System.nanoTime())
                            .as("the agents finish in time")
                            .isLessThan(deadline);
                    Thread.sleep(200);
                }
                assertRows(g, g.id(), "through the running Paddock's API");
            } finally {
                host.close();
            }
        }
        assertRows(g, g.sandboxes().get(1).id(), "from the store, no Paddock running");

        Run refused = paddock("--home", home().toString(), "sandbox", "compare", alone);
        assertThat(refused.exit()).as(refused.describe()).isEqualTo(1);
        assertThat(refused.err()).contains(alone + " was made on its own, not in a fan-out");
        Run unknown = paddock("--home", home().toString(), "sandbox", "compare", "no-such-group");
        assertThat(unknown.exit()).as(unknown.describe()).isEqualTo(1);
        assertThat(unknown.err()).contains("No sandbox no-such-group.");
    }

    private void assertRows(SandboxGroup g, String named, String how) throws Exception {
        Run text = paddock("--home", home().toString(), "sandbox", "compare", named);
        Run json = paddock("--home", home().toString(), "sandbox", "compare", named, "--json");

        assertThat(text.exit()).as(how + "\n" + text.describe()).isZero();
        List<String> lines = text.out().lines().toList();
        assertThat(lines.get(0)).as(how).startsWith("Group " + g.id() + ": 2 sandboxes from main at ");
        assertThat(lines.get(1)).isEqualTo("  task: Look around.");
        assertThat(lines.get(2))
                .as(how)
                .matches("ID +AGENT +STATE +COMMITS +FILES +LINES +TESTS +MERGE +CALLS +DENIED"
                        + " +ERRORS +TOKENS +COST +TIME");
        assertThat(lines).hasSize(5);
        // Two calls, one denied; the denied call's failed result is its denial, not an error of the run.
        for (int i = 0; i < 2; i++) {
            String id = g.sandboxes().get(i).id();
            assertThat(lines.get(3 + i))
                    .as(() -> how + "\n" + text.out() + "\n--- transcript of " + id + " ---\n" + transcript(id))
                    .matches(java.util.regex.Pattern.quote(id) + " +claude +done +0 +0 +\\+0 −0 +– +– +2 +1 +0 +[0-9,]+"
                            + " +\\$[0-9.]+ +[0-9]+s");
        }

        assertThat(json.exit()).as(how + "\n" + json.describe()).isZero();
        JsonNode c = json.json();
        assertThat(c.get("group").asText()).isEqualTo(g.id());
        assertThat(c.get("members")).hasSize(2);
        for (JsonNode m : c.get("members")) {
            assertThat(m.get("agent").asText()).isEqualTo("claude");
            assertThat(m.get("toolCalls").asInt()).isEqualTo(2);
            assertThat(m.get("deniedCalls").asInt()).isEqualTo(1);
            assertThat(m.get("errors").asInt()).as("the denial is no error").isZero();
            assertThat(m.get("tokensIn").asLong()).isPositive();
            assertThat(m.get("costUsd").isNumber()).isTrue();
            assertThat(m.get("testsPassed").isNull()).isTrue();
            assertThat(m.get("commits").asInt()).isZero();
        }
    }

    /** The sandbox's transcript as {@code paddock sandbox transcript} prints it, to say what an error was. */
    private String transcript(String id) {
        try {
            Run t = paddock("--home", home().toString(), "sandbox", "transcript", id);
            return t.out() + t.err();
        } catch (Exception e) {
            return "(the transcript could not be read: " + e + ")";
        }
    }

    private Path home() {
        return temp.resolve("home");
    }

    private static SandboxState state(Host host, SandboxRecord s) {
        try {
            return host.wiring().sandboxes().find(s.id()).orElseThrow().state();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * One agent's sandboxed command at a time: Claude Code's own bubblewrap sandbox makes, mounts over and then
     * deletes placeholder files in the repository's shared {@code .git} ({@code config.lock} among them), so two
     * agents' commands that overlap can fail with "bwrap: Can't get type of source …/.git/config.lock" (Claude
     * Code 2.1.x, seen here); this test counts calls and errors, not that race.
     */
    private final Semaphore sandboxedCommand = new Semaphore(1);

    /** The scripted model: a command the policy allows, one it denies, then a last word. */
    private Reply reply(Turn t) {
        switch (t.turnsSincePrompt()) {
            case 0 -> {
                try {
                    sandboxedCommand.tryAcquire(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Reply.bash("git status");
            }
            case 1 -> {
                sandboxedCommand.release();
                return Reply.bash("rm -rf build");
            }
            default -> {
                return Reply.text("Looked around.");
            }
        }
    }

    private Map<String, String> environment(Path bin, ScriptedAnthropic api) throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("PATH", bin.getParent() + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("ANTHROPIC_BASE_URL", api.baseUrl());
        env.put("ANTHROPIC_API_KEY", ScriptedAnthropic.API_KEY);
        env.remove("ANTHROPIC_AUTH_TOKEN");
        env.remove("CLAUDE_CODE_OAUTH_TOKEN");
        env.put(
                "CLAUDE_CONFIG_DIR",
                Files.createDirectories(temp.resolve("agent-config")).toString());
        env.put("DISABLE_TELEMETRY", "1");
        env.put("DISABLE_ERROR_REPORTING", "1");
        env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        return env;
    }
}
