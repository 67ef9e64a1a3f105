package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PorcelainParserTest {
    private static final String HEAD_A = "6845ecc0cbd6d418d5f366968954a2d053a9f3ae";
    private static final String HEAD_B = "1111111111111111111111111111111111111111";
    private static final String ZEROS = "0000000000000000000000000000000000000000";

    /** The records in git's shape; {@code nul} chooses the {@code -z} terminator. */
    private static String porcelain(boolean nul, String... attributes) {
        String t = nul ? "\0" : "\n";
        StringBuilder sb = new StringBuilder();
        for (String a : attributes) {
            sb.append(a).append(t);
        }
        return sb.toString();
    }

    private static String sample(boolean nul) {
        return porcelain(
                nul,
                "worktree /repo",
                "HEAD " + HEAD_A,
                "branch refs/heads/main",
                "",
                "worktree /repo/.worktrees/a/feature/login",
                "HEAD " + HEAD_B,
                "branch refs/heads/feature/login",
                "locked agent is running",
                "",
                "worktree /elsewhere/detached",
                "HEAD " + HEAD_A,
                "detached",
                "",
                "worktree /gone",
                "HEAD " + HEAD_B,
                "branch refs/heads/old",
                "prunable gitdir file points to non-existent location",
                "");
    }

    @Test
    void newlineAndNulFormsGiveTheSameEntries() {
        assertThat(PorcelainParser.parse(sample(false), false)).isEqualTo(PorcelainParser.parse(sample(true), true));
    }

    @Test
    void parsesMainBranchLockedDetachedAndPrunableWorktrees() {
        for (boolean nul : new boolean[] {true, false}) {
            List<PorcelainParser.Entry> entries = PorcelainParser.parse(sample(nul), nul);

            assertThat(entries).hasSize(4).noneMatch(PorcelainParser.Entry::bare);
            WorktreeInfo main = entries.get(0).info();
            assertThat(main.path()).isEqualTo(Path.of("/repo"));
            assertThat(main.main()).isTrue();
            assertThat(main.head()).isEqualTo(HEAD_A);
            assertThat(main.branch()).isEqualTo("main");
            assertThat(main.detached()).isFalse();
            assertThat(main.locked()).isFalse();
            assertThat(main.prunable()).isFalse();
            assertThat(main.subject()).isNull();
            assertThat(main.dirty()).isNull();

            WorktreeInfo locked = entries.get(1).info();
            assertThat(locked.main()).isFalse();
            assertThat(locked.branch()).isEqualTo("feature/login");
            assertThat(locked.locked()).isTrue();
            assertThat(locked.lockedReason()).isEqualTo("agent is running");

            WorktreeInfo detached = entries.get(2).info();
            assertThat(detached.detached()).isTrue();
            assertThat(detached.branch()).isNull();
            assertThat(detached.head()).isEqualTo(HEAD_A);
            assertThat(detached.branchLabel()).isEqualTo("(detached HEAD)");

            WorktreeInfo gone = entries.get(3).info();
            assertThat(gone.prunable()).isTrue();
            assertThat(gone.prunableReason()).isEqualTo("gitdir file points to non-existent location");
            assertThat(gone.locked()).isFalse();
        }
    }

    @Test
    void lockWithoutReasonIsLockedWithEmptyReason() {
        for (boolean nul : new boolean[] {true, false}) {
            WorktreeInfo w = PorcelainParser.parse(
                            porcelain(
                                    nul,
                                    "worktree /r",
                                    "HEAD " + HEAD_A,
                                    "branch refs/heads/x",
                                    "locked",
                                    "prunable",
                                    ""),
                            nul)
                    .get(0)
                    .info();

            assertThat(w.locked()).isTrue();
            assertThat(w.lockedReason()).isEmpty();
            assertThat(w.prunable()).isTrue();
            assertThat(w.prunableReason()).isEmpty();
        }
    }

    @Test
    void bareMainRepositoryIsMarkedBareAndStillCountsAsMain() {
        for (boolean nul : new boolean[] {true, false}) {
            List<PorcelainParser.Entry> entries = PorcelainParser.parse(
                    porcelain(
                            nul,
                            "worktree /srv/project.git",
                            "bare",
                            "",
                            "worktree /home/me/checkout",
                            "HEAD " + HEAD_A,
                            "branch refs/heads/main",
                            ""),
                    nul);

            assertThat(entries).hasSize(2);
            assertThat(entries.get(0).bare()).isTrue();
            assertThat(entries.get(0).info().main()).isTrue();
            assertThat(entries.get(0).info().head()).isNull();
            assertThat(entries.get(1).bare()).isFalse();
            assertThat(entries.get(1).info().main()).isFalse();
        }
    }

    @Test
    void pathWithSpacesAndNewlineSurvivesTheNulForm() {
        String path = "/tmp/My Projects/odd\nname";
        List<PorcelainParser.Entry> entries = PorcelainParser.parse(
                porcelain(
                        true,
                        "worktree /repo",
                        "HEAD " + HEAD_A,
                        "branch refs/heads/main",
                        "",
                        "worktree " + path,
                        "HEAD " + HEAD_B,
                        "branch refs/heads/odd",
                        ""),
                true);

        assertThat(entries).hasSize(2);
        assertThat(entries.get(1).info().path()).isEqualTo(Path.of(path));
        assertThat(entries.get(1).info().branch()).isEqualTo("odd");
    }

    @Test
    void pathWithSpacesParsesInTheNewlineForm() {
        WorktreeInfo w = PorcelainParser.parse(
                        porcelain(
                                false,
                                "worktree /tmp/My Projects/repo one",
                                "HEAD " + HEAD_A,
                                "branch refs/heads/main",
                                ""),
                        false)
                .get(0)
                .info();

        assertThat(w.path()).isEqualTo(Path.of("/tmp/My Projects/repo one"));
    }

    @Test
    void unknownFutureAttributesAreIgnored() {
        for (boolean nul : new boolean[] {true, false}) {
            List<PorcelainParser.Entry> entries = PorcelainParser.parse(
                    porcelain(
                            nul,
                            "worktree /repo",
                            "HEAD " + HEAD_A,
                            "sparse-checkout cone",
                            "branch refs/heads/main",
                            "flag-without-value",
                            "",
                            "worktree /wt",
                            "HEAD " + HEAD_B,
                            "detached",
                            "relative-gitdir ../.git/worktrees/wt",
                            ""),
                    nul);

            assertThat(entries).hasSize(2);
            assertThat(entries.get(0).info())
                    .isEqualTo(
                            new WorktreeInfo(Path.of("/repo"), HEAD_A, "main", false, true, null, null, null, null, 0));
            assertThat(entries.get(1).info())
                    .isEqualTo(new WorktreeInfo(Path.of("/wt"), HEAD_B, null, true, false, null, null, null, null, 0));
        }
    }

    @Test
    void unbornBranchHasNullHead() {
        for (boolean nul : new boolean[] {true, false}) {
            WorktreeInfo w = PorcelainParser.parse(
                            porcelain(nul, "worktree /fresh", "HEAD " + ZEROS, "branch refs/heads/main", ""), nul)
                    .get(0)
                    .info();

            assertThat(w.head()).isNull();
            assertThat(w.shortHead()).isEmpty();
            assertThat(w.branch()).isEqualTo("main");
            assertThat(w.detached()).isFalse();
        }
    }

    @Test
    void sha256UnbornHeadIsNullToo() {
        WorktreeInfo w = PorcelainParser.parse(
                        porcelain(true, "worktree /fresh", "HEAD " + "0".repeat(64), "branch refs/heads/main", ""),
                        true)
                .get(0)
                .info();

        assertThat(w.head()).isNull();
    }

    @Test
    void lastRecordWithoutTrailingSeparatorIsKept() {
        List<PorcelainParser.Entry> entries = PorcelainParser.parse(
                "worktree /repo\nHEAD " + HEAD_A + "\nbranch refs/heads/main\n\nworktree /wt\nHEAD " + HEAD_B
                        + "\ndetached",
                false);

        assertThat(entries).extracting(e -> e.info().path()).containsExactly(Path.of("/repo"), Path.of("/wt"));
        assertThat(entries.get(1).info().detached()).isTrue();
    }

    @Test
    void emptyOutputGivesNoEntries() {
        assertThat(PorcelainParser.parse("", true)).isEmpty();
        assertThat(PorcelainParser.parse("", false)).isEmpty();
    }

    @Test
    void lockReasonQuotedByGitInTheNewlineFormIsUnquoted() {
        // Without -z git quotes an unusual lock reason like core.quotePath does (git-worktree(1)):
        // this is git 2.39's output for the reason `busy: "agent" ünï<newline>line2`.
        String out = "worktree /repo\nHEAD " + HEAD_A + "\nbranch refs/heads/main\n\n"
                + "worktree /wt\nHEAD " + HEAD_A + "\nbranch refs/heads/feature/login\n"
                + "locked \"busy: \\\"agent\\\" \\303\\274n\\303\\257\\nline2\"\n\n";

        WorktreeInfo w = PorcelainParser.parse(out, false).get(1).info();

        assertThat(w.lockedReason()).isEqualTo("busy: \"agent\" ünï\nline2");
    }

    @Test
    void realGitLockReasonReadsTheSameInBothForms(@TempDir Path tmp) {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        Path wt = repo.addWorktree(tmp.resolve("wt"), "agent");
        String reason = "agent \\o/ said \"wait\"\tü\nsecond line";
        repo.git("worktree", "lock", "--reason", reason, wt.toString());

        WorktreeInfo viaNewline = PorcelainParser.parse(repo.git("worktree", "list", "--porcelain"), false)
                .get(1)
                .info();
        WorktreeInfo viaNul = PorcelainParser.parse(repo.git("worktree", "list", "--porcelain", "-z"), true)
                .get(1)
                .info();

        assertThat(viaNul.lockedReason()).isEqualTo(reason);
        assertThat(viaNewline.lockedReason()).isEqualTo(reason);
        assertThat(viaNewline).isEqualTo(viaNul);
    }

    @Test
    void lockReasonInTheNulFormIsTakenVerbatim() {
        String reason = "\"quoted by the user\" ünï\nline2";
        WorktreeInfo w = PorcelainParser.parse(
                        porcelain(true, "worktree /wt", "HEAD " + HEAD_A, "detached", "locked " + reason, ""), true)
                .get(0)
                .info();

        assertThat(w.lockedReason()).isEqualTo(reason);
    }
}
