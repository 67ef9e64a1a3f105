package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.Host;
import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalState;
import dev.paddock.common.Json;
import dev.paddock.sandbox.NewSandbox;
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
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In the {@code worktree} tier Claude Code's own sandbox is the wall around its Bash commands, compiled from the
 * sandbox: the real CLI, started by Paddock against a scripted Messages API. What the policy allows runs inside it
 * (a write outside the worktree fails); what a person approved runs outside it (Paddock answers the CLI's
 * PermissionRequest for that very command); the model's own {@code dangerouslyDisableSandbox} is at most an ask;
 * and a commit, which writes into the repository's git folder, works.
 */
class ClaudeOwnSandboxTest {
    private static final String POLICY = "{\"permissions\": {\"allow\": [\"Bash(touch:*)\", \"Bash(git add:*)\","
            + " \"Bash(git commit:*)\", \"Edit(./**)\"], \"ask\": [\"Bash(cp:*)\"]}}";

    @TempDir
    Path tmp;

    @Test
    void allowedCallsRunInsideItApprovedOnesOutsideAndTheModelCannotStepOutByItself() throws Exception {
        Path bin = ClaudeCli.require();
        ClaudeCli.requireSandboxTools();
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        TempRepo repo = TempRepo.init(tmp.resolve("project"));
        Files.createDirectories(repo.dir().resolve(".paddock"));
        Files.writeString(repo.dir().resolve(".paddock/policy.json"), POLICY);
        repo.git("add", ".paddock/policy.json");
        repo.git("commit", "-q", "-m", "Add the policy");
        Path[] worktree = new Path[1];
        try (ScriptedAnthropic api = ScriptedAnthropic.start(t -> reply(t, outside, worktree[0]));
                Host host = Host.start(
                        PaddockHome.resolve(tmp.resolve("home"), Map.of()), "panel", environment(bin, api))) {
            SandboxRecord s = host.wiring()
                    .sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "Try the walls", null)
                            .agent("claude")
                            .tier(Tier.WORKTREE)
                            .maxRetries(0)
                            .build());
            worktree[0] = s.workspace().worktree();

            Approval copy = await("the copy to wait for a person", () -> pending(host, "cp "));
            host.wiring().approvals().approve(copy.id(), "tester");
            Approval escape = await(
                    "the model's own step outside to wait for a person",
                    () -> pending(host, "touch " + outside.resolve("c.txt")));
            assertThat(escape.reason()).contains("outside the agent's own sandbox");
            host.wiring().approvals().deny(escape.id(), "tester", "stay inside");
            await("the run to end", () -> {
                SandboxState st =
                        host.wiring().sandboxes().find(s.id()).orElseThrow().state();
                return st == SandboxState.DONE || st == SandboxState.FAILED ? st : null;
            });

            JsonNode settings = Json.mapper()
                    .readTree(s.workspace()
                            .worktree()
                            .resolve(ClaudeSettingsWriter.RELATIVE)
                            .toFile());
            assertThat(settings.at("/sandbox/enabled").asBoolean())
                    .as(settings.toString())
                    .isTrue();
            List<String> results = api.turns().stream()
                    .flatMap(t -> t.lastToolResults().stream())
                    .toList();
            String seen = String.join("\n---\n", results);
            // (1) Allowed by the policy, run inside Claude Code's sandbox: the write outside the worktree fails.
            assertThat(outside.resolve("a.txt")).as(seen).doesNotExist();
            assertThat(seen).contains("Read-only file system");
            // (2) Approved by a person: it ran outside Claude Code's sandbox.
            assertThat(outside.resolve("b.txt")).as(seen).exists();
            // (3) The model's own dangerouslyDisableSandbox was asked about, and the person's deny held.
            assertThat(outside.resolve("c.txt")).as(seen).doesNotExist();
            assertThat(seen).contains("stay inside");
            // (4) The commit wrote into the repository's git folder from inside the sandbox.
            assertThat(repo.git("show", s.workspace().branch() + ":in.txt")).isEqualTo("inside\n");
        }
    }

    private static Reply reply(Turn t, Path outside, Path worktree) {
        ObjectNode own = Json.mapper().createObjectNode();
        own.put("command", "touch " + outside.resolve("c.txt"));
        own.put("description", "touch c");
        own.put("dangerouslyDisableSandbox", true);
        return switch (t.turnsSincePrompt()) {
            case 0 -> Reply.bash("touch " + outside.resolve("a.txt"));
            case 1 -> Reply.bash("cp /dev/null " + outside.resolve("b.txt"));
            case 2 -> Reply.tool("Bash", own);
            case 3 -> Reply.write(worktree.resolve("in.txt").toString(), "inside\n");
            case 4 -> Reply.bash("git add in.txt && git commit -q -m 'Add in.txt'");
            default -> Reply.text("Done.");
        };
    }

    private static Approval pending(Host host, String prefix) throws Exception {
        return host.wiring().approvals().list(ApprovalState.PENDING, 10).stream()
                .filter(a -> a.request().startsWith(prefix))
                .findFirst()
                .orElse(null);
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
                Files.createDirectories(tmp.resolve("agent-config")).toString());
        env.put("DISABLE_TELEMETRY", "1");
        env.put("DISABLE_ERROR_REPORTING", "1");
        env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        return env;
    }

    private static <T> T await(String what, Callable<T> value) throws Exception {
        long deadline = System.nanoTime() + ClaudeCli.TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            T v = value.call();
            if (v != null) {
                return v;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out waiting for " + what);
    }
}
