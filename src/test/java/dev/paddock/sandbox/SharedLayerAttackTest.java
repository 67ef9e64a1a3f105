package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.Wiring;
import dev.paddock.layer.LayerChange;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shared layers against a hostile agent in a namespace sandbox: what it may change in its worktree (the places the
 * shared folders are shown at) must never make a later run of its sandbox reach the host, the shared generation or
 * another sandbox's layers.
 */
class SharedLayerAttackTest {
    @TempDir
    Path tmp;

    TempRepo repo;
    Wiring wiring;
    Path victim;

    @BeforeEach
    void open() throws Exception {
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.excludeWorktreesDir();
        repo.commitFile(".gitignore", "node_modules/\n", "Ignore the dependencies");
        repo.commitFile("web/index.js", "// web\n", "A web folder");
        repo.write("node_modules/pkg/a.txt", "shared a\n");
        repo.write("web/node_modules/pkg/a.txt", "shared web a\n");
        victim = Files.createDirectories(tmp.resolve("victim"));
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        wiring.setApiUrl("http://127.0.0.1:1");
    }

    @AfterEach
    void close() {
        wiring.close();
    }

    /**
     * bubblewrap makes the place it binds a folder at, following links, before it leaves its own root: a link to
     * {@code /oldroot/...} there reaches the host's file system. The parent of a nested shared folder lies in the
     * worktree, which the agent writes.
     */
    @Test
    void aParentOfANestedSharedFolderLinkedToTheHostMakesNothingThere() throws Exception {
        assertRetryMakesNothingOnTheHost("ln -s /oldroot" + victim + " web");
    }

    @Test
    void aParentLinkedToTheHostThroughDotDotsMakesNothingThere() throws Exception {
        assertRetryMakesNothingOnTheHost("ln -s " + "../".repeat(40) + "oldroot" + victim + " web");
    }

    /**
     * The same reach into the shared generation other sandboxes see (which overlayfs forbids changing under a mounted
     * overlay): only a folder named like the shared one can be made so, but made it is.
     */
    @Test
    void aParentLinkedIntoTheSharedGenerationAddsNothingToIt() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("web/node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        Path pkg = repo.dir().resolve(".worktrees/.shared/gen-1/web%2Fnode_modules/pkg");
        assertThat(pkg).isDirectory();

        SandboxRecord s = runTwice("Write into the shared layer", "ln -s /oldroot" + pkg + " web");
        SandboxRecord other = run("Look at the shared layer", "ls web/node_modules/pkg");

        assertThat(log(s)).contains("FIRST");
        assertThat(pkg.resolve("node_modules")).as("made in the shared layer").doesNotExist();
        assertThat(log(other)).contains("a.txt").doesNotContain("node_modules");
    }

    /**
     * A hostile repository tracks {@code web} as a link out of it: a refresh must neither move the folder it leads
     * to (with a setup command the folders are moved into the generation, which is deleted once stale) nor copy it.
     */
    @Test
    void aRefreshNeverTakesAFolderThroughALinkTheRepositoryTracks() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere/node_modules"));
        Files.writeString(elsewhere.resolve("precious.txt"), "precious\n");
        // Configured while web is a folder (a link there is refused at once: git does not call it ignored).
        wiring.layers().configure(repo.dir(), List.of("web/node_modules"), "true");
        TempRepo.deleteTree(repo.dir().resolve("web"));
        Files.createSymbolicLink(repo.dir().resolve("web"), elsewhere.getParent());
        repo.git("add", "web");
        repo.git("commit", "-m", "Link web elsewhere");
        assertThatThrownBy(() -> wiring.layers().configure(repo.dir(), List.of("web/node_modules"), null))
                .hasMessageContaining("git does not ignore web/node_modules");

        Throwable withSetup = org.assertj.core.api.Assertions.catchThrowable(
                () -> wiring.layers().refresh(repo.dir(), step -> {}));
        wiring.layers().configure(repo.dir(), List.of(), null);
        Path link = repo.dir().resolve("web");
        Files.delete(link);
        Files.createDirectories(link.resolve("node_modules"));
        wiring.layers().configure(repo.dir(), List.of("web/node_modules"), null);
        Files.walk(link)
                .sorted(java.util.Comparator.reverseOrder())
                .forEach(p -> p.toFile().delete());
        Files.createSymbolicLink(link, elsewhere.getParent());
        Throwable copied = org.assertj.core.api.Assertions.catchThrowable(
                () -> wiring.layers().refresh(repo.dir(), step -> {}));

        assertThat(elsewhere.resolve("precious.txt")).hasContent("precious");
        assertThat(withSetup).as("refresh with a setup command").isNotNull();
        assertThat(copied).as("refresh by a copy").isNotNull();
        try (Stream<Path> gens = Files.list(repo.dir().resolve(".worktrees/.shared"))) {
            assertThat(gens.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("gen-"));
        }
    }

    /**
     * A refresh runs the setup command on the host in a checkout of the base branch, whose ref an agent may move (the
     * refs are writable inside, for its own commits): the agent's own setup script must not run on the host then.
     */
    @Test
    void anAgentMovingBaseGetsNoCodeRunOnTheHostByTheNextRefresh() throws Exception {
        repo.commitFile("setup.sh", "mkdir -p node_modules/pkg && echo v > node_modules/pkg/v\n", "A setup script");
        String base = repo.git("branch", "--show-current").strip();
        Path pwned = tmp.resolve("pwned");
        wiring.layers().configure(repo.dir(), List.of("node_modules"), "sh setup.sh");
        wiring.layers().refresh(repo.dir(), step -> {});

        SandboxRecord s = run(
                "Move base",
                "echo 'touch " + pwned + " " + repo.dir().resolve("pwned") + "; mkdir -p node_modules' > setup.sh"
                        + " && git add setup.sh && git -c user.name=a -c user.email=a@b commit -qm deps"
                        + " && git update-ref refs/heads/" + base + " HEAD && echo MOVED");
        assertThat(log(s)).contains("MOVED");
        org.assertj.core.api.Assertions.catchThrowable(() -> wiring.layers().refresh(repo.dir(), step -> {}));

        assertThat(pwned).as("made on the host by the agent's setup script").doesNotExist();
        assertThat(repo.dir().resolve("pwned"))
                .as("made in the main checkout by it")
                .doesNotExist();
        assertThat(Files.readString(repo.dir().resolve(".worktrees/.shared/refresh.log")))
                .as("the script ran, in the sandbox")
                .contains("touch: cannot touch");
    }

    /** The shared folder's own place replaced by a link: the run is refused, nothing is bound there. */
    @Test
    void aSharedFolderReplacedByALinkToTheHostIsRefused() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});

        SandboxRecord s = runTwice(
                "Link node_modules out",
                "umount node_modules 2>/dev/null; mv node_modules nm.old 2>&1; ln -s /oldroot" + victim
                        + " node_modules; ls -la");

        try (Stream<Path> in = Files.list(victim)) {
            assertThat(in).as("made on the host").isEmpty();
        }
        assertThat(s.state()).isEqualTo(SandboxState.FAILED);
    }

    /** The uid, gid and capabilities inside are the same with a shared layer as without one. */
    @Test
    void anAgentIsNoMorePrivilegedWithASharedLayer() throws Exception {
        String probe = "id; grep -E '^(Cap|NoNewPrivs|Seccomp:)' /proc/self/status; cat /proc/self/uid_map"
                + " /proc/self/gid_map; if unshare --user --map-root-user --mount true 2>/dev/null;"
                + " then echo NESTED-USERNS; fi; if mount -t tmpfs x /tmp 2>/dev/null; then echo MOUNTS; fi";
        SandboxRecord plain = run("Plain identity", probe);
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        SandboxRecord layered = run("Layered identity", probe);

        System.out.println("PLAIN:\n" + log(plain) + "\nLAYERED:\n" + log(layered));
        // Where the run's caller is root, bubblewrap keeps the capabilities of the namespace it starts in: with a
        // layer that is unshare's, which holds all of them (CAP_SYS_RESOURCE too, over that namespace alone).
        assertThat(lines(layered, "uid=", "uid_map", "NoNewPrivs", "Seccomp"))
                .isEqualTo(lines(plain, "uid=", "uid_map", "NoNewPrivs", "Seccomp"));
    }

    /** Another sandbox's upper layer, the shared generation and the host paths behind them, seen from inside. */
    @Test
    void aSandboxSeesNeitherAnothersUpperLayerNorTheSharedFolders() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        SandboxRecord a = run("Write a secret", "echo secret-of-a > node_modules/secret.txt");
        Path upperOfA = wiring.sandboxService().layout(a.id()).sandboxDir().resolve(".layers");
        Path shared = repo.dir().resolve(".worktrees/.shared");

        SandboxRecord b = run(
                "Look for it",
                "cat " + upperOfA + "/node_modules/upper/secret.txt 2>&1; ls -la " + shared + " 2>&1;"
                        + " grep -r secret-of-a / --include=secret.txt 2>/dev/null; grep overlay /proc/self/mountinfo;"
                        + " echo x > " + shared + "/gen-1/node_modules/pkg/a.txt 2>&1; echo LOOKED");

        System.out.println("B:\n" + log(b));
        assertThat(log(b)).contains("LOOKED").doesNotContain("secret-of-a\n");
        assertThat(Files.readString(shared.resolve("gen-1/node_modules/pkg/a.txt")))
                .isEqualTo("shared a\n");
    }

    /** What the change list makes of links out, fifos, a tree deeper than a path may be long, and forged marks. */
    @Test
    void theChangeListNeitherFollowsNorHangsOnWhatTheAgentWrote() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        SandboxRecord s = run(
                "Forge the upper layer",
                "cd node_modules && ln -s /etc out && ln -s /etc/passwd pw && mkfifo fifo"
                        + " && (setfattr -n user.overlay.opaque -v y pkg 2>&1 || echo NO-XATTR)"
                        + " && (mknod wh c 0 0 2>&1 || echo NO-MKNOD) && echo FORGED");

        System.out.println("FORGE:\n" + log(s));
        List<LayerChange> changes = changes(s, null);
        System.out.println("CHANGES: " + changes);
        assertThat(changes)
                .extracting(LayerChange::path)
                .contains("node_modules/out", "node_modules/pw", "node_modules/fifo")
                .noneMatch(p -> p.startsWith("node_modules/out/"));
    }

    @Test
    void aVeryDeepTreeStillGivesAChangeList() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        SandboxRecord s = run(
                "Dig deep",
                "cd node_modules && i=0; while [ $i -lt 1500 ]; do mkdir d && cd d || break; i=$((i+1)); done;"
                        + " echo deep > f; echo DUG $i");

        assertThat(log(s)).contains("DUG 1500");
        long start = System.nanoTime();
        List<LayerChange> changes = changes(s, null);
        System.out.println("DEEP: " + changes.size() + " in " + (System.nanoTime() - start) / 1_000_000 + " ms");
        assertThat(changes).hasSize(1);
    }

    /** A tree deeper than a path may be long, in the upper layer: the sandbox can still be removed. */
    @Test
    void aSandboxWithATooDeepUpperLayerCanStillBeRemoved() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        SandboxRecord s = run(
                "Dig too deep",
                "cd node_modules && i=0; while [ $i -lt 1990 ]; do mkdir d && cd d || break; i=$((i+1)); done;"
                        + " echo DUG $i");
        Path dir = wiring.sandboxService().layout(s.id()).sandboxDir();
        try {
            assertThat(log(s)).contains("DUG 1990");
            Throwable listed = org.assertj.core.api.Assertions.catchThrowable(() -> changes(s, null));
            Throwable removed = org.assertj.core.api.Assertions.catchThrowable(
                    () -> wiring.sandboxService().remove(s.id(), RemoveMode.FORCE, true, "test"));
            System.out.println("TOO-DEEP: changes " + listed + "; remove " + removed);
            assertThat(removed).isNull();
            assertThat(dir).doesNotExist();
        } finally {
            new ProcessBuilder("rm", "-rf", dir.toString()).start().waitFor();
        }
    }

    /** A capped layer's change list, read while the run runs (its upper layer lives in the run's memory). */
    @Test
    void aCappedLayersChangesAreReadWhileItRuns() throws Exception {
        wiring.layers().configure(repo.dir(), List.of("node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});
        wiring.settings().set("layers.capMb", "1", "test");
        SandboxRecord s = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Write and wait", "echo live > node_modules/live.txt; sleep 20")
                        .tier(Tier.NAMESPACE)
                        .leaseMs(60_000L)
                        .maxRetries(0)
                        .build());
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        List<LayerChange> changes = List.of();
        while (System.nanoTime() < deadline && changes.isEmpty()) {
            wiring.supervisor().tick();
            Thread.sleep(200);
            SandboxRecord r = wiring.sandboxService().find(s.id());
            if (r.state() == SandboxState.RUNNING && r.runRef() != null) {
                changes = changes(r, r.runRef().pid());
            }
        }
        wiring.sandboxService().stop(s.id(), "test");
        assertThat(changes).containsExactly(new LayerChange("node_modules/live.txt", LayerChange.Kind.ADDED));
    }

    private void assertRetryMakesNothingOnTheHost(String link) throws Exception {
        wiring.layers().configure(repo.dir(), List.of("web/node_modules"), null);
        wiring.layers().refresh(repo.dir(), step -> {});

        SandboxRecord s = runTwice("Link web out", link);

        assertThat(log(s)).contains("FIRST");
        try (Stream<Path> in = Files.list(victim)) {
            assertThat(in).as("made on the host by a sandbox's run").isEmpty();
        }
    }

    /** A run that moves {@code web} and {@code node_modules} aside and runs {@code attack}, then a retry of it. */
    private SandboxRecord runTwice(String task, String attack) throws Exception {
        String command = "if [ -e .attacked ]; then echo SECOND; ls -la web/ node_modules/ 2>&1; exit 0; fi;"
                + " touch .attacked; mv web web.old; echo FIRST; " + attack + "; exit 0";
        SandboxRecord s = run(task, command);
        wiring.sandboxService().retry(s.id(), "test");
        return awaitEnd(s.id(), 0);
    }

    private List<String> lines(SandboxRecord s, String... prefixes) throws Exception {
        return log(s).lines()
                .map(String::strip)
                .filter(l -> Stream.of(prefixes).anyMatch(l::startsWith) || l.matches("[0-9 ]+"))
                .toList();
    }

    private List<LayerChange> changes(SandboxRecord s, Long pid) throws Exception {
        SandboxLayout l = wiring.sandboxService().layout(s.id());
        return wiring.layers().changes(s.repositoryId(), l.mainWorktree(), l.sandboxDir(), pid);
    }

    private String log(SandboxRecord s) throws Exception {
        return wiring.sandboxService().logTail(s.id()).lines().skip(1).collect(Collectors.joining("\n"));
    }

    private SandboxRecord run(String task, String command) throws Exception {
        SandboxRecord s = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), task, command)
                        .tier(Tier.NAMESPACE)
                        .leaseMs(60_000L)
                        .maxRetries(0)
                        .build());
        return awaitEnd(s.id(), 1);
    }

    private SandboxRecord awaitEnd(String id, int iteration) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        SandboxRecord r = wiring.sandboxService().find(id);
        while (r.state() != SandboxState.DONE && r.state() != SandboxState.FAILED
                || r.run().iteration() < iteration) {
            assertThat(System.nanoTime())
                    .as("%s ends; now %s, log:%n%s", id, r.state().id(), log(r))
                    .isLessThan(deadline);
            wiring.supervisor().tick();
            Thread.sleep(100);
            r = wiring.sandboxService().find(id);
        }
        return r;
    }
}
