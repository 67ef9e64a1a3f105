package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.Wiring;
import dev.paddock.layer.LayerChange;
import dev.paddock.layer.LayerException;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shared layers for real: namespace sandboxes (bubblewrap) of a repository see its dependency folder read-only
 * through an overlay that Paddock mounts in a user and mount namespace of the run's own; each sandbox's writes land
 * in its own upper layer, which gives its change list.
 */
class SharedLayerSandboxTest {
    @TempDir
    Path tmp;

    TempRepo repo;
    Wiring wiring;

    @BeforeEach
    void open() throws Exception {
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.excludeWorktreesDir();
        repo.commitFile(".gitignore", "node_modules/\n", "Ignore the dependencies");
        repo.write("node_modules/pkg/a.txt", "shared a\n");
        repo.write("node_modules/pkg/b.txt", "shared b\n");
        repo.write("node_modules/.bin/tool", "#!/bin/sh\necho tool\n");
        Files.setPosixFilePermissions(
                repo.dir().resolve("node_modules/.bin/tool"), PosixFilePermissions.fromString("rwxr-xr-x"));
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        wiring.setApiUrl("http://127.0.0.1:1");
    }

    @AfterEach
    void close() {
        wiring.close();
    }

    @Test
    void twoNamespaceSandboxesShareAFolderReadOnlyAndEachSeesItsOwnWritesOnly() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        assertThat(wiring.layers().refresh(repo.dir(), step -> {}).generation()).isEqualTo(1);

        SandboxRecord a = run(
                "Change the dependencies",
                "cat node_modules/pkg/a.txt; node_modules/.bin/tool;"
                        + " echo mine > node_modules/pkg/a.txt && rm node_modules/pkg/b.txt"
                        + " && mkdir -p node_modules/new/deep && echo added > node_modules/new/deep/c.txt"
                        + " && chmod -x node_modules/.bin/tool && echo A-DONE");
        SandboxRecord b = run(
                "Look at the dependencies",
                "cat node_modules/pkg/a.txt node_modules/pkg/b.txt; ls node_modules;"
                        + " echo own > node_modules/own.txt && echo B-DONE");

        assertThat(log(a)).contains("shared a", "tool", "A-DONE");
        assertThat(log(b))
                .contains("shared a", "shared b", "B-DONE")
                .doesNotContain("mine")
                .doesNotContain("new");
        assertThat(changes(a))
                .containsExactly(
                        new LayerChange("node_modules/.bin/tool", LayerChange.Kind.MODIFIED),
                        new LayerChange("node_modules/new/deep/c.txt", LayerChange.Kind.ADDED),
                        new LayerChange("node_modules/pkg/a.txt", LayerChange.Kind.MODIFIED),
                        new LayerChange("node_modules/pkg/b.txt", LayerChange.Kind.DELETED));
        assertThat(changes(b)).containsExactly(new LayerChange("node_modules/own.txt", LayerChange.Kind.ADDED));

        // The shared layer and the main checkout's folder are as they were; the host sees an empty mount point.
        Path gen = repo.dir().resolve(".worktrees/.shared/gen-1/node_modules");
        assertThat(Files.readString(gen.resolve("pkg/a.txt"))).isEqualTo("shared a\n");
        assertThat(gen.resolve("pkg/b.txt")).exists();
        assertThat(Files.isExecutable(gen.resolve(".bin/tool"))).isTrue();
        assertThat(Files.readString(repo.dir().resolve("node_modules/pkg/a.txt")))
                .isEqualTo("shared a\n");
        try (Stream<Path> s = Files.list(a.workspace().worktree().resolve("node_modules"))) {
            assertThat(s).isEmpty();
        }
        assertThat(repo.git("-C", a.workspace().worktree().toString(), "status", "--porcelain"))
                .isEmpty();
    }

    @Test
    void aRefreshLeavesTheMainCheckoutClean() throws Exception {
        TempRepo fresh = TempRepo.init(tmp.resolve("fresh"));
        fresh.commitFile(".gitignore", "node_modules/\n", "Ignore the dependencies");
        fresh.write("node_modules/x/y.js", "y\n");
        wiring.layers().configure(fresh.dir(), List.of("node_modules"), null);

        wiring.layers().refresh(fresh.dir(), step -> {});

        assertThat(fresh.dir().resolve(".worktrees/.shared/gen-1/node_modules/x/y.js"))
                .exists();
        assertThat(fresh.git("status", "--porcelain")).isEmpty();
    }

    @Test
    void theSharedLayerItselfCannotBeWrittenFromInside() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        Path lower = repo.dir().resolve(".worktrees/.shared/gen-1/node_modules/pkg/a.txt");

        SandboxRecord s = run(
                "Attack the shared layer",
                "if echo evil > " + lower + "; then echo WROTE-LOWER; fi;"
                        + " if echo evil > " + repo.dir().resolve("node_modules/pkg/a.txt")
                        + "; then echo WROTE-MAIN; fi; echo TRIED");

        assertThat(log(s)).contains("TRIED").doesNotContain("WROTE-LOWER").doesNotContain("WROTE-MAIN");
        assertThat(Files.readString(lower)).isEqualTo("shared a\n");
    }

    @Test
    void aFolderReplacedWholeIsListedAsReplaced() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});

        SandboxRecord s = run(
                "Reinstall a package",
                "rm -rf node_modules/pkg && mkdir node_modules/pkg && echo fresh > node_modules/pkg/z.txt && echo OK");
        SandboxRecord kinds = run(
                "Change kinds",
                "rm -rf node_modules/.bin && echo now-a-file > node_modules/.bin"
                        + " && rm node_modules/pkg/a.txt && mkdir node_modules/pkg/a.txt"
                        + " && echo in > node_modules/pkg/a.txt/in && echo KINDS");

        assertThat(log(s)).contains("OK");
        assertThat(changes(s))
                .containsExactly(
                        new LayerChange("node_modules/pkg", LayerChange.Kind.REPLACED),
                        new LayerChange("node_modules/pkg/z.txt", LayerChange.Kind.ADDED));
        assertThat(log(kinds)).contains("KINDS");
        assertThat(changes(kinds))
                .as("a folder now a file, a file now a folder")
                .containsExactly(
                        new LayerChange("node_modules/.bin", LayerChange.Kind.REPLACED),
                        new LayerChange("node_modules/pkg/a.txt", LayerChange.Kind.REPLACED),
                        new LayerChange("node_modules/pkg/a.txt/in", LayerChange.Kind.ADDED));
    }

    @Test
    void aRefreshBuildsANewGenerationThatOnlySandboxesStartedAfterItSee() throws Exception {
        wiring.layers()
                .configure(
                        repo.dir(),
                        List.of("node_modules", "~/.cache/tool"),
                        "mkdir -p node_modules/pkg \"$HOME/.cache/tool\" && echo v$(date +%N) > node_modules/pkg/v"
                                + " && echo cached > \"$HOME/.cache/tool/c\"");
        wiring.layers().refresh(repo.dir(), step -> {});
        SandboxRecord first = run("Read v1", "cat node_modules/pkg/v ~/.cache/tool/c");
        String v1 = Files.readString(repo.dir().resolve(".worktrees/.shared/gen-1/node_modules/pkg/v"));

        assertThat(wiring.layers().refresh(repo.dir(), step -> {}).generation()).isEqualTo(2);
        SandboxRecord second = run("Read v2", "cat node_modules/pkg/v");
        String v2 = Files.readString(repo.dir().resolve(".worktrees/.shared/gen-2/node_modules/pkg/v"));

        assertThat(v1).isNotEqualTo(v2);
        assertThat(log(first)).contains(v1.strip(), "cached");
        assertThat(log(second)).contains(v2.strip());
        // The first sandbox is pinned to generation 1: kept until it is removed, then reclaimed.
        assertThat(repo.dir().resolve(".worktrees/.shared/gen-1")).isDirectory();
        assertThat(repo.git("worktree", "list")).doesNotContain("build-");
        wiring.sandboxService().remove(first.id(), RemoveMode.FORCE, true, "test");
        wiring.layers().reclaim(repo.dir());
        assertThat(repo.dir().resolve(".worktrees/.shared/gen-1")).doesNotExist();
        assertThat(repo.dir().resolve(".worktrees/.shared/gen-2")).isDirectory();
    }

    @Test
    void theSharedLayersFolderAndARefreshsCheckoutAreNoOrphans() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        repo.git(
                "worktree",
                "add",
                "--detach",
                repo.dir().resolve(".worktrees/.shared/build-9").toString());

        List<Orphan> orphans = new OrphanScanner(java.time.Clock.systemUTC(), Duration.ZERO)
                .scan(
                        repo.dir(),
                        new dev.paddock.worktree.WorktreeManager(new dev.paddock.worktree.GitCli()).list(repo.dir()),
                        List.of());

        assertThat(orphans).isEmpty();
        assertThat(wiring.layers().reclaim(repo.dir()))
                .containsExactly(repo.dir().resolve(".worktrees/.shared/build-9"));
        assertThat(repo.git("worktree", "list")).doesNotContain("build-9");
    }

    @Test
    void aFailedSetupCommandChangesNothingAndSaysWhy() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), "echo 'npm ERR! no network' >&2; exit 3");

        assertThatThrownBy(() -> wiring.layers().refresh(repo.dir(), step -> {}))
                .isInstanceOf(LayerException.class)
                .hasMessageContaining("exit 3")
                .hasMessageContaining("npm ERR! no network");
        assertThat(wiring.layers().status(repo.dir()).generation()).isZero();
        assertThat(repo.git("worktree", "list")).doesNotContain("build-");
        SandboxRecord s = run("No layer yet", "ls node_modules/pkg 2>&1; echo LISTED");
        assertThat(log(s)).contains("LISTED").doesNotContain("a.txt");
    }

    @Test
    void aCappedLayerRefusesWritesPastItsCap() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        wiring.settings().set("layers.capMb", "1", "test");

        SandboxRecord s = run(
                "Fill the layer",
                "echo small > node_modules/small.txt && echo SMALL-OK;"
                        + " if head -c 3000000 /dev/zero > node_modules/big 2>err.txt; then echo BIG-OK; fi; cat err.txt");

        assertThat(log(s)).contains("SMALL-OK", "No space left on device").doesNotContain("BIG-OK");
        assertThat(repo.dir().resolve(".worktrees/.shared/gen-1/node_modules/big"))
                .doesNotExist();
    }

    @Test
    void foldersGitTracksCannotBeShared() throws Exception {
        repo.commitFile("vendor/lib.txt", "tracked\n", "Vendor a library");

        assertThatThrownBy(() -> wiring.layers().configure(repo.dir(), List.of("vendor"), null))
                .isInstanceOf(LayerException.class)
                .hasMessageContaining("git tracks files in vendor");
        assertThat(wiring.layers().status(repo.dir()).folders()).isEmpty();
    }

    @Test
    void theChangesSurviveARestartOfPaddock() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        SandboxRecord s = run("Write", "echo kept > node_modules/kept.txt");
        wiring.close();
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));

        assertThat(changes(s)).containsExactly(new LayerChange("node_modules/kept.txt", LayerChange.Kind.ADDED));
    }

    private List<LayerChange> changes(SandboxRecord s) throws Exception {
        SandboxLayout l = wiring.sandboxService().layout(s.id());
        return wiring.layers().changes(s.repositoryId(), l.mainWorktree(), l.sandboxDir(), null);
    }

    /** What the run printed (the log's first line repeats the command). */
    private String log(SandboxRecord s) throws Exception {
        return wiring.sandboxService()
                .logTail(s.id())
                .lines()
                .skip(1)
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    private SandboxRecord run(String task, String command) throws Exception {
        SandboxRecord s = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, command)
                        .tier(Tier.NAMESPACE)
                        .leaseMs(60_000L)
                        .maxRetries(0)
                        .build());
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        SandboxRecord r = wiring.sandboxService().find(s.id());
        while (r.state() != SandboxState.DONE && r.state() != SandboxState.FAILED) {
            assertThat(System.nanoTime())
                    .as("%s ends; now %s, log:%n%s", s.id(), r.state().id(), log(r))
                    .isLessThan(deadline);
            wiring.supervisor().tick();
            Thread.sleep(100);
            r = wiring.sandboxService().find(s.id());
        }
        assertThat(Files.exists(r.workspace().worktree(), LinkOption.NOFOLLOW_LINKS))
                .isTrue();
        return r;
    }
}
