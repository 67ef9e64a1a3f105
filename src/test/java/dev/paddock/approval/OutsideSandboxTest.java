package dev.paddock.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stepping outside Claude Code's own sandbox, through a real running Paddock ({@link BrokerRig}) and its hook route:
 * the model's {@code dangerouslyDisableSandbox} turns the policy's allow into an ask; a person's approval of a Bash
 * call answers with the call set to run outside; and the CLI's PermissionRequest is granted only for a call a person
 * approved, once.
 */
class OutsideSandboxTest {
    private static final String HOOK = "/v1/hooks/claude?sandbox=";

    @TempDir
    Path tmp;

    private static String payload(String event, String command, Path cwd, boolean outside) {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("session_id", "s-1")
                .put("hook_event_name", event)
                .put("tool_name", "Bash")
                .put("cwd", cwd.toString());
        ObjectNode input = n.putObject("tool_input").put("command", command);
        if (outside) {
            input.put(ClaudeHook.OUTSIDE_SANDBOX, true);
        }
        return n.toString();
    }

    private static HttpResponse<String> hook(BrokerRig rig, SandboxRecord s, String payload) throws Exception {
        return rig.call("POST", HOOK + s.id(), payload, rig.installToken());
    }

    @Test
    void theModelsOwnStepOutsideIsAnAskEvenForACommandThePolicyAllows() throws Exception {
        try (BrokerRig rig = BrokerRig.start(tmp.resolve("home"))) {
            TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
            SandboxRecord s = rig.runningSandbox(repo, "Step outside");
            ApprovalBroker broker = rig.host().wiring().approvals();

            assertThat(hook(
                                    rig,
                                    s,
                                    payload(
                                            "PreToolUse",
                                            "git status",
                                            s.workspace().worktree(),
                                            false))
                            .body())
                    .as("inside its sandbox, git status is allowed by the policy")
                    .startsWith("allow\n");
            CompletableFuture<HttpResponse<String>> outside = CompletableFuture.supplyAsync(() -> {
                try {
                    return hook(
                            rig,
                            s,
                            payload("PreToolUse", "git status", s.workspace().worktree(), true));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            BrokerRig.await("the step outside to wait for a person", () -> pendingOf(broker, s) != null);
            Approval asked = pendingOf(broker, s);
            assertThat(asked.reason()).contains("outside the agent's own sandbox");
            broker.deny(asked.id(), "tester", "stay inside");
            assertThat(outside.get(30, TimeUnit.SECONDS).body())
                    .startsWith("deny\n")
                    .contains("stay inside");
        }
    }

    @Test
    void onlyACallAPersonApprovedMayRunOutsideAndOnlyOnce() throws Exception {
        try (BrokerRig rig = BrokerRig.start(tmp.resolve("home"))) {
            TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
            SandboxRecord s = rig.runningSandbox(repo, "Publish");
            ApprovalBroker broker = rig.host().wiring().approvals();

            // Allowed by the policy is not enough to leave the sandbox.
            hook(rig, s, payload("PreToolUse", "git status", s.workspace().worktree(), false));
            String byPolicy = hook(
                            rig,
                            s,
                            payload(
                                    "PermissionRequest",
                                    "git status",
                                    s.workspace().worktree(),
                                    true))
                    .body();
            assertThat(byPolicy)
                    .startsWith("deny\n")
                    .contains("\"hookEventName\":\"PermissionRequest\"")
                    .contains("\"behavior\":\"deny\"");

            CompletableFuture<HttpResponse<String>> push = CompletableFuture.supplyAsync(() -> {
                try {
                    return hook(
                            rig,
                            s,
                            payload(
                                    "PreToolUse",
                                    "git push origin HEAD",
                                    s.workspace().worktree(),
                                    false));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            BrokerRig.await("the push to wait for a person", () -> pendingOf(broker, s) != null);
            // Before anyone approved it, the push may not leave the sandbox.
            assertThat(hook(
                                    rig,
                                    s,
                                    payload(
                                            "PermissionRequest",
                                            "git push origin HEAD",
                                            s.workspace().worktree(),
                                            true))
                            .body())
                    .startsWith("deny\n");
            broker.approve(pendingOf(broker, s).id(), "tester");
            String approved = push.get(30, TimeUnit.SECONDS).body();
            String json = approved.lines().skip(1).findFirst().orElseThrow();
            assertThat(Json.mapper().readTree(json).at("/hookSpecificOutput/updatedInput"))
                    .isEqualTo(Json.mapper()
                            .createObjectNode()
                            .put("command", "git push origin HEAD")
                            .put(ClaudeHook.OUTSIDE_SANDBOX, true));

            // Another command, then the approved one: only the approved one, and once.
            assertThat(hook(
                                    rig,
                                    s,
                                    payload(
                                            "PermissionRequest",
                                            "git push --force origin HEAD",
                                            s.workspace().worktree(),
                                            true))
                            .body())
                    .startsWith("deny\n");
            String granted = hook(
                            rig,
                            s,
                            payload(
                                    "PermissionRequest",
                                    "git push origin HEAD",
                                    s.workspace().worktree(),
                                    true))
                    .body();
            assertThat(granted).startsWith("allow\n").contains("\"behavior\":\"allow\"");
            assertThat(hook(
                                    rig,
                                    s,
                                    payload(
                                            "PermissionRequest",
                                            "git push origin HEAD",
                                            s.workspace().worktree(),
                                            true))
                            .body())
                    .as("each approval lets one call out")
                    .startsWith("deny\n");
        }
    }

    @Test
    void codexsCallsAPersonApprovedAreAnsweredWithoutClaudeCodesField() throws Exception {
        try (BrokerRig rig = BrokerRig.start(tmp.resolve("home"))) {
            TempRepo repo = BrokerRig.repoWithPolicy(tmp.resolve("repo"));
            SandboxRecord s = rig.runningSandbox(repo, "Publish with Codex");
            ApprovalBroker broker = rig.host().wiring().approvals();
            ObjectNode codex = (ObjectNode) Json.mapper()
                    .readTree(payload(
                            "PreToolUse", "git push origin HEAD", s.workspace().worktree(), false));
            codex.put("turn_id", "t-1");
            CompletableFuture<HttpResponse<String>> push = CompletableFuture.supplyAsync(() -> {
                try {
                    return hook(rig, s, codex.toString());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            BrokerRig.await("the push to wait for a person", () -> pendingOf(broker, s) != null);
            broker.approve(pendingOf(broker, s).id(), "tester");
            String body = push.get(30, TimeUnit.SECONDS).body();
            assertThat(body)
                    .startsWith("allow\n")
                    .doesNotContain("updatedInput")
                    .doesNotContain(ClaudeHook.OUTSIDE_SANDBOX);
        }
    }

    private static Approval pendingOf(ApprovalBroker broker, SandboxRecord s) {
        try {
            return broker.list(ApprovalState.PENDING, 10).stream()
                    .filter(a -> a.sandboxId().equals(s.id()))
                    .findFirst()
                    .orElse(null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
