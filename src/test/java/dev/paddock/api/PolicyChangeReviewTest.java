package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.paddock.common.Json;
import dev.paddock.policy.PolicyFile;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.testing.BrokerRig;
import dev.paddock.testing.TempRepo;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent cannot change its own policy, end to end on a real running Paddock (store, supervisor, merge queue on its
 * threads, broker, HTTP API): an agent's commit to {@code .paddock/policy.json} waits in the merge queue for a person
 * while the broker's decisions stay those of the old policy; a sandbox's token can neither read the review nor
 * approve it; the install token's approval merges it and the broker then decides with the new policy. A policy in a
 * sandbox's worktree, or linked into one, is never used, whether the hook names the sandbox or not.
 */
class PolicyChangeReviewTest {
    private static final String STRICT =
            "{\"permissions\": {\"allow\": [\"Bash(git status)\"]}, \"unmatched\": \"deny\"}";
    private static final String OPEN = "{\"permissions\": {\"allow\": [\"Bash\"]}}";

    @TempDir
    Path tmp;

    private BrokerRig rig;
    private TempRepo repo;

    @BeforeEach
    void start() throws Exception {
        rig = BrokerRig.start(tmp.resolve("home"));
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile(".paddock/policy.json", STRICT + "\n", "The policy");
        // The policy gate under test, without the review gate before it: a finished sandbox is queued at once.
        HttpResponse<String> auto =
                rig.call("PUT", "/v1/merges/settings?repo=" + repo.dir(), "{\"review\": \"auto\"}", rig.installToken());
        assertThat(auto.statusCode()).as(auto.body()).isEqualTo(200);
    }

    @AfterEach
    void stop() {
        rig.close();
    }

    private HttpResponse<String> decide(SandboxRecord s, String command) throws Exception {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("tool", "Bash")
                .put("cwd", s.workspace().worktree().toString());
        n.putObject("input").put("command", command);
        return rig.call("POST", "/v1/decide", n.toString(), rig.tokenOf(s.id()));
    }

    private String decision(SandboxRecord s, String command) throws Exception {
        HttpResponse<String> r = decide(s, command);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return BrokerRig.json(r).get("decision").asText();
    }

    private JsonNode entryOf(String sandboxId) throws Exception {
        HttpResponse<String> r = rig.call("GET", "/v1/merges?repo=" + repo.dir(), null, rig.installToken());
        for (JsonNode m : BrokerRig.json(r).get("merges")) {
            if (sandboxId.equals(m.path("sandboxId").asText())) {
                return m;
            }
        }
        return null;
    }

    private String stateOf(String sandboxId) {
        try {
            JsonNode e = entryOf(sandboxId);
            return e == null ? "none" : e.get("state").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anAgentsPolicyChangeWaitsForAPersonAndOnlyTheInstallTokenApprovesIt() throws Exception {
        SandboxRecord asker = rig.runningSandbox(repo, "Ask things");
        String before = repo.git("rev-parse", "main").strip();
        assertThat(decision(asker, "touch pwned")).isEqualTo("deny");
        // The agent ends before the review, so it leaves its token where the test can read it (the store keeps
        // only the token's hash).
        Path tokenFile = tmp.resolve("agent-token");
        ObjectNode create = Json.mapper()
                .createObjectNode()
                .put("repo", repo.dir().toString())
                .put("task", "Open up the policy")
                .put(
                        "command",
                        "printf %s \"$PADDOCK_TOKEN\" > '" + tokenFile
                                + "' && printf '%s\\n' '" + OPEN + "' > .paddock/policy.json"
                                + " && git add -A && git commit -qm 'Allow everything'");
        HttpResponse<String> created = rig.call("POST", "/v1/sandboxes", create.toString(), rig.installToken());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String agent = BrokerRig.json(created).get("id").asText();

        BrokerRig.await("the agent's entry waits for a policy review", () -> "policy_review".equals(stateOf(agent)));
        String agentToken = Files.readString(tokenFile);
        assertThat(agentToken).isNotBlank();

        long id = entryOf(agent).get("id").asLong();
        assertThat(repo.git("rev-parse", "main").strip()).as("base unchanged").isEqualTo(before);
        assertThat(Files.readString(PolicyFile.repositoryFile(repo.dir())).strip())
                .isEqualTo(STRICT);
        assertThat(decision(asker, "touch pwned"))
                .as("the policy in force is the old one")
                .isEqualTo("deny");
        HttpResponse<String> asAgent =
                rig.call("POST", "/v1/merges/" + id + "/approve", "{\"by\": \"me\"}", agentToken);
        HttpResponse<String> asOther = rig.call("POST", "/v1/merges/" + id + "/approve", "{}", rig.tokenOf(asker.id()));
        assertThat(asAgent.statusCode()).isEqualTo(403);
        assertThat(asOther.statusCode()).isEqualTo(403);
        assertThat(rig.call("GET", "/v1/merges/" + id + "/review", null, agentToken)
                        .statusCode())
                .isEqualTo(403);
        assertThat(stateOf(agent)).isEqualTo("policy_review");

        HttpResponse<String> review = rig.call("GET", "/v1/merges/" + id + "/review", null, rig.installToken());
        assertThat(review.statusCode()).as(review.body()).isEqualTo(200);
        JsonNode r = BrokerRig.json(review);
        assertThat(r.get("files").get(0).asText()).isEqualTo(".paddock/policy.json");
        assertThat(r.get("diff").asText()).contains("-" + STRICT, "+" + OPEN);
        String reviewed = r.get("reviewCommit").asText();
        HttpResponse<String> wrong = rig.call(
                "POST", "/v1/merges/" + id + "/approve", "{\"commit\": \"" + before + "\"}", rig.installToken());
        assertThat(wrong.statusCode()).as("not the commit under review").isEqualTo(409);

        HttpResponse<String> ok = rig.call(
                "POST",
                "/v1/merges/" + id + "/approve",
                "{\"by\": \"ann\", \"commit\": \"" + reviewed + "\"}",
                rig.installToken());
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);

        BrokerRig.await("the approved entry is merged", () -> "merged".equals(stateOf(agent)));
        assertThat(Files.readString(PolicyFile.repositoryFile(repo.dir())).strip())
                .isEqualTo(OPEN);
        assertThat(decision(asker, "touch pwned"))
                .as("the approved policy applies")
                .isEqualTo("allow");
    }

    @Test
    void aRejectedPolicyChangeLeavesBaseAndThePolicyAsTheyWere() throws Exception {
        SandboxRecord asker = rig.runningSandbox(repo, "Ask things");
        String before = repo.git("rev-parse", "main").strip();
        ObjectNode create = Json.mapper()
                .createObjectNode()
                .put("repo", repo.dir().toString())
                .put("task", "Open up the policy")
                .put(
                        "command",
                        "printf '%s\\n' '" + OPEN + "' > .paddock/policy.json"
                                + " && git add -A && git commit -qm 'Allow everything'");
        String agent = BrokerRig.json(rig.call("POST", "/v1/sandboxes", create.toString(), rig.installToken()))
                .get("id")
                .asText();
        BrokerRig.await("the agent's entry waits for a policy review", () -> "policy_review".equals(stateOf(agent)));
        long id = entryOf(agent).get("id").asLong();

        HttpResponse<String> no = rig.call(
                "POST",
                "/v1/merges/" + id + "/reject",
                "{\"by\": \"ann\", \"reason\":" + " \"no\"}",
                rig.installToken());

        assertThat(no.statusCode()).as(no.body()).isEqualTo(200);
        assertThat(BrokerRig.json(no).get("state").asText()).isEqualTo("cancelled");
        assertThat(repo.git("rev-parse", "main").strip()).isEqualTo(before);
        assertThat(decision(asker, "touch pwned")).isEqualTo("deny");
    }

    @Test
    void aPolicyInASandboxWorktreeOrLinkedIntoOneIsNeverUsedByTheHook() throws Exception {
        Files.writeString(PolicyFile.globalFile(rig.home().dir()), "{\"unmatched\": \"deny\"}");
        SandboxRecord s = rig.runningSandbox(repo, "Write my own policy");
        Path own = PolicyFile.repositoryFile(s.workspace().worktree());
        Files.writeString(own, OPEN); // what the agent would write in its worktree

        assertThat(hook(s.id(), s.workspace().worktree(), rig.installToken()))
                .as("named sandbox")
                .startsWith("deny\n");
        assertThat(hook(null, s.workspace().worktree(), rig.installToken()))
                .as("found by its cwd")
                .startsWith("deny\n");
        assertThat(hook(null, s.workspace().worktree().resolve("src"), rig.installToken()))
                .startsWith("deny\n");
        assertThat(hook(null, s.workspace().worktree(), rig.tokenOf(s.id())))
                .as("its own token")
                .startsWith("deny\n");
        assertThat(decision(s, "touch x")).isEqualTo("deny");

        // The main worktree's .paddock made a link to the sandbox's own: refused, everything denied.
        Path mainPaddock = repo.dir().resolve(".paddock");
        Files.delete(PolicyFile.repositoryFile(repo.dir()));
        Files.delete(mainPaddock);
        Files.createSymbolicLink(mainPaddock, own.getParent());
        String linked = hook(s.id(), s.workspace().worktree(), rig.installToken());
        assertThat(linked).startsWith("deny\n").contains("sandbox folder");
        assertThat(decision(s, "git status")).isEqualTo("deny");
    }

    @Test
    void aPersonStillWritesThePolicyWithApproveAndAlwaysAllowWhileTheAgentCannot() throws Exception {
        Path policy = PolicyFile.repositoryFile(repo.dir());
        Files.writeString(policy, "{\"permissions\": {\"allow\": [\"Write\", \"Edit\", \"Bash(echo:*)\"]}}");
        rig.approvalTimeout(30_000); // unmatched requests are asked
        SandboxRecord s = rig.runningSandbox(repo, "Install things");
        ObjectNode write = Json.mapper()
                .createObjectNode()
                .put("tool", "Write")
                .put("cwd", s.workspace().worktree().toString());
        write.putObject("input").put("file_path", policy.toString()).put("content", OPEN);
        HttpResponse<String> agentWrite = rig.call("POST", "/v1/decide", write.toString(), rig.tokenOf(s.id()));
        assertThat(BrokerRig.json(agentWrite).get("decision").asText())
                .as(agentWrite.body())
                .isEqualTo("deny");
        assertThat(BrokerRig.json(agentWrite).get("reason").asText()).contains("built-in rule");
        assertThat(decision(s, "echo '" + OPEN + "' > " + policy)).isEqualTo("deny");

        java.util.concurrent.CompletableFuture<HttpResponse<String>> asked =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try {
                        return decide(s, "npm install left-pad");
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
        long[] id = {0};
        BrokerRig.await("the npm install request is pending", () -> {
            try {
                JsonNode list = BrokerRig.json(rig.call("GET", "/v1/approvals?state=pending", null, rig.installToken()))
                        .get("approvals");
                id[0] = list.size() == 0 ? 0 : list.get(0).get("id").asLong();
                return id[0] != 0;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        HttpResponse<String> allow =
                rig.call("POST", "/v1/approvals/" + id[0] + "/allow", "{\"by\": \"ann\"}", rig.installToken());

        assertThat(allow.statusCode()).as(allow.body()).isEqualTo(200);
        assertThat(BrokerRig.json(asked.get()).get("decision").asText()).isEqualTo("allow");
        String rule = BrokerRig.json(allow).get("rule").asText();
        assertThat(rule).startsWith("Bash(npm install");
        assertThat(Files.readString(policy)).contains(rule);
        assertThat(decision(s, "npm install other")).isEqualTo("allow");
        assertThat(BrokerRig.json(rig.call("POST", "/v1/decide", write.toString(), rig.tokenOf(s.id())))
                        .get("decision")
                        .asText())
                .as("the agent still cannot write it")
                .isEqualTo("deny");
    }

    /** The hook's call as the script sends it; returns the three-line answer. */
    private String hook(String sandbox, Path cwd, String token) throws Exception {
        ObjectNode n = Json.mapper()
                .createObjectNode()
                .put("hook_event_name", "PreToolUse")
                .put("tool_name", "Bash")
                .put("cwd", cwd.toString())
                .put("session_id", "s");
        n.putObject("tool_input").put("command", "touch x");
        HttpResponse<String> r = rig.call(
                "POST", "/v1/hooks/claude" + (sandbox == null ? "" : "?sandbox=" + sandbox), n.toString(), token);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body().stripLeading();
    }
}
