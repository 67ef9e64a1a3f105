package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import dev.paddock.testing.StoreKind;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

@ParameterizedClass(name = "{0}")
@EnumSource(StoreKind.class)
class WorktreeSeenStoreTest {
    private static final String H1 = "aaaaaaaa11111111111111111111111111111111";
    private static final Path MAIN = Path.of("/work/Проекты/My Répo");

    @TempDir
    Path tmp;

    private final StoreKind kind;

    WorktreeSeenStoreTest(StoreKind kind) {
        this.kind = kind;
    }

    private Database db;
    private WorktreeSeenStore store;
    private long repoA;
    private long repoB;

    @BeforeEach
    void openStore() throws Exception {
        db = kind.open(tmp);
        store = new WorktreeSeenStore(db, Clock.systemUTC());
        RepoStore repos = new RepoStore(db, Clock.systemUTC());
        repoA = repos.register(MAIN, "main").repo().id();
        repoB = repos.register(Path.of("/work/other"), "main").repo().id();
    }

    @AfterEach
    void closeStore() {
        db.close();
    }

    private void replace(long repositoryId, List<WorktreeInfo> worktrees) throws Exception {
        store.jdbc().inTransaction(tx -> {
            store.replace(tx, repositoryId, worktrees);
            return null;
        });
    }

    @Test
    void neverScannedRepositoryHasNothingStored() throws Exception {
        assertThat(store.load(repoA)).isEmpty();
    }

    @Test
    void storedWorktreesComeBackWithEverythingChangesAreComputedFrom() throws Exception {
        WorktreeInfo main = new WorktreeInfo(MAIN, H1, "main", false, true, null, null, "subject", false, 0);
        WorktreeInfo detached =
                new WorktreeInfo(MAIN.resolve(".worktrees/a/x"), H1, null, true, false, null, null, null, true, 3);
        WorktreeInfo locked = new WorktreeInfo(
                MAIN.resolve(".worktrees/b/feature/login"),
                H1,
                "feature/login",
                false,
                false,
                "agent running",
                null,
                null,
                null,
                0);
        WorktreeInfo prunable = new WorktreeInfo(
                Path.of("/elsewhere/gone"),
                H1,
                "old",
                false,
                false,
                null,
                "gitdir file points to non-existent location",
                null,
                null,
                0);
        WorktreeInfo unborn =
                new WorktreeInfo(Path.of("/elsewhere/unborn"), null, "fresh", false, false, null, null, null, false, 0);
        List<WorktreeInfo> all = List.of(main, detached, locked, prunable, unborn);

        replace(repoA, all);
        List<WorktreeInfo> loaded = store.load(repoA);

        assertThat(loaded).hasSize(5);
        assertThat(loaded)
                .extracting(WorktreeInfo::path)
                .containsExactlyInAnyOrderElementsOf(
                        all.stream().map(WorktreeInfo::path).toList());
        for (WorktreeInfo original : all) {
            WorktreeInfo back = loaded.stream()
                    .filter(w -> w.path().equals(original.path()))
                    .findFirst()
                    .orElseThrow();
            assertThat(back.head()).as("head of %s", original.path()).isEqualTo(original.head());
            assertThat(back.branch()).as("branch of %s", original.path()).isEqualTo(original.branch());
            assertThat(back.detached()).as("detached of %s", original.path()).isEqualTo(original.detached());
            assertThat(back.locked()).as("locked of %s", original.path()).isEqualTo(original.locked());
            assertThat(back.prunable()).as("prunable of %s", original.path()).isEqualTo(original.prunable());
            assertThat(back.dirty()).as("dirty of %s", original.path()).isEqualTo(original.dirty());
        }
        assertThat(WorktreeChanges.between(repoA, MAIN, all, loaded))
                .as("no change seen after a round trip")
                .isEmpty();
    }

    @Test
    void replaceDropsWorktreesNoLongerListedAndLeavesOtherRepositoriesAlone() throws Exception {
        WorktreeInfo a1 = new WorktreeInfo(MAIN, H1, "main", false, true, null, null, null, false, 0);
        WorktreeInfo a2 =
                new WorktreeInfo(MAIN.resolve(".worktrees/x/y"), H1, "y", false, false, null, null, null, false, 0);
        WorktreeInfo b1 = new WorktreeInfo(Path.of("/work/other"), H1, "main", false, true, null, null, null, true, 1);
        replace(repoA, List.of(a1, a2));
        replace(repoB, List.of(b1));

        replace(repoA, List.of(a1));

        assertThat(store.load(repoA)).extracting(WorktreeInfo::path).containsExactly(MAIN);
        assertThat(store.load(repoB))
                .singleElement()
                .satisfies(w -> assertThat(w.dirty()).isTrue());
    }
}
