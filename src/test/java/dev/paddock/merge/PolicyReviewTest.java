package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.events.Event;
import dev.paddock.policy.Decision;
import dev.paddock.policy.PolicyEngine;
import dev.paddock.policy.PolicyFile;
import dev.paddock.policy.PolicyGuard;
import dev.paddock.policy.ToolRequest;
import dev.paddock.policy.Verdict;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A branch that changes policy or hook configuration waits in the merge queue for a person, and the policy in force
 * (read from the main worktree, as the broker reads it) does not change until one approves the exact commit they
 * reviewed: real repositories, a real store, the real queue driven step by step.
 */
class PolicyReviewTest {
    static final String STRICT = "{\"permissions\": {\"allow\": [\"Bash(git status)\"]}, \"unmatched\": \"deny\"}\n";
    static final String OPEN = "{\"permissions\": {\"allow\": [\"Bash\"]}}\n";
    private static final String POLICY = ".paddock/policy.json";

    @TempDir
    Path tmp;

    MergeRig rig;
    Path paddockHome;
    Path userHome;

    @BeforeEach
    void setUp() throws Exception {
        rig = new MergeRig(tmp);
        rig.repo.commitFile(POLICY, STRICT, "Add the policy");
        paddockHome = Files.createDirectories(tmp.resolve("paddock-home"));
        userHome = Files.createDirectories(tmp.resolve("user"));
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /** What the policy in force decides for {@code command} run in the main worktree. */
    private Decision inForce(String command) {
        return new PolicyEngine(
                        PolicyFile.loadStandard(paddockHome, rig.repo.dir(), rig.repo.dir(), userHome),
                        new PolicyGuard(paddockHome))
                .decide(ToolRequest.bash(command, rig.repo.dir()));
    }

    private Event lastEvent(String kind) throws Exception {
        java.util.List<String> kinds = rig.kinds();
        return rig.recent().stream()
                .filter(e -> e.kind().equals(kind))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " event in " + kinds));
    }

    @Test
    void aBranchChangingThePolicyWaitsForAPersonAndThePolicyInForceChangesOnlyAfterApproval() throws Exception {
        String tip = rig.branch("agent/open", POLICY, OPEN);
        String before = rig.main();
        assertThat(inForce("touch pwned").verdict()).isEqualTo(Verdict.DENY);
        MergeEntry e = rig.enqueue("agent/open");

        assertThat(rig.queue.runNext(rig.repoId)).isTrue();

        MergeEntry waiting = rig.entry(e.id());
        assertThat(waiting.state()).isEqualTo(MergeState.POLICY_REVIEW);
        assertThat(waiting.state().isFinished()).isFalse();
        assertThat(waiting.state().isRetryable()).isFalse();
        assertThat(waiting.attempt().result()).contains(POLICY, "approve or reject");
        assertThat(rig.main()).isEqualTo(before);
        assertThat(Files.readString(rig.repo.dir().resolve(POLICY))).isEqualTo(STRICT);
        assertThat(inForce("touch pwned").verdict())
                .as("the policy in force is unchanged")
                .isEqualTo(Verdict.DENY);
        Event review = lastEvent("merge.policy_review");
        assertThat(review.message()).contains(POLICY, "waits for a person");
        JsonNode details = Json.mapper().readTree(review.details());
        assertThat(details.path("files").get(0).asText()).isEqualTo(POLICY);
        assertThat(details.path("commit").asText()).isEqualTo(tip);
        assertThat(rig.queue.runNext(rig.repoId))
                .as("the queue does not take it again by itself")
                .isFalse();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.POLICY_REVIEW);

        PolicyDiff diff = rig.service.policyDiff(e.id());
        assertThat(diff.files()).containsExactly(POLICY);
        assertThat(diff.reviewCommit()).isEqualTo(tip);
        assertThat(diff.baseCommit()).isEqualTo(before);
        assertThat(diff.text())
                .contains("--- a/" + POLICY, "+++ b/" + POLICY, "-" + STRICT.strip(), "+" + OPEN.strip());

        MergeEntry approved = rig.service.approvePolicy(e.id(), "ann", tip.substring(0, 10));
        assertThat(approved.state()).isEqualTo(MergeState.QUEUED);
        assertThat(rig.service.review(e.id()).approvedCommit()).isEqualTo(tip);
        assertThat(rig.service.review(e.id()).approvedBy()).isEqualTo("ann");
        assertThat(lastEvent("merge.policy_approved").message()).contains("ann", POLICY);
        assertThat(inForce("touch pwned").verdict())
                .as("approval alone changes no file")
                .isEqualTo(Verdict.DENY);
        rig.drain();

        MergeEntry merged = rig.entry(e.id());
        assertThat(merged.state()).as(merged.attempt().result()).isEqualTo(MergeState.MERGED);
        assertThat(rig.main()).isEqualTo(merged.attempt().mergeCommit());
        assertThat(Files.readString(rig.repo.dir().resolve(POLICY))).isEqualTo(OPEN);
        assertThat(inForce("touch pwned").verdict())
                .as("the approved policy applies")
                .isEqualTo(Verdict.ALLOW);
    }

    @Test
    void aRejectedPolicyChangeIsCancelledAndBaseKeepsNothingOfIt() throws Exception {
        String tip = rig.branch("agent/open", POLICY, OPEN);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/open");
        rig.queue.runNext(rig.repoId);

        MergeEntry rejected = rig.service.rejectPolicy(e.id(), "ann", "allows everything");

        assertThat(rejected.state()).isEqualTo(MergeState.CANCELLED);
        assertThat(rejected.attempt().result()).contains("rejected by ann", "allows everything");
        assertThat(lastEvent("merge.policy_rejected").message()).contains("ann", "unchanged");
        rig.drain();
        assertThat(rig.main()).isEqualTo(before);
        assertThat(TempRepo.run(rig.repo.dir(), "merge-base", "--is-ancestor", tip, "main")
                        .exitCode())
                .isNotZero();
        assertThat(Files.readString(rig.repo.dir().resolve(POLICY))).isEqualTo(STRICT);
        assertThat(inForce("touch pwned").verdict()).isEqualTo(Verdict.DENY);
        assertThatThrownBy(() -> rig.service.approvePolicy(e.id(), "ann", null))
                .isInstanceOfSatisfying(
                        MergeException.class, x -> assertThat(x.kind()).isEqualTo(MergeException.Kind.CONFLICT));

        MergeEntry retried = rig.service.retry(e.id(), "ann");
        assertThat(retried.state()).isEqualTo(MergeState.QUEUED);
        rig.queue.runNext(rig.repoId);
        assertThat(rig.entry(e.id()).state()).as("a retry is reviewed again").isEqualTo(MergeState.POLICY_REVIEW);
    }

    @Test
    void aBranchThatMovesAfterTheApprovalIsReviewedAgain() throws Exception {
        String first = rig.branch("agent/open", POLICY, OPEN);
        MergeEntry e = rig.enqueue("agent/open");
        rig.queue.runNext(rig.repoId);
        rig.service.approvePolicy(e.id(), "ann", first);
        Path wt = rig.repo.dir().resolve(".worktrees/agent-open");
        TempRepo.write(wt, "notes.txt", "one more commit after the review\n");
        String second = TempRepo.commitAll(wt, "More");
        String before = rig.main();

        rig.queue.runNext(rig.repoId);

        MergeEntry again = rig.entry(e.id());
        assertThat(again.state()).isEqualTo(MergeState.POLICY_REVIEW);
        assertThat(rig.service.review(e.id()).reviewCommit()).isEqualTo(second);
        assertThat(rig.main()).isEqualTo(before);
        assertThat(inForce("touch pwned").verdict()).isEqualTo(Verdict.DENY);
        assertThatThrownBy(() -> rig.service.approvePolicy(e.id(), "ann", first))
                .as("an approval of what was reviewed before")
                .isInstanceOfSatisfying(
                        MergeException.class, x -> assertThat(x.getMessage()).contains("look at its diff again"));
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.POLICY_REVIEW);

        rig.service.approvePolicy(e.id(), "ann", second);
        rig.drain();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(inForce("touch pwned").verdict()).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void changesToClaudeSettingsWaitForAReviewToo() throws Exception {
        rig.repo.commitFile(
                ".claude/settings.json",
                "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"*\", \"hooks\":"
                        + " [{\"type\": \"command\", \"command\": \"/home/me/.paddock/bin/paddock-hook-claude\"}]}]}}\n",
                "Install the hook");
        String before = rig.main();
        rig.repo.git("branch", "agent/unhook", "main");
        Path wt = rig.repo.addWorktreeOnBranch(rig.repo.dir().resolve(".worktrees/agent-unhook"), "agent/unhook");
        Files.delete(wt.resolve(".claude/settings.json")); // the hook is gone for every later sandbox
        TempRepo.commitAll(wt, "Drop the settings");
        rig.branch("agent/local", ".claude/settings.local.json", "{\"permissions\": {\"allow\": [\"Bash\"]}}\n");
        rig.branch("agent/case", ".Claude/settings.json", "{}\n");
        MergeEntry unhook = rig.enqueue("agent/unhook");
        MergeEntry local = rig.enqueue("agent/local");
        MergeEntry upper = rig.enqueue("agent/case");

        rig.drain();

        for (MergeEntry e : new MergeEntry[] {unhook, local, upper}) {
            assertThat(rig.entry(e.id()).state()).as(e.request().branch()).isEqualTo(MergeState.POLICY_REVIEW);
        }
        assertThat(rig.service.policyDiff(unhook.id()).text()).contains("deleted file", "-{\"hooks\"");
        assertThat(rig.main()).isEqualTo(before);
        assertThat(rig.repo.dir().resolve(".claude/settings.json")).exists();
        assertThat(rig.repo.dir().resolve(".claude/settings.local.json")).doesNotExist();
    }

    @Test
    void aBranchMakingTheConfigurationFolderALinkWaitsForAReview() throws Exception {
        rig.repo.git("branch", "agent/link", "main");
        Path wt = rig.repo.addWorktreeOnBranch(rig.repo.dir().resolve(".worktrees/agent-link"), "agent/link");
        Files.delete(wt.resolve(POLICY));
        Files.delete(wt.resolve(".paddock"));
        Files.createSymbolicLink(wt.resolve(".paddock"), Path.of(".worktrees/agent-link/evil"));
        TempRepo.commitAll(wt, "Point the policy at my own folder");
        MergeEntry e = rig.enqueue("agent/link");

        rig.drain();

        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.POLICY_REVIEW);
        assertThat(rig.service.policyDiff(e.id()).files()).contains(".paddock", POLICY);
    }

    @Test
    void aRebaseThatWouldRevertAPersonsPolicyEditStopsBeforeBaseMoves() throws Exception {
        // The branch changes the policy and changes it back (no change of its own in all), while a person makes the
        // same first change on base: a rebase drops the branch's first commit as already applied and replays the
        // second, which would silently revert the person's edit.
        String edited = STRICT.replace("Bash(git status)", "Bash(git status)\", \"Bash(npm test)");
        rig.repo.git("branch", "agent/flip", "main");
        Path wt = rig.repo.addWorktreeOnBranch(rig.repo.dir().resolve(".worktrees/agent-flip"), "agent/flip");
        TempRepo.write(wt, POLICY, edited);
        TempRepo.commitAll(wt, "Allow npm test");
        TempRepo.write(wt, POLICY, STRICT);
        TempRepo.write(wt, "src/App.java", "class App {}\n");
        String tip = TempRepo.commitAll(wt, "Back again, and some code");
        rig.repo.commitFile(POLICY, edited, "A person allows npm test");
        rig.service.configure(rig.repo.dir(), "rebase", "", 60_000L, 3);
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/flip");

        rig.drain();

        MergeEntry stopped = rig.entry(e.id());
        assertThat(stopped.state()).as(stopped.attempt().result()).isEqualTo(MergeState.POLICY_REVIEW);
        assertThat(rig.kinds())
                .as("stopped after the rebase, not before the attempt")
                .contains("merge.updating");
        assertThat(stopped.attempt().mergeCommit()).isNull();
        assertThat(stopped.attempt().worktree()).isNull();
        assertThat(rig.main()).isEqualTo(before);
        assertThat(Files.readString(rig.repo.dir().resolve(POLICY))).isEqualTo(edited);
        assertThat(inForce("npm test").verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(rig.service.review(e.id()).reviewCommit()).isEqualTo(tip);
        assertThat(MergeGit.mergeRoot(rig.repo.dir()).toFile().list()).isNullOrEmpty();
    }

    @Test
    void anApprovedPolicyChangeThatConflictsIsNeverResolvedAutomatically() throws Exception {
        rig.close();
        rig = MergeRig.classified(tmp.resolve("auto"));
        String hook = ".claude/hooks/Guard.java";
        String base = "package hooks;\n\nimport java.util.List;\nimport java.util.Map;\n\nclass Guard {\n"
                + "    List<String> allowed;\n    Map<String, Integer> counts;\n}\n";
        rig.repo.commitFile(hook, base, "Add the hook");
        String tip = rig.branch(
                "agent/hook",
                hook,
                base.replace("import java.util.Map;\n", "import java.util.Map;\nimport java.time.Instant;\n"));
        rig.repo.commitFile(
                hook,
                base.replace("import java.util.Map;\n", "import java.util.Map;\n" + "import java.util.Optional;\n"),
                "Base imports Optional");
        rig.service.configure(rig.repo.dir(), null, "", 60_000L, 3, "apply");
        String before = rig.main();
        MergeEntry e = rig.enqueue("agent/hook");
        rig.drain();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.POLICY_REVIEW);

        rig.service.approvePolicy(e.id(), "ann", tip);
        rig.drain();

        MergeEntry after = rig.entry(e.id());
        assertThat(after.state()).as(after.attempt().result()).isEqualTo(MergeState.CONFLICT);
        assertThat(rig.store.conflicts(e.id()))
                .extracting(MergeStore.StoredConflict::path)
                .containsExactly(hook);
        assertThat(rig.store.conflicts(e.id())).noneMatch(MergeStore.StoredConflict::resolved);
        assertThat(lastEvent("merge.conflict").message())
                .contains("policy or hook configuration, which a person" + " resolves");
        assertThat(rig.main()).isEqualTo(before);
    }

    @Test
    void aSandboxWaitsForAPersonWhileItsPolicyChangeIsReviewed() throws Exception {
        rig.branch("agent/s1", POLICY, OPEN);
        SandboxRecords.done(rig, "s1", "agent/s1", Tier.WORKTREE, false, null, null);

        assertThat(rig.queue.enqueueFinished()).isEqualTo(1);
        rig.drain();

        MergeEntry e = rig.store.openOf("s1").orElseThrow();
        assertThat(e.state()).isEqualTo(MergeState.POLICY_REVIEW);
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.AWAITING_HUMAN);
        assertThatThrownBy(() -> rig.service.enqueueSandbox("s1", "ann"))
                .as("one open entry per sandbox")
                .isInstanceOf(MergeException.class);

        rig.service.approvePolicy(e.id(), "ann", null);
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.MERGING);
        rig.drain();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.sandboxes.find("s1").orElseThrow().state()).isEqualTo(SandboxState.MERGED);
    }

    @Test
    void theReviewOutlivesARestartOfPaddock() throws Exception {
        String tip = rig.branch("agent/open", POLICY, OPEN);
        MergeEntry e = rig.enqueue("agent/open");
        rig.queue.runNext(rig.repoId);
        rig.close();

        rig = new MergeRig(tmp, rig.repo.dir());
        rig.queue.recover();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.POLICY_REVIEW);
        rig.drain();
        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.POLICY_REVIEW);
        rig.service.approvePolicy(e.id(), "ann", tip);
        rig.close();

        rig = new MergeRig(tmp, rig.repo.dir());
        rig.queue.recover();
        rig.drain();
        assertThat(rig.entry(e.id()).state())
                .as("the approval was stored with the commit")
                .isEqualTo(MergeState.MERGED);
    }

    @Test
    void aCancelledReviewIsARejection() throws Exception {
        rig.branch("agent/open", POLICY, OPEN);
        MergeEntry e = rig.enqueue("agent/open");
        rig.queue.runNext(rig.repoId);

        MergeEntry cancelled = rig.service.cancel(e.id(), "ann");

        assertThat(cancelled.state()).isEqualTo(MergeState.CANCELLED);
        assertThat(Files.readString(rig.repo.dir().resolve(POLICY))).isEqualTo(STRICT);
    }

    @Test
    void aRepositoryJGitCannotReadIsCheckedByGitItself() throws Exception {
        rig.close();
        Path dir = tmp.resolve("sha256");
        Files.createDirectories(dir);
        TempRepo.git(dir, "init", "-q", "--object-format=sha256", "--initial-branch=main");
        TempRepo.git(dir, "config", "user.name", TempRepo.USER_NAME);
        TempRepo.git(dir, "config", "user.email", TempRepo.USER_EMAIL);
        TempRepo.write(dir, POLICY, STRICT);
        TempRepo.write(dir, ".git/info/exclude", "/.worktrees/\n");
        TempRepo.commitAll(dir, "The policy");
        rig = new MergeRig(tmp.resolve("sha256-rig"), dir);
        String tip = rig.branch("agent/open", POLICY, OPEN);
        assertThat(tip).hasSize(64);
        MergeEntry e = rig.enqueue("agent/open");

        rig.drain();

        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.POLICY_REVIEW);
        assertThat(rig.service.policyDiff(e.id()).text()).contains("+" + OPEN.strip());
        rig.service.approvePolicy(e.id(), "ann", tip);
        rig.drain();
        assertThat(rig.entry(e.id()).state())
                .as(rig.entry(e.id()).attempt().result())
                .isEqualTo(MergeState.MERGED);
        assertThat(Files.readString(dir.resolve(POLICY))).isEqualTo(OPEN);
    }

    @Test
    void aBranchThatLeavesConfigurationAloneIsMergedWithoutAReview() throws Exception {
        rig.branch("agent/code", "src/App.java", "class App {}\n");
        MergeEntry e = rig.enqueue("agent/code");

        rig.drain();

        assertThat(rig.entry(e.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.kinds()).doesNotContain("merge.policy_review");
        assertThatThrownBy(() -> rig.service.policyDiff(e.id()))
                .isInstanceOf(MergeException.class)
                .hasMessageContaining("nothing to review");
    }
}
