package dev.paddock.merge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Paddock;
import dev.paddock.Wiring;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoStore;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.settings.PaddockHome;
import dev.paddock.store.Database;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * "Nothing lost": a real {@code paddock serve} merges a finished sandbox through its queue and is killed
 * with SIGKILL inside each step; a second one on the same home finishes the job. Git's own hooks hold the first
 * Paddock inside a step until the kill: {@code post-checkout} (the merge worktree being made: updating), the
 * test command (testing), {@code post-commit} (the merge commit made, base not moved yet: merging) and
 * {@code reference-transaction} in state committed (base moved, not recorded yet: merging, after the CAS).
 */
class MergeKillNineTest {
    private static final String ID = "merge-kill-001";
    private static final String BRANCH = "agent/kill";
    private static final String AGENT = "echo one > one.txt && git add one.txt && git commit -q -m 'Agent: one'";
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    /** Where the first Paddock is held when it is killed. */
    enum KillPoint {
        UPDATING,
        TESTING,
        MERGING_BEFORE_CAS,
        MERGING_AFTER_CAS
    }

    @TempDir
    Path tmp;

    private PaddockHome home;
    private TempRepo repo;
    private Path arm;
    private Path reached;
    private final List<ChildJvm> servers = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        home = PaddockHome.resolve(tmp.resolve("home"), Map.of());
        repo = TempRepo.init(tmp.resolve("repo"));
        arm = tmp.resolve("arm");
        reached = tmp.resolve("reached");
    }

    @AfterEach
    void tearDown() throws Exception {
        Files.deleteIfExists(arm);
        servers.forEach(ChildJvm::close);
    }

    @ParameterizedTest
    @EnumSource(KillPoint.class)
    void aKillInAnyStepLeavesBaseWholeAndTheNextPaddockFinishesTheMerge(KillPoint point) throws Exception {
        String hold = "touch '" + reached + "'; while [ -e '" + arm + "' ]; do sleep 0.1; done";
        String testCommand = "true";
        switch (point) {
            case UPDATING -> hook("post-checkout", "case \"$PWD\" in *.worktrees/.merge/*) " + hold + ";; esac");
            case TESTING -> testCommand = hold;
            // The merge commit is made in core: held inside the compare-and-set itself, before git writes the ref,
            // and aborted when let go (only while armed: the next Paddock's attempt goes through).
            case MERGING_BEFORE_CAS ->
                hook(
                        "reference-transaction",
                        "[ \"$1\" = prepared ] || exit 0; grep -q ' refs/heads/main$' || exit 0;" + " if [ -e '" + arm
                                + "' ]; then " + hold + "; exit 1; fi");
            case MERGING_AFTER_CAS ->
                hook(
                        "reference-transaction",
                        "[ \"$1\" = committed ] || exit 0;" + " grep -q ' refs/heads/main$' || exit 0; " + hold);
        }
        String base;
        try (Wiring w = Wiring.open(home)) {
            w.merges().configure(repo.dir(), null, testCommand, 60_000L, 3, null, "auto");
            w.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "commit one file", AGENT)
                            .id(ID)
                            .branch(BRANCH)
                            .maxRetries(0)
                            .build());
            base = repo.head();
        }
        Files.writeString(arm, "held");

        ChildJvm first = serve();
        first.await("the merge queue to reach " + point, () -> Files.exists(reached), PATIENCE);
        first.process().destroyForcibly();
        assertThat(first.process().waitFor(20, java.util.concurrent.TimeUnit.SECONDS))
                .isTrue();
        Files.delete(arm); // lets the orphaned git or test process end
        Thread.sleep(500);

        String tip = TempRepo.revParse(repo.dir(), BRANCH);
        String killedBase = repo.git("rev-parse", "main").strip();
        if (!killedBase.equals(base)) {
            assertThat(repo.git("rev-list", "--parents", "-n", "1", "main")
                            .strip()
                            .split(" "))
                    .as("base after the kill is the old commit or the whole merge")
                    .containsExactly(killedBase, base, tip);
        }
        assertThat(point == KillPoint.MERGING_AFTER_CAS ? !killedBase.equals(base) : killedBase.equals(base))
                .isTrue();

        ChildJvm second = serve();
        // The entry is recorded as merged first, then its merge worktree is removed: wait for both, or closing
        // the second Paddock can cut the removal short (the third would clear the leftover; none is started).
        second.await("the entry to be merged and its own merge worktree removed", this::mergedAndCleanedUp, PATIENCE);
        second.close();

        Stored stored = read();
        assertThat(stored.entries()).hasSize(1);
        MergeEntry e = stored.entries().get(0);
        assertThat(e.state()).isEqualTo(MergeState.MERGED);
        assertThat(repo.git("rev-parse", "main").strip()).isEqualTo(e.attempt().mergeCommit());
        assertThat(repo.git("rev-list", "--merges", base + "..main")
                        .strip()
                        .lines()
                        .count())
                .as("merged exactly once")
                .isEqualTo(1);
        assertThat(repo.git("rev-list", "--parents", "-n", "1", "main").strip().split(" "))
                .containsExactly(e.attempt().mergeCommit(), base, tip);
        assertThat(repo.git("show", "main:one.txt")).isEqualTo("one\n");
        assertThat(Files.readString(repo.dir().resolve("one.txt"), StandardCharsets.UTF_8))
                .as("main checkout follows")
                .isEqualTo("one\n");
        assertThat(repo.git("status", "--porcelain", "--untracked-files=no")).isEmpty();
        String[] left = MergeGit.mergeRoot(repo.dir()).toFile().list();
        assertThat(left == null ? List.<String>of() : List.of(left))
                .as("no leftover merge worktree of an entry (the repository keeps one, cleaned before each use)")
                .allMatch("kept"::equals);
        assertThat(stored.sandbox().state().id()).isEqualTo("merged");
    }

    private void hook(String name, String body) throws Exception {
        Path hooks = repo.dir().resolve(".git").resolve("hooks");
        Files.createDirectories(hooks);
        Path h = hooks.resolve(name);
        Files.writeString(h, "#!/bin/sh\n" + body + "\nexit 0\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(h, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private ChildJvm serve() {
        ChildJvm serve = ChildJvm.start(
                tmp.resolve("child"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.dir().toString(), "serve"));
        servers.add(serve);
        serve.awaitStdout("Paddock serving on", PATIENCE);
        return serve;
    }

    /** Whether the running Paddock's API shows a merged entry. */
    private boolean mergedAndCleanedUp() {
        String[] left = MergeGit.mergeRoot(repo.dir()).toFile().list();
        return (left == null || java.util.Arrays.stream(left).allMatch("kept"::equals)) && apiSaysMerged();
    }

    private boolean apiSaysMerged() {
        try {
            var api = dev.paddock.api.ApiClient.discover(home.instanceFile(), home.tokenFile());
            // The sandbox moves to merged just after the entry (with no merge worktree of the entry's own to wait
            // for when its test ran in the kept one).
            return api.isPresent()
                    && new dev.paddock.api.MergeClient(api.get())
                            .list(repo.dir()).stream().anyMatch(v -> v.state().equals("merged"))
                    && new dev.paddock.api.SandboxClient(api.get())
                            .list(repo.dir()).stream()
                                    .anyMatch(
                                            v -> v.id().equals(ID) && v.state().equals("merged"));
        } catch (dev.paddock.common.PaddockException e) {
            return false;
        }
    }

    record Stored(SandboxRecord sandbox, List<MergeEntry> entries) {}

    private Stored read() throws Exception {
        try (Database db = Database.open(home.databaseBase())) {
            EventLog events = new EventLog(db, Clock.systemUTC());
            SandboxRecord s =
                    new SandboxStore(db, events, Clock.systemUTC()).find(ID).orElseThrow();
            MergeStore store = new MergeStore(db, events, Clock.systemUTC());
            long repoId = new RepoStore(db, Clock.systemUTC())
                    .findByPath(repo.dir())
                    .orElseThrow()
                    .id();
            return new Stored(s, store.list(repoId, 10));
        }
    }
}
