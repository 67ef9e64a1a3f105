package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.agent.AgentOptions;
import dev.paddock.agent.PresetPrograms;
import dev.paddock.worktree.GitCli;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fan-out on real parts: a real store and a real git repository, where each sandbox of the group gets its own
 * worktree on its own branch; a request git or the store would refuse makes nothing, and a failure part way is
 * reported sandbox by sandbox.
 */
class FanOutTest {
    @TempDir
    Path tmp;

    private SandboxRig rig;
    private SandboxService service;

    @BeforeEach
    void open() throws Exception {
        rig = new SandboxRig(tmp);
        PresetPrograms presets = new PresetPrograms(
                tmp.resolve("home"),
                tmp,
                new GitCli(),
                () -> 60_000,
                System::getenv,
                AgentOptions.stored(rig.settings, rig.repoService));
        rig.creator.agentPrograms(presets);
        rig.launcher.agentPrograms(presets);
        service = rig.service();
    }

    @AfterEach
    void close() {
        rig.close();
    }

    private NewSandbox.Builder task(String text) {
        return NewSandbox.builder().repository(rig.repo.dir()).task(text).maxRetries(0);
    }

    @Test
    void aFanOutOfThreeMakesThreeSandboxesOnTheirOwnBranchesInOneGroup() throws Exception {
        SandboxGroup group =
                service.createGroup(task("Fix the login timeout").build(), AgentCounts.parse("claude:2,codex:1"));

        String g = group.id();
        assertThat(g).matches("fix-login-timeout-\\d{8}-001");
        assertThat(group.sandboxes())
                .extracting(SandboxRecord::id)
                .containsExactly(g + "-claude-1", g + "-claude-2", g + "-codex-1");
        assertThat(group.sandboxes())
                .extracting(rec -> rec.workspace().branch())
                .containsExactly(
                        "agent/fix-login-timeout-claude-1",
                        "agent/fix-login-timeout-claude-2",
                        "agent/fix-login-timeout-codex-1");
        assertThat(group.sandboxes())
                .extracting(rec -> rec.spec().agent())
                .containsExactly("claude", "claude", "codex");
        // Each agent's own default tier: Claude Code asks Paddock (worktree), Codex does not (namespace).
        assertThat(group.sandboxes())
                .extracting(rec -> rec.spec().tier())
                .containsExactly(Tier.WORKTREE, Tier.WORKTREE, Tier.NAMESPACE);
        for (SandboxRecord s : group.sandboxes()) {
            rig.awaitFingerprint(s.id());
            SandboxRecord stored = rig.find(s.id());
            assertThat(stored.spec().group()).isEqualTo(g);
            assertThat(stored.state()).isEqualTo(SandboxState.PENDING);
            assertThat(rig.repo
                            .git("-C", stored.workspace().worktreePath(), "rev-parse", "--abbrev-ref", "HEAD")
                            .strip())
                    .isEqualTo(stored.workspace().branch());
            assertThat(stored.workspace().baseCommit()).isEqualTo(rig.repo.head());
        }
        // A sandbox of the same task made on its own later takes the next number, and no group.
        SandboxRecord alone =
                service.create(task("Fix the login timeout").agent("claude").build());
        rig.awaitFingerprint(alone.id());
        assertThat(alone.id()).isEqualTo(g.substring(0, g.length() - 3) + "002");
        assertThat(alone.workspace().branch()).isEqualTo("agent/fix-login-timeout");
        assertThat(rig.find(alone.id()).spec().group()).isNull();

        // A second fan-out of the task gets branches of its own.
        SandboxGroup again = service.createGroup(task("Fix the login timeout").build(), AgentCounts.parse("codex"));
        rig.awaitFingerprint(again.sandboxes().get(0).id());
        assertThat(again.id()).isEqualTo(g.substring(0, g.length() - 3) + "003");
        assertThat(again.sandboxes().get(0).workspace().branch()).isEqualTo("agent/fix-login-timeout-2-codex-1");
    }

    @Test
    void aGivenIdAndBranchNameTheGroupAndTheBaseOfItsBranches() throws Exception {
        SandboxGroup group = service.createGroup(
                task("Port the parser")
                        .id("port")
                        .branch("feature/port")
                        .tier(Tier.WORKTREE)
                        .build(),
                AgentCounts.parse("gemini:1, aider:2"));

        group.sandboxes().forEach(s -> rig.awaitFingerprint(s.id()));
        assertThat(group.id()).isEqualTo("port");
        assertThat(group.sandboxes())
                .extracting(SandboxRecord::id, rec -> rec.workspace().branch())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("port-gemini-1", "feature/port-gemini-1"),
                        org.assertj.core.groups.Tuple.tuple("port-aider-1", "feature/port-aider-1"),
                        org.assertj.core.groups.Tuple.tuple("port-aider-2", "feature/port-aider-2"));
        assertThat(group.sandboxes()).extracting(rec -> rec.spec().tier()).containsOnly(Tier.WORKTREE);
    }

    @Test
    void aBranchNameGitRefusesIsRefusedBeforeAnythingIsMade() throws Exception {
        assertThatThrownBy(() -> service.createGroup(
                        task("Refactor").branch("bad..name").build(), AgentCounts.parse("claude:2")))
                .isInstanceOf(SandboxException.class)
                .hasMessageStartingWith("Git refuses the branch name bad..name-claude-1 of the fan-out's sandbox ")
                .hasMessageEndingWith("Nothing was created; give another --branch.");
        // A base git takes whose sandboxes' branches it does not (a component starting with a dot).
        assertThatThrownBy(() ->
                        service.createGroup(task("Refactor").branch("topic/.x").build(), AgentCounts.parse("codex")))
                .isInstanceOf(SandboxException.class)
                .hasMessageStartingWith("Git refuses the branch name topic/.x-codex-1 of the fan-out's sandbox ");
        assertNothingMadeBut(0);
    }

    @Test
    void aBranchCheckedOutElsewhereOrAModelForTwoAgentsIsRefusedAndNothingIsMade() throws Exception {
        rig.repo.addWorktree(tmp.resolve("elsewhere"), "topic-codex-1");

        assertThatThrownBy(() -> service.createGroup(
                        task("Refactor").branch("topic").build(), AgentCounts.parse("claude:2,codex:1")))
                .isInstanceOf(SandboxConflictException.class)
                .hasMessageContaining("The branch topic-codex-1 of the fan-out's sandbox ")
                .hasMessageContaining(
                        "is checked out in " + tmp.resolve("elsewhere").toRealPath());
        assertThatThrownBy(() -> service.createGroup(
                        task("Refactor").model("opus").build(), AgentCounts.parse("claude:2,codex:1")))
                .hasMessage("A model (--model) is one agent's: this fan-out runs claude, codex. Leave the model out,"
                        + " or fan out to one agent.");
        assertThatThrownBy(() -> service.createGroup(task("Refactor").build(), AgentCounts.parse("claude,cursor:2")))
                .hasMessageStartingWith("Unknown agent \"cursor\"");
        assertThatThrownBy(() -> service.createGroup(
                        task("Refactor").id("x".repeat(55)).build(), AgentCounts.parse("claude:2,gemini:12")))
                .hasMessageStartingWith("The id " + "x".repeat(55) + " is too long for this fan-out")
                .hasMessageEndingWith("Give an id of at most 54 characters.");
        assertNothingMadeBut(0);
    }

    @Test
    void aFailurePartWayReportsWhatWasMadeWhatFailedAndWhatWasNotTried() throws Exception {
        // Someone takes the third sandbox's branch while the fan-out runs: checked out elsewhere by then.
        AtomicInteger made = new AtomicInteger();
        GroupCreator groups = new GroupCreator(rig.creator, rig.repoService, rig.worktrees, rig.store);
        Runnable race = () -> {
            if (made.incrementAndGet() == 2) {
                rig.repo.addWorktree(tmp.resolve("race"), "agent/add-search-codex-1");
            }
        };

        FanOutException e = org.junit.jupiter.api.Assertions.assertThrows(
                FanOutException.class,
                () -> groups.create(task("Add search").build(), AgentCounts.parse("claude:2,codex:2"), race));

        String g = e.group();
        assertThat(e.created()).extracting(SandboxRecord::id).containsExactly(g + "-claude-1", g + "-claude-2");
        assertThat(e.failed().id()).isEqualTo(g + "-codex-1");
        assertThat(e.notTried()).extracting(FanOutException.Member::id).containsExactly(g + "-codex-2");
        assertThat(e.reason()).isInstanceOf(SandboxConflictException.class);
        assertThat(e.getMessage())
                .isEqualTo("The fan-out " + g + " made 2 of its 4 sandboxes: " + g + "-codex-1 (codex,"
                        + " branch agent/add-search-codex-1) could not be created: "
                        + e.reason().getMessage()
                        + " Created, and their agents start: " + g
                        + "-claude-1 (claude, branch agent/add-search-claude-1), "
                        + g + "-claude-2 (claude, branch agent/add-search-claude-2). Not tried: " + g
                        + "-codex-2 (codex,"
                        + " branch agent/add-search-codex-2). Keep them, or remove them with paddock sandbox rm ID --force"
                        + " --delete-branch.");
        e.created().forEach(s -> rig.awaitFingerprint(s.id()));
        // What the report says is what there is: two sandboxes of the group, nothing of the other two.
        assertThat(rig.store.listLive())
                .extracting(SandboxRecord::id, rec -> rec.spec().group())
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(g + "-claude-1", g),
                        org.assertj.core.groups.Tuple.tuple(g + "-claude-2", g));
        assertThat(rig.repo.dir().resolve(".worktrees").resolve(g + "-codex-1")).doesNotExist();
        assertThat(rig.repo.git("branch", "--list", "agent/add-search-codex-2")).isBlank();
    }

    /** No sandbox in the store and no worktree folder but the {@code expected} ones. */
    private void assertNothingMadeBut(int expected) throws Exception {
        List<SandboxRecord> live = rig.store.listLive();
        live.forEach(s -> rig.awaitFingerprint(s.id()));
        assertThat(live).hasSize(expected);
        if (expected == 0) {
            assertThat(rig.repo.dir().resolve(".worktrees")).doesNotExist();
            assertThat(rig.repo.git("branch", "--list", "*-claude-*")).isBlank();
        }
    }
}
