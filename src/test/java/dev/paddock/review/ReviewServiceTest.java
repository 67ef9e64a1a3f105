package dev.paddock.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.events.Event;
import dev.paddock.events.EventKinds;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeState;
import dev.paddock.sandbox.SandboxConflictException;
import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review before merge end to end on a real home: a custom agent's change waits ready for review (the default),
 * comments quote the lines they are on, a request for changes runs the agent again with the comments in its
 * worktree, approving merges it, rejecting discards it, and the comments outlive a restart.
 */
class ReviewServiceTest {
    /** Edits line 2 and commits; on a second run, keeps what the review file said. */
    private static String agent(Path seen) {
        return "if [ -f " + ReviewFile.RELATIVE + " ]; then cp " + ReviewFile.RELATIVE + " '" + seen + "'; fi;"
                + " printf 'alpha\\nBETA\\ngamma\\n' > a.txt && git add a.txt && (git commit -qm 'Shout beta' || true)";
    }

    @TempDir
    Path tmp;

    private ReviewRig rig;

    @BeforeEach
    void open() throws Exception {
        rig = new ReviewRig(tmp);
    }

    @AfterEach
    void close() {
        rig.close();
    }

    @Test
    void aCustomAgentsChangeWaitsIsSentBackWithTheCommentsFileAndMergesOnlyOnceApproved() throws Exception {
        Path seen = tmp.resolve("seen.md");
        rig.custom("rev-001", agent(seen));
        String base = rig.main();

        assertThat(rig.finishAndGate("rev-001").state()).isEqualTo(SandboxState.REVIEW);
        assertThat(rig.main()).as("base unchanged while it waits").isEqualTo(base);
        assertThat(rig.wiring.merges().latestOf("rev-001")).isEmpty();

        ReviewComment onLine = rig.reviews().comment("rev-001", "a.txt", 2, null, "Not so loud.", "ann");
        assertThat(onLine.quoted()).isEqualTo("BETA");
        assertThat(onLine.side()).isEqualTo(ReviewComment.Side.NEW);
        assertThat(onLine.commit()).isEqualTo(TempRepo.revParse(rig.repo.dir(), "agent/rev-001"));
        ReviewComment onOld = rig.reviews().comment("rev-001", "a.txt", 2, "old", "This was fine.", "ann");
        assertThat(onOld.quoted()).isEqualTo("beta");

        ChangeRequests.Sent sent = rig.reviews().requestChanges("rev-001", "And add a test.", "ann");

        assertThat(sent.followUp()).as("a custom command cannot resume").isFalse();
        assertThat(sent.round()).isEqualTo(1);
        assertThat(sent.comments()).hasSize(3);
        Path worktree = Path.of(rig.find("rev-001").workspace().worktreePath());
        assertThat(sent.file()).isEqualTo(worktree.resolve(ReviewFile.RELATIVE));
        assertThat(Files.readString(sent.file()))
                .contains("`a.txt:2`", "> BETA", "Not so loud.", "> beta", "before your change", "And add a test.");
        // Only the comments' folder: the agent already runs again and rewrites a.txt meanwhile.
        assertThat(rig.repo.git(
                        "-C",
                        worktree.toString(),
                        "status",
                        "--porcelain",
                        "--untracked-files=all",
                        "--",
                        sent.file().getParent().toString()))
                .as("git ignores the comments")
                .isBlank();
        Event requested = last(rig.history("rev-001"), EventKinds.REVIEW_CHANGES_REQUESTED);
        assertThat(requested.message()).contains(sent.file().toString());
        assertThat(requested.details()).contains("\"round\":1", "\"via\":\"retry\"");

        // The agent runs again and reads them; its change waits for review again.
        assertThat(rig.finishAndGate("rev-001").state()).isEqualTo(SandboxState.REVIEW);
        assertThat(Files.readString(seen)).contains("Not so loud.", "And add a test.");
        assertThat(rig.reviews().comments("rev-001"))
                .allSatisfy(c -> assertThat(c.round()).isEqualTo(1));
        assertThatThrownBy(() -> rig.reviews().deleteComment("rev-001", onLine.id(), "ann"))
                .isInstanceOf(SandboxConflictException.class);
        assertThatThrownBy(() -> rig.reviews().requestChanges("rev-001", null, "ann"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("No comment");

        MergeEntry e = rig.reviews().approve("rev-001", "bob").entry();
        assertThat(e.request().requestedBy()).isEqualTo("bob");
        assertThat(rig.find("rev-001").state()).isEqualTo(SandboxState.MERGING);
        assertThat(last(rig.history("rev-001"), EventKinds.REVIEW_APPROVED).details())
                .contains("\"by\":\"bob\"");
        rig.drainQueue("rev-001");

        assertThat(rig.wiring.merges().get(e.id()).state()).isEqualTo(MergeState.MERGED);
        assertThat(rig.find("rev-001").state()).isEqualTo(SandboxState.MERGED);
        assertThat(rig.repo.git("show", "main:a.txt")).isEqualTo("alpha\nBETA\ngamma\n");
    }

    @Test
    void approvingInARepositoryThatPushesPushesTheBranchAndLeavesBaseAlone() throws Exception {
        Path bare = tmp.resolve("origin.git");
        TempRepo.git(tmp, "init", "-q", "--bare", bare.toString());
        rig.repo.git("remote", "add", "origin", bare.toString());
        rig.wiring.merges().configureTarget(rig.repo.dir(), "push", null, false);
        rig.custom("rev-004", agent(tmp.resolve("unused.md")));
        String base = rig.main();
        SandboxRecord done = rig.finishAndGate("rev-004");
        assertThat(done.state()).as("the queue never takes it").isEqualTo(SandboxState.DONE);
        String tip = TempRepo.revParse(rig.repo.dir(), "agent/rev-004");

        ReviewService.Approval a = rig.reviews().approve("rev-004", "bob");

        assertThat(a.entry()).isNull();
        assertThat(a.message()).contains("Pushed agent/rev-004");
        assertThat(TempRepo.git(tmp, "--git-dir", bare.toString(), "rev-parse", "refs/heads/agent/rev-004")
                        .strip())
                .isEqualTo(tip);
        assertThat(rig.main()).as("base is not merged into").isEqualTo(base);
        assertThat(rig.wiring.merges().latestOf("rev-004")).isEmpty();
        assertThat(last(rig.history("rev-004"), EventKinds.REVIEW_APPROVED).details())
                .contains("\"pushed\":true");
    }

    @Test
    void rejectDiscardsTheSandboxKeepsItsBranchAndLeavesBaseAlone() throws Exception {
        rig.custom("rev-002", agent(tmp.resolve("unused.md")));
        String base = rig.main();
        assertThat(rig.finishAndGate("rev-002").state()).isEqualTo(SandboxState.REVIEW);
        String tip = TempRepo.revParse(rig.repo.dir(), "agent/rev-002");

        SandboxRecord removed = rig.reviews().reject("rev-002", "Wrong approach.", "ann");

        assertThat(removed.state()).isEqualTo(SandboxState.CLOSED);
        assertThat(Files.exists(Path.of(removed.workspace().worktreePath()))).isFalse();
        assertThat(TempRepo.revParse(rig.repo.dir(), "agent/rev-002"))
                .as("its branch is kept")
                .isEqualTo(tip);
        assertThat(rig.main()).isEqualTo(base);
        assertThat(rig.wiring.merges().latestOf("rev-002")).isEmpty();
        assertThat(rig.reviews().comments("rev-002"))
                .extracting(ReviewComment::body)
                .containsExactly("Wrong approach.");
        assertThat(last(rig.history("rev-002"), EventKinds.REVIEW_REJECTED).message())
                .contains("ann", "kept");
        assertThatThrownBy(() -> rig.reviews().approve("rev-002", "ann")).isInstanceOf(SandboxConflictException.class);
    }

    @Test
    void commentsOutliveARestart() throws Exception {
        rig.custom("rev-003", agent(tmp.resolve("unused.md")));
        rig.finishAndGate("rev-003");
        ReviewComment c = rig.reviews().comment("rev-003", "a.txt", 2, null, "Why upper case?", "ann");
        rig.reviews().comment("rev-003", null, null, null, "Otherwise fine.", "bob");
        ReviewComment gone = rig.reviews().comment("rev-003", "a.txt", null, null, "Never mind.", "bob");
        rig.reviews().deleteComment("rev-003", gone.id(), "bob");

        rig.closeWiring();
        rig.open();

        List<ReviewComment> after = rig.reviews().comments("rev-003");
        assertThat(after).hasSize(2);
        ReviewComment first = after.get(0);
        assertThat(first.id()).isEqualTo(c.id());
        assertThat(first.path()).isEqualTo("a.txt");
        assertThat(first.line()).isEqualTo(2);
        assertThat(first.quoted()).isEqualTo("BETA");
        assertThat(first.commit()).isEqualTo(c.commit());
        assertThat(first.author()).isEqualTo("ann");
        assertThat(first.createdAt()).isNotNull();
        assertThat(first.round()).isNull();
        assertThat(after.get(1).path()).isNull();
        assertThat(after.get(1).where()).isEqualTo("general");
        assertThat(rig.find("rev-003").state()).as("still ready for review").isEqualTo(SandboxState.REVIEW);
    }

    @Test
    void badCommentsAreRefused() throws Exception {
        rig.custom("rev-004", agent(tmp.resolve("unused.md")));
        rig.finishAndGate("rev-004");
        assertThatThrownBy(() -> rig.reviews().comment("rev-004", null, 3, null, "x", "ann"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("--file");
        assertThatThrownBy(() -> rig.reviews().comment("rev-004", "a.txt", 0, null, "x", "ann"))
                .isInstanceOf(SandboxException.class);
        assertThatThrownBy(() -> rig.reviews().comment("rev-004", "a.txt", 1, null, " ", "ann"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> rig.reviews().comment("rev-004", "a.txt", 1, "left", "x", "ann"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("old or new");
        assertThatThrownBy(() -> rig.reviews().comment("rev-004", "a.txt", 99, null, "past the end", "ann"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("a.txt has no line 99");
        for (String outside : List.of("../a.txt", "/etc/hostname", ".git/config", "src/../../x")) {
            assertThatThrownBy(() -> rig.reviews().comment("rev-004", outside, 1, null, "x", "ann"))
                    .as(outside)
                    .isInstanceOf(SandboxException.class)
                    .hasMessageContaining("is not a path inside the repository");
        }
        assertThatThrownBy(() -> rig.reviews().comment("rev-004", "nothere.txt", null, null, "x", "ann"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("neither in the sandbox's worktree nor in its base");
        // A folder an agent linked out of its worktree is not read through.
        Path wt = Path.of(rig.find("rev-004").workspace().worktreePath());
        Path outsideDir = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outsideDir.resolve("secret.txt"), "the host's secret\n");
        Files.createSymbolicLink(wt.resolve("linked"), outsideDir);
        assertThatThrownBy(() -> rig.reviews().comment("rev-004", "linked/secret.txt", 1, null, "x", "ann"))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("has no line 1");
        assertThat(rig.reviews().comments("rev-004")).isEmpty();
    }

    @Test
    void aLineNotYetCommittedIsQuotedAsTheWorktreeHasIt() throws Exception {
        rig.custom("rev-005", agent(tmp.resolve("unused.md")));
        rig.finishAndGate("rev-005");
        Path wt = Path.of(rig.find("rev-005").workspace().worktreePath());
        Files.writeString(wt.resolve("draft.txt"), "first\n    second, indented\n");

        ReviewComment c = rig.reviews().comment("rev-005", "./draft.txt", 2, null, "Why indented?", "ann");

        assertThat(c.path()).isEqualTo("draft.txt");
        assertThat(c.quoted()).isEqualTo("    second, indented");
    }

    static Event last(List<Event> events, String kind) {
        return events.stream()
                .filter(e -> e.kind().equals(kind))
                .reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no " + kind + " event"));
    }
}
