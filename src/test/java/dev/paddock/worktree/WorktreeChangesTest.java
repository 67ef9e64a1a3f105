package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorktreeChangesTest {
    private static final long REPO = 7;
    private static final Path MAIN = Path.of("/work/repo");
    private static final Path AGENT = MAIN.resolve(".worktrees/fix-auth-001/feature/login");
    private static final String H1 = "aaaaaaaa11111111111111111111111111111111";
    private static final String H2 = "bbbbbbbb22222222222222222222222222222222";

    private static WorktreeInfo main() {
        return new WorktreeInfo(MAIN, H1, "main", false, true, null, null, "Initial commit", false, 0);
    }

    private static WorktreeInfo agent() {
        return new WorktreeInfo(AGENT, H1, "feature/login", false, false, null, null, "Initial commit", false, 0);
    }

    private static List<EventDraft> between(List<WorktreeInfo> before, List<WorktreeInfo> after) {
        return WorktreeChanges.between(REPO, MAIN, before, after);
    }

    private static WorktreeInfo withHead(WorktreeInfo w, String head, String subject) {
        return new WorktreeInfo(
                w.path(),
                head,
                w.branch(),
                w.detached(),
                w.main(),
                w.lockedReason(),
                w.prunableReason(),
                subject,
                w.dirty(),
                w.changedFiles());
    }

    private static WorktreeInfo withBranch(WorktreeInfo w, String branch, boolean detached) {
        return new WorktreeInfo(
                w.path(),
                w.head(),
                branch,
                detached,
                w.main(),
                w.lockedReason(),
                w.prunableReason(),
                w.subject(),
                w.dirty(),
                w.changedFiles());
    }

    private static WorktreeInfo withLock(WorktreeInfo w, String reason) {
        return new WorktreeInfo(
                w.path(),
                w.head(),
                w.branch(),
                w.detached(),
                w.main(),
                reason,
                w.prunableReason(),
                w.subject(),
                w.dirty(),
                w.changedFiles());
    }

    private static WorktreeInfo withPrunable(WorktreeInfo w, String reason) {
        return new WorktreeInfo(
                w.path(),
                w.head(),
                w.branch(),
                w.detached(),
                w.main(),
                w.lockedReason(),
                reason,
                w.subject(),
                w.dirty(),
                w.changedFiles());
    }

    private static WorktreeInfo withDirty(WorktreeInfo w, Boolean dirty, int changed) {
        return w.withDetails(w.subject(), dirty, changed);
    }

    @Test
    void identicalListingsProduceNoEvents() {
        assertThat(between(List.of(main(), agent()), List.of(main(), agent()))).isEmpty();
    }

    @Test
    void theMergeQueuesPrivateWorktreesComeAndGoWithoutEvents() {
        WorktreeInfo merge = new WorktreeInfo(
                MAIN.resolve(".worktrees/.merge/12"), H2, null, true, false, null, null, "Merge agent/x", false, 0);

        assertThat(between(List.of(main(), agent()), List.of(main(), agent(), merge)))
                .isEmpty();
        assertThat(between(List.of(main(), agent(), merge), List.of(main())))
                .extracting(EventDraft::kind)
                .containsExactly(EventKinds.WORKTREE_REMOVED);
    }

    @Test
    void orderOfTheListingDoesNotMatter() {
        assertThat(between(List.of(main(), agent()), List.of(agent(), main()))).isEmpty();
    }

    @Test
    void newWorktreeIsAddedWithBranchAndShortHead() throws Exception {
        List<EventDraft> events = between(List.of(main()), List.of(main(), agent()));

        assertThat(events).hasSize(1);
        EventDraft e = events.get(0);
        assertThat(e.kind()).isEqualTo(EventKinds.WORKTREE_ADDED);
        assertThat(e.repositoryId()).isEqualTo(REPO);
        assertThat(e.sandboxId()).isNull();
        assertThat(e.message()).isEqualTo("Worktree added: fix-auth-001 on feature/login at aaaaaaaa");
        JsonNode details = Json.mapper().readTree(e.details());
        assertThat(details.get("path").asText()).isEqualTo(AGENT.toString());
        assertThat(details.get("branch").asText()).isEqualTo("feature/login");
        assertThat(details.get("head").asText()).isEqualTo(H1);
        assertThat(details.get("dirty").asBoolean()).isFalse();
    }

    @Test
    void addedWorktreeOnAnUnbornBranchHasNoAtPart() {
        WorktreeInfo unborn = withHead(agent(), null, null);

        assertThat(between(List.of(main()), List.of(main(), unborn)))
                .singleElement()
                .extracting(EventDraft::message)
                .isEqualTo("Worktree added: fix-auth-001 on feature/login");
    }

    @Test
    void worktreeOutsideTheRepositoryIsShownWithItsAbsolutePath() {
        WorktreeInfo outside =
                new WorktreeInfo(Path.of("/elsewhere/wt"), H2, null, true, false, null, null, null, null, 0);

        assertThat(between(List.of(main()), List.of(main(), outside)))
                .singleElement()
                .extracting(EventDraft::message)
                .isEqualTo("Worktree added: /elsewhere/wt on (detached HEAD) at bbbbbbbb");
    }

    @Test
    void missingWorktreeIsRemovedWithTheBranchItWasOn() {
        assertThat(between(List.of(main(), agent()), List.of(main())))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(EventKinds.WORKTREE_REMOVED);
                    assertThat(e.message()).isEqualTo("Worktree removed: fix-auth-001" + " (was on feature/login)");
                });
    }

    @Test
    void newCommitMovesHeadAndQuotesTheSubject() {
        List<EventDraft> events = between(List.of(agent()), List.of(withHead(agent(), H2, "Add login form")));

        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(EventKinds.WORKTREE_HEAD_MOVED);
            assertThat(e.message())
                    .isEqualTo(
                            "HEAD moved on feature/login in fix-auth-001:" + " aaaaaaaa → bbbbbbbb \"Add login form\"");
        });
    }

    @Test
    void headMovedWithoutAKnownSubjectHasNoQuotes() {
        assertThat(between(List.of(main()), List.of(withHead(main(), H2, null))))
                .singleElement()
                .extracting(EventDraft::message)
                .isEqualTo("HEAD moved on main in main worktree: aaaaaaaa → bbbbbbbb");
    }

    @Test
    void switchingBranchIsABranchChangeNotAHeadMove() {
        WorktreeInfo switched = withHead(withBranch(agent(), "feature/signup", false), H2, "Other");

        assertThat(between(List.of(agent()), List.of(switched))).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(EventKinds.WORKTREE_BRANCH_CHANGED);
            assertThat(e.message()).isEqualTo("Branch changed in fix-auth-001:" + " feature/login → feature/signup");
        });
    }

    @Test
    void detachingAndReattachingAreBranchChanges() {
        WorktreeInfo detached = withBranch(agent(), null, true);

        assertThat(between(List.of(agent()), List.of(detached))).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(EventKinds.WORKTREE_BRANCH_CHANGED);
            assertThat(e.message()).endsWith("feature/login → (detached HEAD)");
        });
        assertThat(between(List.of(detached), List.of(agent())))
                .singleElement()
                .extracting(EventDraft::message)
                .asString()
                .endsWith("(detached HEAD) → feature/login");
    }

    @Test
    void cleanToDirtyCountsThePaths() {
        assertThat(between(List.of(agent()), List.of(withDirty(agent(), true, 3))))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(EventKinds.WORKTREE_DIRTY);
                    assertThat(e.message()).isEqualTo("fix-auth-001 has uncommitted changes (3 paths)");
                });
        assertThat(between(List.of(main()), List.of(withDirty(main(), true, 1))))
                .singleElement()
                .extracting(EventDraft::message)
                .isEqualTo("main worktree has uncommitted changes (1 path)");
    }

    @Test
    void dirtyToCleanIsRecorded() {
        assertThat(between(List.of(withDirty(agent(), true, 2)), List.of(agent())))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.kind()).isEqualTo(EventKinds.WORKTREE_CLEAN);
                    assertThat(e.message()).isEqualTo("fix-auth-001 is clean");
                });
    }

    @Test
    void dirtyStateChangesOnlyCountWhenBothSidesAreKnown() {
        WorktreeInfo unknown = withDirty(agent(), null, 0);

        assertThat(between(List.of(unknown), List.of(withDirty(agent(), true, 1))))
                .isEmpty();
        assertThat(between(List.of(withDirty(agent(), true, 1)), List.of(unknown)))
                .isEmpty();
        assertThat(between(List.of(unknown), List.of(agent()))).isEmpty();
    }

    @Test
    void moreChangedFilesWhileStillDirtyIsNotAnEvent() {
        assertThat(between(List.of(withDirty(agent(), true, 1)), List.of(withDirty(agent(), true, 5))))
                .isEmpty();
    }

    @Test
    void lockingShowsTheReasonAndUnlockingIsRecorded() {
        WorktreeInfo locked = withLock(agent(), "agent fix-auth-001 is running");

        assertThat(between(List.of(agent()), List.of(locked))).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(EventKinds.WORKTREE_LOCKED);
            assertThat(e.message()).isEqualTo("fix-auth-001 was locked:" + " agent fix-auth-001 is running");
        });
        assertThat(between(List.of(locked), List.of(agent()))).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(EventKinds.WORKTREE_UNLOCKED);
            assertThat(e.message()).isEqualTo("fix-auth-001 was unlocked");
        });
    }

    @Test
    void lockWithoutReasonHasNoColon() {
        assertThat(between(List.of(agent()), List.of(withLock(agent(), ""))))
                .singleElement()
                .extracting(EventDraft::message)
                .isEqualTo("fix-auth-001 was locked");
    }

    @Test
    void changingOnlyTheLockReasonIsNotAnEvent() {
        assertThat(between(List.of(withLock(agent(), "one")), List.of(withLock(agent(), "two"))))
                .isEmpty();
    }

    @Test
    void becomingPrunableIsRecordedWithGitsReasonButRecoveringIsNot() {
        WorktreeInfo prunable =
                withPrunable(withDirty(agent(), null, 0), "gitdir file points to non-existent location");

        assertThat(between(List.of(agent()), List.of(prunable))).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(EventKinds.WORKTREE_PRUNABLE);
            assertThat(e.message())
                    .isEqualTo("fix-auth-001 is prunable:" + " gitdir file points to non-existent location");
            assertThat(e.details()).doesNotContain("\"dirty\"");
        });
        assertThat(between(List.of(prunable), List.of(agent()))).isEmpty();
    }

    @Test
    void severalChangesToOneWorktreeGiveOneEventEachInAFixedOrder() {
        WorktreeInfo after = withLock(withDirty(withHead(agent(), H2, "Next"), true, 1), "busy");

        assertThat(between(List.of(agent()), List.of(after)))
                .extracting(EventDraft::kind)
                .containsExactly(EventKinds.WORKTREE_HEAD_MOVED, EventKinds.WORKTREE_DIRTY, EventKinds.WORKTREE_LOCKED);
    }

    @Test
    void addedAndRemovedInOneScanAreBothRecorded() {
        WorktreeInfo other =
                new WorktreeInfo(MAIN.resolve(".worktrees/b/x"), H2, "x", false, false, null, null, null, false, 0);

        assertThat(between(List.of(main(), agent()), List.of(main(), other)))
                .extracting(EventDraft::kind)
                .containsExactly(EventKinds.WORKTREE_ADDED, EventKinds.WORKTREE_REMOVED);
    }

    @Test
    void displayIsRelativeInsideTheMainWorktreeAndAbsoluteOutside() {
        assertThat(WorktreeChanges.display(MAIN, MAIN)).isEqualTo("main worktree");
        assertThat(WorktreeChanges.display(MAIN, MAIN.resolve("a/b"))).isEqualTo("a/b");
        assertThat(WorktreeChanges.display(MAIN, Path.of("/work/repo-other"))).isEqualTo("/work/repo-other");
    }
}
