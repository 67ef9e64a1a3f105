package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.paddock.events.Event;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitor against real repositories changed through the git CLI (as from a terminal) and a real
 * H2 store. Most tests drive {@link WorktreeMonitor#scan()} directly; one runs the real timer.
 */
class WorktreeMonitorTest {
    private static final Clock CLOCK = Clock.systemUTC();

    @TempDir
    Path tmp;

    private TempRepo repo;
    private Database db;
    private EventLog events;
    private WorktreeSeenStore seen;
    private WorktreeLister lister;
    private GitRepository gitRepo;
    private long repoId;
    private long lastEventId;
    private final List<WorktreeMonitor> monitors = new ArrayList<>();

    @BeforeEach
    void openRepositoryAndStore() throws Exception {
        repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
        db = Database.open(tmp.resolve("store").resolve("paddock"));
        events = new EventLog(db, CLOCK);
        seen = new WorktreeSeenStore(db, CLOCK);
        lister = new WorktreeLister(new GitCli());
        GitCli git = new GitCli();
        RepoService.OpenedRepo opened =
                new RepoService(new RepositoryLocator(git), git, new RepoStore(db, CLOCK), events).open(repo.dir());
        repoId = opened.record().id();
        gitRepo = opened.git();
        lastEventId = events.recent(repoId, 1).get(0).id(); // repository.registered
    }

    @AfterEach
    void closeEverything() {
        monitors.forEach(WorktreeMonitor::close);
        lister.close();
        db.close();
    }

    private WorktreeMonitor newMonitor() {
        WorktreeMonitor m = new WorktreeMonitor(gitRepo, repoId, lister, seen, events, CLOCK);
        monitors.add(m);
        return m;
    }

    /** A new monitor that has made its first scan; the events of that scan are already read. */
    private WorktreeMonitor scannedMonitor() throws Exception {
        WorktreeMonitor m = newMonitor();
        m.scan();
        newEvents();
        return m;
    }

    /** Events written since the last call, oldest first. */
    private List<Event> newEvents() throws Exception {
        List<Event> fresh = new ArrayList<>(events.recent(repoId, 1000).stream()
                .filter(e -> e.id() > lastEventId)
                .toList());
        fresh.sort(Comparator.comparingLong(Event::id));
        if (!fresh.isEmpty()) {
            lastEventId = fresh.get(fresh.size() - 1).id();
        }
        return fresh;
    }

    private static List<String> kinds(List<Event> list) {
        return list.stream().map(Event::kind).toList();
    }

    /**
     * Scans until an event of {@code kind} is written (at most 10 s). Needed for changes that only the
     * dirty-state refresh sees: that refresh backs off on slow machines (see WorktreeMonitor), so the
     * scan right after a change may legitimately not run git status yet.
     */
    private List<Event> scanUntil(WorktreeMonitor m, String kind) throws Exception {
        List<Event> seenEvents = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            m.scan();
            seenEvents.addAll(newEvents());
            if (kinds(seenEvents).contains(kind) || System.nanoTime() - deadline > 0) {
                return seenEvents;
            }
            Thread.sleep(100);
        }
    }

    private WorktreeInfo stored(Path path) throws Exception {
        return seen.load(repoId).stream()
                .filter(w -> w.path().equals(path))
                .findFirst()
                .orElseThrow(() -> new AssertionError(path + " not in worktrees_seen"));
    }

    @Test
    void firstScanOfANewRepositoryRecordsOneOpenedEventAndStoresTheWorktrees() throws Exception {
        WorktreeMonitor m = newMonitor();

        m.scan();

        List<Event> written = newEvents();
        assertThat(kinds(written)).containsExactly(EventKinds.REPOSITORY_OPENED);
        assertThat(written.get(0).message()).isEqualTo("Watching 1 worktree of " + repo.dir());
        assertThat(written.get(0).repositoryId()).isEqualTo(repoId);
        assertThat(seen.load(repoId)).singleElement().satisfies(w -> {
            assertThat(w.path()).isEqualTo(repo.dir());
            assertThat(w.head()).isEqualTo(repo.head());
            assertThat(w.branch()).isEqualTo("main");
            assertThat(w.detached()).isFalse();
            assertThat(w.dirty()).isFalse();
        });
        WorktreeSnapshot snap = m.snapshot();
        assertThat(snap.error()).isNull();
        assertThat(snap.repositoryId()).isEqualTo(repoId);
        assertThat(snap.worktrees()).singleElement().satisfies(w -> {
            assertThat(w.main()).isTrue();
            assertThat(w.subject()).isEqualTo("Initial commit");
        });
    }

    @Test
    void scanWithoutChangesRecordsNothing() throws Exception {
        WorktreeMonitor m = scannedMonitor();

        m.scan();
        m.scan();

        assertThat(newEvents()).isEmpty();
    }

    @Test
    void worktreeAddedFromATerminalIsRecordedOnTheNextScan() throws Exception {
        WorktreeMonitor m = scannedMonitor();

        Path wt = repo.addWorktree(repo.dir().resolve(".worktrees/fix-auth-001/feature/login"), "feature/login");
        m.scan();

        List<Event> written = newEvents();
        assertThat(kinds(written)).containsExactly(EventKinds.WORKTREE_ADDED);
        assertThat(written.get(0).message()).startsWith("Worktree added: fix-auth-001 on feature/login at ");
        assertThat(written.get(0).details()).contains("\"branch\":\"feature/login\"");
        assertThat(stored(wt).branch()).isEqualTo("feature/login");
        assertThat(m.snapshot().worktrees()).extracting(WorktreeInfo::path).containsExactly(repo.dir(), wt);
    }

    @Test
    void aWorktreeThatGitIsStillCheckingOutIsLeftOutUntilItIsReady() throws Exception {
        WorktreeMonitor m = scannedMonitor();
        // `git worktree add` holds this lock while it checks files out (builtin/worktree.c).
        Path wt = repo.addWorktree(tmp.resolve("wt"), "agent/slow");
        repo.git("worktree", "lock", "--reason", WorktreeMonitor.INITIALIZING, wt.toString());
        m.scan();
        assertThat(newEvents()).isEmpty();
        assertThat(m.snapshot().worktrees()).extracting(WorktreeInfo::path).containsExactly(repo.dir());

        repo.git("worktree", "unlock", wt.toString());
        m.scan();
        assertThat(kinds(newEvents())).containsExactly(EventKinds.WORKTREE_ADDED);
    }

    @Test
    void commitInAWorktreeIsRecordedAsHeadMoved() throws Exception {
        Path wt = repo.addWorktree(tmp.resolve("wt"), "agent/one");
        WorktreeMonitor m = scannedMonitor();

        TempRepo.write(wt, "feature.txt", "work\n");
        String head = TempRepo.commitAll(wt, "Implement the feature");
        m.scan();

        List<Event> written = newEvents();
        assertThat(kinds(written)).containsExactly(EventKinds.WORKTREE_HEAD_MOVED);
        assertThat(written.get(0).message())
                .contains("on agent/one")
                .contains(head.substring(0, 8))
                .endsWith("\"Implement the feature\"");
        assertThat(stored(wt).head()).isEqualTo(head);
    }

    @Test
    void editingAFileIsRecordedAsDirtyAndCommittingAsHeadMovedAndClean() throws Exception {
        Path wt = repo.addWorktree(tmp.resolve("wt"), "agent/one");
        WorktreeMonitor m = scannedMonitor();

        TempRepo.write(wt, "README.md", "# edited by an agent\n");
        List<Event> dirty = scanUntil(m, EventKinds.WORKTREE_DIRTY);
        assertThat(kinds(dirty)).containsExactly(EventKinds.WORKTREE_DIRTY);
        assertThat(dirty.get(0).message()).isEqualTo(wt + " has uncommitted changes (1 path)");
        assertThat(stored(wt).dirty()).isTrue();
        assertThat(m.snapshot().worktrees().get(1).changedFiles()).isEqualTo(1);

        TempRepo.commitAll(wt, "Edit readme");
        m.scan(); // head moved: its dirty state is checked again at once, whatever the back-off

        assertThat(kinds(newEvents())).containsExactly(EventKinds.WORKTREE_HEAD_MOVED, EventKinds.WORKTREE_CLEAN);
        assertThat(stored(wt).dirty()).isFalse();
    }

    @Test
    void worktreeRemovedFromATerminalIsRecorded() throws Exception {
        Path wt = repo.addWorktree(tmp.resolve("wt"), "agent/one");
        WorktreeMonitor m = scannedMonitor();

        repo.git("worktree", "remove", wt.toString());
        m.scan();

        List<Event> written = newEvents();
        assertThat(kinds(written)).containsExactly(EventKinds.WORKTREE_REMOVED);
        assertThat(written.get(0).message()).isEqualTo("Worktree removed: " + wt + " (was on agent/one)");
        assertThat(seen.load(repoId)).extracting(WorktreeInfo::path).containsExactly(repo.dir());
    }

    @Test
    void lockAndUnlockAreRecorded() throws Exception {
        Path wt = repo.addWorktree(tmp.resolve("wt"), "agent/one");
        WorktreeMonitor m = scannedMonitor();

        repo.git("worktree", "lock", "--reason", "agent running", wt.toString());
        m.scan();
        List<Event> locked = newEvents();
        repo.git("worktree", "unlock", wt.toString());
        m.scan();
        List<Event> unlocked = newEvents();

        assertThat(kinds(locked)).containsExactly(EventKinds.WORKTREE_LOCKED);
        assertThat(locked.get(0).message()).isEqualTo(wt + " was locked: agent running");
        assertThat(kinds(unlocked)).containsExactly(EventKinds.WORKTREE_UNLOCKED);
        assertThat(stored(wt).locked()).isFalse();
    }

    @Test
    void switchingBranchInAWorktreeIsRecordedAsBranchChanged() throws Exception {
        Path wt = repo.addWorktree(tmp.resolve("wt"), "agent/one");
        WorktreeMonitor m = scannedMonitor();

        TempRepo.git(wt, "switch", "-q", "-c", "agent/two");
        m.scan();
        List<Event> switched = newEvents();
        TempRepo.git(wt, "switch", "-q", "--detach");
        m.scan();
        List<Event> detached = newEvents();

        assertThat(kinds(switched)).containsExactly(EventKinds.WORKTREE_BRANCH_CHANGED);
        assertThat(switched.get(0).message()).endsWith("agent/one → agent/two");
        assertThat(kinds(detached)).containsExactly(EventKinds.WORKTREE_BRANCH_CHANGED);
        assertThat(detached.get(0).message()).endsWith("agent/two → (detached HEAD)");
        assertThat(stored(wt).detached()).isTrue();
    }

    @Test
    void deletedWorktreeDirectoryIsRecordedAsPrunableThenPruneAsRemoved() throws Exception {
        Path wt = repo.addWorktree(tmp.resolve("wt"), "agent/one");
        WorktreeMonitor m = scannedMonitor();

        TempRepo.deleteTree(wt);
        assertThatCode(m::scan).doesNotThrowAnyException();
        List<Event> prunable = newEvents();
        repo.git("worktree", "prune");
        m.scan();
        List<Event> pruned = newEvents();

        assertThat(kinds(prunable)).containsExactly(EventKinds.WORKTREE_MISSING, EventKinds.WORKTREE_PRUNABLE);
        assertThat(prunable.get(1).message()).startsWith(wt + " is prunable: ");
        assertThat(m.snapshot().error()).isNull();
        assertThat(kinds(pruned)).containsExactly(EventKinds.WORKTREE_REMOVED);
    }

    @Test
    void aLockedWorktreeWhoseFolderWasDeletedIsRecordedAsMissingOnceAndItsDirtyStateIsUnknown() throws Exception {
        Path wt = repo.addWorktree(tmp.resolve("wt"), "agent/locked");
        repo.lockWorktree(wt, "agent running");
        WorktreeMonitor m = scannedMonitor();
        assertThat(m.snapshot().worktrees().get(1).dirty()).isFalse();

        TempRepo.deleteTree(wt);
        m.scan();
        List<Event> gone = newEvents();
        m.scan();
        WorktreeMonitor restarted = newMonitor();
        restarted.scan();

        assertThat(kinds(gone))
                .as("git does not call a locked worktree prunable")
                .containsExactly(EventKinds.WORKTREE_MISSING);
        assertThat(gone.get(0).message())
                .isEqualTo("The folder of " + wt + " is missing (git keeps it: the worktree is" + " locked)");
        WorktreeInfo w = m.snapshot().worktrees().get(1);
        assertThat(w.missing()).isTrue();
        assertThat(w.dirty()).as("not \"clean\": nothing is there to be clean").isNull();
        assertThat(w.locked()).isTrue();
        assertThat(w.prunable()).isFalse();
        assertThat(stored(wt).missing()).isTrue();
        assertThat(newEvents()).as("once, also across a restart").isEmpty();
    }

    @Test
    void changesMadeWhileNoMonitorRanAreRecordedOnTheNextMonitorsFirstScan() throws Exception {
        Path old = repo.addWorktree(tmp.resolve("old"), "agent/old");
        scannedMonitor().close();

        Path added = repo.addWorktree(tmp.resolve("new"), "agent/new");
        repo.write("CHANGELOG.md", "- more\n");
        String head = repo.commitAll("Update changelog");
        repo.write("README.md", "# uncommitted\n");
        repo.git("worktree", "remove", old.toString());
        newMonitor().scan();

        List<Event> written = newEvents();
        assertThat(kinds(written))
                .containsExactlyInAnyOrder(
                        EventKinds.WORKTREE_HEAD_MOVED,
                        EventKinds.WORKTREE_DIRTY,
                        EventKinds.WORKTREE_ADDED,
                        EventKinds.WORKTREE_REMOVED);
        assertThat(written)
                .filteredOn(e -> e.kind().equals(EventKinds.WORKTREE_ADDED))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).contains(added.toString()));
        assertThat(written)
                .filteredOn(e -> e.kind().equals(EventKinds.WORKTREE_REMOVED))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).contains(old.toString()).endsWith("(was on agent/old)"));
        assertThat(stored(repo.dir()).head()).isEqualTo(head);
    }

    @Test
    void newMonitorOnAnUnchangedRepositoryRecordsNothing() throws Exception {
        Path det = repo.addDetachedWorktree(tmp.resolve("detached"));
        Path locked = repo.addWorktree(tmp.resolve("locked"), "agent/locked");
        repo.git("worktree", "lock", "--reason", "keep", locked.toString());
        Path dirty = repo.addWorktree(tmp.resolve("dirty"), "agent/dirty");
        TempRepo.write(dirty, "wip.txt", "wip\n");
        Path gone = repo.addWorktree(tmp.resolve("gone"), "agent/gone");
        TempRepo.deleteTree(gone);
        scannedMonitor().close();

        WorktreeMonitor second = newMonitor();
        second.scan();

        assertThat(newEvents()).isEmpty();
        assertThat(stored(det).detached()).isTrue();
        assertThat(stored(locked).locked()).isTrue();
        assertThat(stored(dirty).dirty()).isTrue();
        assertThat(stored(gone).prunable()).isTrue();
        assertThat(second.snapshot().worktrees()).hasSize(5);
    }

    @Test
    void listenersHearTheFirstScanAndChangesButNotQuietScans() throws Exception {
        WorktreeMonitor m = newMonitor();
        List<WorktreeSnapshot> heard = new CopyOnWriteArrayList<>();
        Runnable remove = m.addListener(heard::add);

        m.scan();
        m.scan();
        Path wt = repo.addWorktree(tmp.resolve("wt"), "agent/one");
        m.scan();
        remove.run();
        repo.git("worktree", "lock", wt.toString());
        m.scan();

        assertThat(heard).hasSize(2);
        assertThat(heard.get(0).worktrees()).hasSize(1);
        assertThat(heard.get(1).worktrees()).extracting(WorktreeInfo::path).containsExactly(repo.dir(), wt);
        assertThat(m.snapshot().worktrees().get(1).locked()).isTrue();
    }

    @Test
    void repositoryDeletedWhileWatchedGivesAnErrorSnapshotAndNothingThrows() throws Exception {
        WorktreeMonitor m = newMonitor();
        List<WorktreeSnapshot> heard = new CopyOnWriteArrayList<>();
        m.addListener(heard::add);
        m.scan();
        newEvents();
        List<WorktreeInfo> lastGood = m.snapshot().worktrees();

        TempRepo.deleteTree(repo.dir());
        assertThatCode(m::scan).doesNotThrowAnyException();
        assertThatCode(m::scan).doesNotThrowAnyException();

        WorktreeSnapshot snap = m.snapshot();
        assertThat(snap.error()).isNotBlank().contains(repo.dir().toString());
        assertThat(snap.worktrees()).isEqualTo(lastGood);
        assertThat(heard).hasSize(2); // the first scan, then the error once (not again for the same error)
        assertThat(heard.get(1).error()).isEqualTo(snap.error());
        assertThat(newEvents()).isEmpty();
        assertThat(seen.load(repoId)).extracting(WorktreeInfo::path).containsExactly(repo.dir());
    }

    @Test
    void repositoryThatComesBackClearsTheError() throws Exception {
        WorktreeMonitor m = newMonitor();
        m.scan();
        Path moved = tmp.resolve("moved-away");
        Files.move(repo.dir(), moved);
        m.scan();
        assertThat(m.snapshot().error()).isNotNull();

        Files.move(moved, repo.dir());
        m.scan();

        assertThat(m.snapshot().error()).isNull();
        assertThat(m.snapshot().worktrees()).hasSize(1);
    }

    @Test
    void runningMonitorNoticesAWorktreeAddedFromATerminalWithinSeconds() throws Exception {
        WorktreeMonitor m = newMonitor();
        CountDownLatch firstScan = new CountDownLatch(1);
        CountDownLatch noticed = new CountDownLatch(1);
        Path wt = repo.dir().resolve(".worktrees/timing/agent");
        m.addListener(s -> {
            firstScan.countDown();
            if (s.worktrees().stream().anyMatch(w -> w.path().endsWith(Path.of(".worktrees/timing/agent")))) {
                noticed.countDown();
            }
        });
        m.start();
        assertThat(firstScan.await(10, TimeUnit.SECONDS))
                .as("first scan published")
                .isTrue();

        repo.addWorktree(wt, "agent/timing");
        long added = System.nanoTime();
        boolean seenInTime = noticed.await(10, TimeUnit.SECONDS);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - added);

        assertThat(seenInTime).as("worktree noticed by the running monitor").isTrue();
        assertThat(elapsed).as("time to notice (expected about 1 s)").isLessThan(Duration.ofSeconds(5));
        m.close();
        assertThat(kinds(newEvents())).containsExactly(EventKinds.REPOSITORY_OPENED, EventKinds.WORKTREE_ADDED);
    }
}
