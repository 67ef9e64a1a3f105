package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Host;
import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalState;
import dev.paddock.cli.StatusCommandTest.Run;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock sandbox transcript ID [--json]} shows each tool call with what the policy or a person decided about
 * it, the same words as the panel's Transcript tab: the real {@code claude} CLI run by a real Paddock ({@link Host})
 * against a {@link ScriptedAnthropic} whose model runs a command the policy allows, one a person approves, one the
 * policy denies and one a person denies; then the command through the running Paddock's API, and again from the
 * store (H2 file) once that Paddock stopped.
 */
class TranscriptDecisionsCommandTest {
    private static final String POLICY = "{\"permissions\": {\"allow\": [\"Bash(git status)\"],"
            + " \"deny\": [\"Bash(rm -rf:*)\"], \"ask\": [\"Bash(git push:*)\"]}}";

    @TempDir
    Path temp;

    @Test
    void eachToolCallShowsItsDecisionThroughTheApiAndFromTheStore() throws Exception {
        Path bin = ClaudeCli.require();
        Path homeDir = temp.resolve("home");
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        Files.createDirectories(repo.dir().resolve(".paddock"));
        Files.writeString(repo.dir().resolve(".paddock/policy.json"), POLICY);
        repo.git("add", ".paddock/policy.json");
        repo.git("commit", "-q", "-m", "Add the policy");
        String id;
        try (ScriptedAnthropic api = ScriptedAnthropic.start(TranscriptDecisionsCommandTest::reply)) {
            Host host = Host.start(PaddockHome.resolve(homeDir, Map.of()), "serve", environment(bin, api));
            try {
                SandboxRecord s = host.wiring()
                        .sandboxService()
                        .create(NewSandbox.custom(repo.dir(), "Publish the branch.", null)
                                .agent("claude")
                                .tier(Tier.WORKTREE)
                                .maxRetries(0)
                                .build());
                id = s.id();
                Approval push = await("the push to be asked", () -> pending(host, "git push origin HEAD"));
                host.wiring().approvals().approve(push.id(), "ann");
                Approval force = await("the force push to be asked", () -> pending(host, "git push --force"));
                host.wiring().approvals().deny(force.id(), "bob", "no force pushes here");
                await(
                        "the agent to finish",
                        () -> Optional.of(host.wiring().sandboxes().find(s.id()).orElseThrow())
                                .filter(r -> r.state() == SandboxState.DONE)
                                .orElse(null));

                assertDecisions(id, "through the running Paddock's API");
            } finally {
                host.close();
            }
        }
        assertDecisions(id, "from the store, no Paddock running");
    }

    private void assertDecisions(String id, String how) throws Exception {
        Run text = paddock("--home", temp.resolve("home").toString(), "sandbox", "transcript", id);
        Run json = paddock("--home", temp.resolve("home").toString(), "sandbox", "transcript", id, "--json");

        assertThat(text.exit()).as(how + "\n" + text.describe()).isZero();
        List<String> calls = text.out().lines().filter(l -> l.startsWith("-> ")).toList();
        assertThat(calls).as(how + "\n" + text.out()).hasSize(4);
        assertThat(calls.get(0)).contains("git status").endsWith("  [allowed]");
        assertThat(calls.get(1)).contains("git push origin HEAD").endsWith("  [asked · approved by ann]");
        assertThat(calls.get(2))
                .contains("rm -rf build")
                .contains("  [denied: ")
                .contains("Bash(rm -rf:*)");
        assertThat(calls.get(3))
                .contains("git push --force")
                .endsWith("  [asked · denied by bob: no force pushes here]");

        assertThat(json.exit()).as(how + "\n" + json.describe()).isZero();
        List<JsonNode> decisions = new ArrayList<>();
        json.json().get("entries").forEach(e -> {
            if (e.get("type").asText().equals("tool_call")) {
                decisions.add(e.get("decision"));
            }
        });
        assertThat(decisions)
                .extracting(d -> d.get("verdict").asText())
                .as(how)
                .containsExactly("allowed", "approved", "denied", "rejected");
        assertThat(decisions.get(1).get("by").asText()).isEqualTo("ann");
        assertThat(decisions.get(1).get("rule").asText()).isEqualTo("Bash(git push:*)");
        assertThat(decisions.get(3).get("reason").asText()).isEqualTo("no force pushes here");
        assertThat(decisions.get(2).get("approvalId").asLong()).isPositive();
    }

    private static Approval pending(Host host, String commandStart) throws Exception {
        return host.wiring().approvals().list(ApprovalState.PENDING, 10).stream()
                .filter(a -> a.request().startsWith(commandStart))
                .findFirst()
                .orElse(null);
    }

    /** The scripted model: four calls, one per turn, then a last word. */
    private static Reply reply(Turn t) {
        return switch (t.turnsSincePrompt()) {
            case 0 -> Reply.bash("git status");
            case 1 -> Reply.bash("git push origin HEAD");
            case 2 -> Reply.bash("rm -rf build");
            case 3 -> Reply.bash("git push --force origin HEAD");
            default -> Reply.text("Done.");
        };
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

    @FunctionalInterface
    private interface Probe<T> {
        T get() throws Exception;
    }

    private static <T> T await(String what, Probe<T> probe) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            T v = probe.get();
            if (v != null) {
                return v;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out waiting for " + what);
    }
}
