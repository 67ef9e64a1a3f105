package dev.paddock.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.Wiring;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.RemoveMode;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.settings.PaddockHome;
import dev.paddock.settings.SettingsStore;
import dev.paddock.testing.TempRepo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints and rollbacks of a real sandbox worktree (a real repository, the real services over a real H2 file,
 * built by {@link Wiring}; the supervisor is not started, so no agent runs).
 */
class CheckpointServiceTest {
    @TempDir
    Path tmp;

    TempRepo repo;
    Wiring wiring;
    CheckpointService checkpoints;
    SandboxRecord sandbox;
    Path wt;

    @BeforeEach
    void open() throws Exception {
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.write(".gitignore", "*.log\nbuild/\n");
        repo.write("a.txt", "alpha\n");
        repo.write("keep.sh", "#!/bin/sh\necho keep\n");
        repo.write("gone.txt", "to be deleted\n");
        repo.write("dir/b.txt", "beta\n");
        repo.commitAll("Files");
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        checkpoints = wiring.checkpoints();
        sandbox = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Change files", "sleep 60")
                        .id("files-001")
                        .branch("agent/files")
                        .maxRetries(0)
                        .build());
        assertThat(wiring.fingerprints().await(sandbox.id(), Duration.ofSeconds(30)))
                .isTrue();
        wt = sandbox.workspace().worktree();
    }

    @AfterEach
    void close() {
        wiring.close();
    }

    @Test
    void rollbackRestoresEveryFileRemovesAddedOnesAndLeavesIgnoredFilesBranchAndIndexAlone() throws Exception {
        write("a.txt", "alpha, edited before the first checkpoint\n");
        write("notes.txt", "untracked at the first checkpoint\n");
        String head = git("rev-parse", "HEAD");
        byte[] index = Files.readAllBytes(indexFile());
        String staged = git("ls-files", "-s");

        Checkpoint first = checkpoints.checkpoint(sandbox.id(), "start", null, "test");

        assertThat(first.number()).isEqualTo(1);
        assertThat(first.ref()).isEqualTo("refs/paddock/checkpoints/files-001/1");
        assertThat(first.head()).isEqualTo(head);
        assertThat(first.changes()).isEqualTo(new CheckpointChanges(List.of("notes.txt"), List.of("a.txt"), List.of()));
        assertThat(git("rev-parse", first.ref())).isEqualTo(first.commit());
        Map<String, String> atFirst = disk();

        write("a.txt", "alpha, edited after\n");
        write("new/dir/deep.txt", "in a new directory\n");
        Files.delete(wt.resolve("gone.txt"));
        Files.setPosixFilePermissions(wt.resolve("keep.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
        write("build/out.bin", "ignored build output\n");
        write("trace.log", "ignored log\n");

        Checkpoint second = checkpoints.checkpoint(sandbox.id(), "changed", null, "test");

        assertThat(second.number()).isEqualTo(2);
        assertThat(second.changes())
                .isEqualTo(new CheckpointChanges(
                        List.of("new/dir/deep.txt"), List.of("a.txt", "keep.sh"), List.of("gone.txt")));
        assertThat(git("ls-tree", "-r", "--name-only", second.commit())).doesNotContain("trace.log", "build/out.bin");
        Map<String, String> atSecond = disk();

        Rollback back = checkpoints.rollback(sandbox.id(), 1, "test");

        assertThat(back.before().number()).isEqualTo(3);
        assertThat(back.before().message()).isEqualTo("before rollback to 1");
        assertThat(back.before().changes().isEmpty()).isTrue();
        assertThat(back.stopped())
                .as("a pending sandbox's agent is stopped before it can start")
                .isTrue();
        assertThat(wiring.sandboxService().find(sandbox.id()).state()).isEqualTo(SandboxState.AWAITING_HUMAN);
        assertThat(back.restored()).containsExactly("a.txt", "gone.txt", "keep.sh");
        assertThat(back.removed()).containsExactly("new/dir/deep.txt");
        assertThat(back.kept()).isEmpty();
        assertThat(withoutIgnored(disk())).isEqualTo(atFirst);
        assertThat(wt.resolve("new")).doesNotExist();
        assertThat(Files.getPosixFilePermissions(wt.resolve("keep.sh")))
                .doesNotContain(PosixFilePermission.OWNER_EXECUTE);
        assertThat(Files.readString(wt.resolve("build/out.bin"))).isEqualTo("ignored build output\n");
        assertThat(Files.readString(wt.resolve("trace.log"))).isEqualTo("ignored log\n");
        assertThat(git("rev-parse", "HEAD")).isEqualTo(head);
        assertThat(git("symbolic-ref", "HEAD")).isEqualTo("refs/heads/agent/files");
        assertThat(Files.readAllBytes(indexFile())).isEqualTo(index);
        assertThat(git("ls-files", "-s")).isEqualTo(staged);

        Rollback undo = checkpoints.rollback(sandbox.id(), back.before().number(), "test");

        assertThat(undo.before().number()).isEqualTo(4);
        assertThat(undo.stopped()).isFalse();
        assertThat(undo.restored()).containsExactly("a.txt", "keep.sh", "new/dir/deep.txt");
        assertThat(undo.removed()).containsExactly("gone.txt");
        assertThat(disk()).isEqualTo(atSecond);
        assertThat(Files.getPosixFilePermissions(wt.resolve("keep.sh"))).contains(PosixFilePermission.OWNER_EXECUTE);
        assertThat(Files.readAllBytes(indexFile())).isEqualTo(index);
        assertThat(checkpoints.list(sandbox.id()))
                .extracting(Checkpoint::message)
                .containsExactly("start", "changed", "before rollback to 1", "before rollback to 3");
        // Counted from what the rollback wrote, not from the checkpoint taken before it.
        write("z.txt", "after the undo\n");
        assertThat(checkpoints.checkpoint(sandbox.id(), "after", null, "test").changes())
                .isEqualTo(new CheckpointChanges(List.of("z.txt"), List.of(), List.of()));
        assertThat(wiring.events().ofSandbox(sandbox.id()))
                .extracting(e -> e.kind())
                .contains("checkpoint.created", "checkpoint.rolled_back");
    }

    @Test
    void rollbackWithResetBranchMovesTheBranchBackAndItsUndoBringsTheCommitsBack() throws Exception {
        String start = git("rev-parse", "HEAD");
        write("a.txt", "alpha, before the agent's commit\n");
        Checkpoint first = checkpoints.checkpoint(sandbox.id(), "before commit", null, "test");
        write("a.txt", "alpha, committed by the agent\n");
        write("c.txt", "a new committed file\n");
        git("add", "-A");
        git("-c", "user.name=agent", "-c", "user.email=agent@x", "commit", "-q", "-m", "agent's commit");
        String agentCommit = git("rev-parse", "HEAD");
        write("d.txt", "uncommitted after the commit\n");

        Rollback back = checkpoints.rollback(sandbox.id(), first.number(), "test", true);

        assertThat(back.branchReset()).isTrue();
        assertThat(back.branchFrom()).isEqualTo(agentCommit);
        assertThat(back.branchTo()).isEqualTo(start);
        assertThat(git("rev-parse", "HEAD")).isEqualTo(start);
        assertThat(git("symbolic-ref", "HEAD")).isEqualTo("refs/heads/agent/files");
        assertThat(Files.readString(wt.resolve("a.txt"))).isEqualTo("alpha, before the agent's commit\n");
        assertThat(wt.resolve("c.txt")).doesNotExist();
        assertThat(wt.resolve("d.txt")).doesNotExist();
        // The index follows the branch (git reset --mixed): the file's edit shows as unstaged, nothing is staged.
        assertThat(git("diff", "--cached", "--name-only")).isEmpty();
        assertThat(git("status", "--porcelain")).isEqualTo("M a.txt");
        // The agent's commit is still reachable from the checkpoint taken first.
        assertThat(back.before().head()).isEqualTo(agentCommit);
        assertThat(git("merge-base", "--is-ancestor", agentCommit, back.before().ref() + "^"))
                .isEmpty();

        Rollback undo = checkpoints.rollback(sandbox.id(), back.before().number(), "test", true);

        assertThat(undo.branchFrom()).isEqualTo(start);
        assertThat(undo.branchTo()).isEqualTo(agentCommit);
        assertThat(git("rev-parse", "HEAD")).isEqualTo(agentCommit);
        assertThat(Files.readString(wt.resolve("c.txt"))).isEqualTo("a new committed file\n");
        assertThat(Files.readString(wt.resolve("d.txt"))).isEqualTo("uncommitted after the commit\n");
        assertThat(git("status", "--porcelain")).isEqualTo("?? d.txt");
        assertThat(wiring.events().ofSandbox(sandbox.id()))
                .filteredOn(e -> e.kind().equals("checkpoint.rolled_back"))
                .anySatisfy(e -> assertThat(e.message()).contains("branch reset from " + agentCommit.substring(0, 8)));
    }

    @Test
    void withoutResetBranchTheBranchStaysAndResetToAnUnchangedHeadMovesNothing() throws Exception {
        write("a.txt", "one\n");
        Checkpoint first = checkpoints.checkpoint(sandbox.id(), "one", null, "test");
        write("a.txt", "two\n");

        Rollback back = checkpoints.rollback(sandbox.id(), first.number(), "test", true);

        assertThat(back.branchReset())
                .as("HEAD is where it was at the checkpoint")
                .isFalse();
        assertThat(back.branchFrom()).isNull();
        assertThat(Files.readString(wt.resolve("a.txt"))).isEqualTo("one\n");
    }

    @Test
    void theDryRunListsExactlyWhatTheRollbackThenChangesAndWritesNothing() throws Exception {
        write("notes.txt", "untracked at the first checkpoint\n");
        Checkpoint first = checkpoints.checkpoint(sandbox.id(), "start", null, "test");
        Map<String, String> atFirst = disk();

        write("a.txt", "alpha, edited after\n"); // tracked, changed
        Files.setPosixFilePermissions(wt.resolve("keep.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.delete(wt.resolve("gone.txt")); // tracked, deleted
        Files.delete(wt.resolve("notes.txt")); // untracked, deleted
        write("extra.txt", "untracked, added\n");
        write("new/dir/deep.txt", "in a new directory\n");
        write("trace.log", "ignored log\n");
        Map<String, String> before = disk();
        String index = git("ls-files", "-s");

        RollbackPlan plan = checkpoints.planRollback(sandbox.id(), first.number());

        assertThat(plan.to()).isEqualTo(1);
        assertThat(plan.message()).isEqualTo("start");
        assertThat(plan.writtenBack()).containsExactly("a.txt", "keep.sh");
        assertThat(plan.restored()).containsExactly("gone.txt", "notes.txt");
        assertThat(plan.removed()).containsExactly("extra.txt", "new/dir/deep.txt");
        assertThat(plan.size()).isEqualTo(6);
        assertThat(plan.stopsAgent()).as("a pending sandbox's agent may start").isTrue();
        assertThat(plan.nextCheckpoint()).isEqualTo(2);
        assertThat(disk()).as("a dry run writes nothing").isEqualTo(before);
        assertThat(git("ls-files", "-s")).isEqualTo(index);
        assertThat(checkpoints.list(sandbox.id())).hasSize(1);
        assertThat(wiring.sandboxService().find(sandbox.id()).state()).isNotEqualTo(SandboxState.AWAITING_HUMAN);

        Rollback back = checkpoints.rollback(sandbox.id(), first.number(), "test");

        List<String> written = Stream.concat(plan.writtenBack().stream(), plan.restored().stream())
                .sorted()
                .toList();
        assertThat(back.restored()).isEqualTo(written);
        assertThat(back.removed()).isEqualTo(plan.removed());
        assertThat(back.before().number()).isEqualTo(plan.nextCheckpoint());
        assertThat(withoutIgnored(disk())).isEqualTo(atFirst);
        assertThat(checkpoints.planRollback(sandbox.id(), first.number()).isEmpty())
                .isTrue();
        assertThatThrownBy(() -> checkpoints.planRollback(sandbox.id(), 99))
                .isInstanceOf(CheckpointNotFoundException.class);
    }

    @Test
    void checkpointsSurviveARestartAndACrashBetweenRefAndRow() throws Exception {
        write("a.txt", "one\n");
        Checkpoint first = checkpoints.checkpoint(sandbox.id(), "one", null, "test");
        write("b.txt", "two\n");
        Checkpoint second = checkpoints.checkpoint(sandbox.id(), "two", 7, "test");
        // A crash after the ref and before the row: the row is missing.
        new CheckpointStore(wiring.database()).delete(sandbox.id(), 2);
        wiring.close();

        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        checkpoints = wiring.checkpoints();
        assertThat(checkpoints.list(sandbox.id())).containsExactly(first);

        checkpoints.start();

        List<Checkpoint> recovered = checkpoints.list(sandbox.id());
        assertThat(recovered).hasSize(2);
        assertThat(recovered.get(0)).isEqualTo(first);
        Checkpoint back = recovered.get(1);
        assertThat(back.number()).isEqualTo(2);
        assertThat(back.commit()).isEqualTo(second.commit());
        assertThat(back.tree()).isEqualTo(second.tree());
        assertThat(back.message()).isEqualTo("two");
        assertThat(back.turn()).isEqualTo(7);
        assertThat(back.head()).isEqualTo(second.head());
        assertThat(back.changes()).isEqualTo(second.changes());

        // A ref deleted (by hand, or a prune cut short after the refs): its row goes at the next start.
        git("update-ref", "-d", first.ref());
        checkpoints.recover();

        assertThat(checkpoints.list(sandbox.id()))
                .extracting(Checkpoint::number)
                .containsExactly(2);
        Checkpoint third = checkpoints.checkpoint(sandbox.id(), "three", null, "test");
        assertThat(third.number()).isEqualTo(3);
    }

    @Test
    void anotherHomeOnTheSameRepositoryLeavesThisHomesCheckpointsAlone() throws Exception {
        write("a.txt", "one\n");
        Checkpoint mine = checkpoints.checkpoint(sandbox.id(), "one", null, "test");
        // A sandbox nobody has any more: a ref left behind, no folder.
        git("update-ref", "refs/paddock/checkpoints/gone-001/1", mine.commit());
        try (Wiring other = Wiring.open(PaddockHome.resolve(tmp.resolve("other-home"), Map.of()))) {
            other.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "Another home's", "sleep 60")
                            .id("theirs-001")
                            .branch("agent/theirs")
                            .maxRetries(0)
                            .build());

            other.checkpoints().recover();

            assertThat(git("for-each-ref", "--format=%(refname)", "refs/paddock/checkpoints/"))
                    .contains(mine.ref())
                    .doesNotContain("gone-001");
        }
        assertThat(checkpoints.list(sandbox.id())).containsExactly(mine);
    }

    @Test
    void aFolderReplacedByALinkOutOfTheWorktreeIsRestoredWithoutWritingThroughTheLink() throws Exception {
        Checkpoint first = checkpoints.checkpoint(sandbox.id(), "with dir", null, "test");
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("b.txt"), "outside, must stay\n");
        TempRepo.deleteTree(wt.resolve("dir"));
        Files.createSymbolicLink(wt.resolve("dir"), outside);

        Rollback back = checkpoints.rollback(sandbox.id(), first.number(), "test");

        assertThat(back.removed()).containsExactly("dir");
        assertThat(back.restored()).containsExactly("dir/b.txt");
        assertThat(Files.isSymbolicLink(wt.resolve("dir"))).isFalse();
        assertThat(wt.resolve("dir/b.txt")).hasContent("beta");
        assertThat(outside.resolve("b.txt")).hasContent("outside, must stay");
    }

    @Test
    void aLockFileLeftByAKilledCheckpointDoesNotStopTheNext() throws Exception {
        write("a.txt", "one\n");
        checkpoints.checkpoint(sandbox.id(), "one", null, "test");
        Path own = indexFile().resolveSibling(CheckpointGit.PRIVATE_INDEX);
        assertThat(own).isRegularFile();
        Files.writeString(own.resolveSibling(CheckpointGit.PRIVATE_INDEX + ".lock"), "");
        write("a.txt", "two\n");

        Checkpoint next = checkpoints.checkpoint(sandbox.id(), "two", null, "test");

        assertThat(next.changes().modified()).containsExactly("a.txt");
        assertThat(TempRepo.git(wt, "show", next.commit() + ":a.txt")).isEqualTo("two\n");
    }

    @Test
    void aRefWhoseRowWasLostIsNeverReusedEvenBeforeRecovery() throws Exception {
        write("a.txt", "one\n");
        Checkpoint first = checkpoints.checkpoint(sandbox.id(), "one", null, "test");
        new CheckpointStore(wiring.database()).delete(sandbox.id(), 1);

        Checkpoint next = checkpoints.checkpoint(sandbox.id(), "two", null, "test");

        assertThat(next.number()).isEqualTo(2);
        assertThat(git("rev-parse", first.ref())).isEqualTo(first.commit());
        assertThat(git("rev-parse", next.ref())).isEqualTo(next.commit());
    }

    @Test
    void aTurnEndedEventTakesACheckpointOnlyWhenSomethingChanged() throws Exception {
        checkpoints.start();
        write("a.txt", "turn one\n");

        publishTurnEnded(1);
        await("the first turn's checkpoint", () -> list().size() == 1);

        Checkpoint turn = list().get(0);
        assertThat(turn.message()).isEqualTo(CheckpointService.TURN_ENDED);
        assertThat(turn.turn()).isEqualTo(1);
        assertThat(turn.changes().modified()).containsExactly("a.txt");

        assertThat(checkpoints.checkpointIfChanged(sandbox.id(), CheckpointService.TURN_ENDED, 2, "test"))
                .isEmpty();
        write("c.txt", "turn three\n");
        publishTurnEnded(3);
        await("the third turn's checkpoint", () -> list().size() == 2);

        assertThat(list().get(1).turn()).isEqualTo(3);
        assertThat(list().get(1).number()).isEqualTo(2);
        assertThat(list().get(1).changes().added()).containsExactly("c.txt");
    }

    @Test
    void removingASandboxDeletesItsCheckpointRefsAndRows() throws Exception {
        checkpoints.start();
        write("a.txt", "work\n");
        checkpoints.checkpoint(sandbox.id(), "one", null, "test");
        checkpoints.checkpoint(sandbox.id(), "two", null, "test");
        assertThat(git("for-each-ref", "refs/paddock/")).isNotEmpty();

        wiring.sandboxService().remove(sandbox.id(), RemoveMode.FORCE, true, "test");

        await("the checkpoints to go", () -> list().isEmpty() && refs().isEmpty());
        assertThat(checkpoints.list(sandbox.id())).isEmpty();
    }

    @Test
    void theOldestCheckpointsArePrunedPastTheSetting() throws Exception {
        wiring.settings().put(SettingsStore.CHECKPOINTS_KEEP, 2);
        for (int i = 1; i <= 4; i++) {
            write("a.txt", "version " + i + "\n");
            checkpoints.checkpoint(sandbox.id(), "v" + i, null, "test");
        }

        assertThat(list()).extracting(Checkpoint::number).containsExactly(3, 4);
        assertThat(refs())
                .containsExactly("refs/paddock/checkpoints/files-001/3", "refs/paddock/checkpoints/files-001/4");
        assertThatThrownBy(() -> checkpoints.rollback(sandbox.id(), 1, "test"))
                .isInstanceOf(CheckpointNotFoundException.class)
                .hasMessage("files-001 has no checkpoint 1 (list them with: paddock sandbox checkpoints files-001).");
        assertThat(Files.readString(wt.resolve("a.txt"))).isEqualTo("version 4\n");
    }

    @Test
    void aClosedSandboxHasNoCheckpointsToTake() throws Exception {
        wiring.sandboxService().remove(sandbox.id(), RemoveMode.FORCE, true, "test");

        assertThatThrownBy(() -> checkpoints.checkpoint(sandbox.id(), "late", null, "test"))
                .isInstanceOf(dev.paddock.sandbox.SandboxConflictException.class)
                .hasMessageContaining("files-001 is closed");
        assertThatThrownBy(() -> checkpoints.checkpoint("nobody-001", "x", null, "test"))
                .isInstanceOf(dev.paddock.sandbox.SandboxNotFoundException.class);
    }

    // --- helpers ---------------------------------------------------------------------------------------

    private void publishTurnEnded(int turn) throws Exception {
        wiring.events()
                .append(EventDraft.of(
                        sandbox.repositoryId(),
                        sandbox.id(),
                        EventKinds.AGENT_TURN_ENDED,
                        sandbox.id() + ": turn " + turn + " ended",
                        Map.of("run", turn, "session", "s-1", "via", "file")));
    }

    private List<Checkpoint> list() {
        try {
            return checkpoints.list(sandbox.id());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> refs() {
        String out = repo.git("for-each-ref", "--format=%(refname)", "refs/paddock/");
        return out.isBlank() ? List.of() : out.strip().lines().toList();
    }

    private void write(String path, String content) throws IOException {
        Path p = wt.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    private String git(String... args) {
        return TempRepo.git(wt, args).strip();
    }

    private Path indexFile() {
        return wt.resolve(git("rev-parse", "--git-path", "index"));
    }

    /** Every file of the worktree but {@code .git}: its content and whether it is executable. */
    private Map<String, String> disk() {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(wt)) {
            walk.filter(Files::isRegularFile)
                    .filter(p -> !wt.relativize(p).startsWith(".git"))
                    .forEach(p -> {
                        try {
                            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
                            files.put(
                                    wt.relativize(p).toString(),
                                    (perms.contains(PosixFilePermission.OWNER_EXECUTE) ? "x " : "- ")
                                            + Files.readString(p));
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static Map<String, String> withoutIgnored(Map<String, String> files) {
        Map<String, String> kept = new TreeMap<>(files);
        kept.remove("trace.log");
        kept.remove("build/out.bin");
        return kept;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }
}
