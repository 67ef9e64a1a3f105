package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool call's id that Claude Code's PreToolUse hook sends is stored with its decision, and a sandbox's requests
 * read back in order: what the panel's transcript joins its tool calls with. A real running Paddock
 * ({@link BrokerRig}) with a repository policy and a running agent.
 */
class ApprovalsOfASandboxTest {
    @TempDir
    Path tmp;

    private static String payload(String command, Path cwd, String toolUseId) {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("session_id", "s-1")
                .put("hook_event_name", "PreToolUse")
                .put("tool_name", "Bash")
                .put("cwd", cwd.toString());
        n.putObject("tool_input").put("command", command);
        if (toolUseId != null) {
            n.put("tool_use_id", toolUseId);
        }
        return n.toString();
    }

    @Test
    void theHooksToolUseIdIsStoredWithTheDecisionAndTheSandboxsRequestsComeOldestFirst() throws Exception {
        try (BrokerRig rig = BrokerRig.start(tmp.resolve("home"))) {
            TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
            SandboxRecord s = rig.runningSandbox(repo, "Ask a few things");
            SandboxRecord other = rig.runningSandbox(repo, "Ask elsewhere");
            ApprovalBroker broker = rig.host().wiring().approvals();

            Approval allowed =
                    decide(broker, s, payload("git status", s.workspace().worktree(), "toolu_01A"));
            Approval denied =
                    decide(broker, s, payload("rm -rf build", s.workspace().worktree(), "toolu_01B"));
            Approval without =
                    decide(broker, s, payload("git status", s.workspace().worktree(), null));
            Approval tooLong =
                    decide(broker, s, payload("git status", s.workspace().worktree(), "x".repeat(300)));
            decide(broker, other, payload("git status", other.workspace().worktree(), "toolu_02A"));

            assertThat(allowed.toolUseId()).isEqualTo("toolu_01A");
            assertThat(allowed.allowed()).isTrue();
            assertThat(denied.toolUseId()).isEqualTo("toolu_01B");
            assertThat(denied.state()).isEqualTo(ApprovalState.DENIED);
            assertThat(without.toolUseId()).isNull();
            assertThat(tooLong.toolUseId())
                    .as("an id longer than any Claude Code gives is not kept")
                    .isNull();
            assertThat(broker.find(denied.id()).orElseThrow().toolUseId()).isEqualTo("toolu_01B");

            List<Approval> all = broker.ofSandbox(s.id(), 100);
            assertThat(all)
                    .extracting(Approval::id)
                    .containsExactly(allowed.id(), denied.id(), without.id(), tooLong.id());
            assertThat(broker.ofSandbox(s.id(), 2))
                    .extracting(Approval::id)
                    .as("the newest two, oldest first")
                    .containsExactly(without.id(), tooLong.id());
        }
    }

    @Test
    void eachCallOfTheAgentRenewsItsLeaseAsAHeartbeatWithTheCallAsProgress() throws Exception {
        try (BrokerRig rig = BrokerRig.start(tmp.resolve("home"))) {
            TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
            SandboxRecord s = rig.runningSandbox(repo, "Work without heartbeats");
            java.time.Instant leaseBefore = rig.host()
                    .wiring()
                    .sandboxes()
                    .find(s.id())
                    .orElseThrow()
                    .lease()
                    .expiresAt();
            Thread.sleep(50);

            decide(
                    rig.host().wiring().approvals(),
                    s,
                    payload("git status", s.workspace().worktree(), "toolu_01A"));

            // Heartbeats are written in batches: the lease moves within a few seconds.
            long deadline = System.nanoTime() + 10_000_000_000L;
            SandboxRecord now = rig.host().wiring().sandboxes().find(s.id()).orElseThrow();
            while (!now.lease().expiresAt().isAfter(leaseBefore) && System.nanoTime() < deadline) {
                Thread.sleep(100);
                now = rig.host().wiring().sandboxes().find(s.id()).orElseThrow();
            }
            assertThat(now.lease().expiresAt()).isAfter(leaseBefore);
            assertThat(now.lease().lastHeartbeatAt()).isNotNull();
            assertThat(now.lease().progress()).isEqualTo("Bash: git status");
        }
    }

    private static Approval decide(ApprovalBroker broker, SandboxRecord s, String payload) throws Exception {
        return broker.decide(ClaudeHook.parse(payload).toRequest(s.id())).first();
    }
}
