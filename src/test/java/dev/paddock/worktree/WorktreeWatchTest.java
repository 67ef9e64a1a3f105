package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.events.Event;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import dev.paddock.testing.TempRepo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The running monitor with change notifications, on a real repository changed through the git CLI and the file
 * system as from a terminal. Its git is a wrapper that writes every command it runs to a log, so the tests see what
 * the monitor ran, and when: nothing between safety passes of a quiet repository, and {@code git status} only where
 * something changed. A change must be seen before the first safety pass ({@value WorktreeMonitor#SAFETY_INTERVAL_MS}
 * ms): that is what tells notifications from polling here; how fast it is, is measured by
 * {@code WorktreeNotifyBench}.
 */
class WorktreeWatchTest {
    private static final Clock CLOCK = Clock.systemUTC();
    /** Well under the safety interval: a change seen within this was notified, not polled. */
    private static final long NOTIFIED_WITHIN_MS = WorktreeMonitor.SAFETY_INTERVAL_MS / 2;

    @TempDir
    Path tmp;

    private TempRepo repo;
    private Database db;
    private EventLog events;
    private WorktreeLister lister;
    private WorktreeMonitor monitor;
    private Path gitLog;
    private Path gitTimes;
    private Path one;
    private Path two;
    private long repoId;
    private long lastEventId;
    private final List<Event> unclaimed = new ArrayList<>();

    private Path loggingGit;
    private GitRepository gitRepo;

    @BeforeEach
    void startMonitorOnARepositoryWithTwoLinkedWorktrees() throws Exception {
        repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
        repo.write("src/App.java", "class App {}\n").commitAll("Add the app");
        one = repo.addWorktree(repo.dir().resolve(".worktrees/one/agent-one"), "agent/one");
        two = repo.addWorktree(tmp.resolve("two"), "agent/two");
        gitLog = tmp.resolve("git.log");
        loggingGit = tmp.resolve("logging-git");
        gitTimes = tmp.resolve("git.times");
        Files.writeString(
                loggingGit,
                "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + gitLog + "'\ns=$(date +%s%N)\n"
                        + "git \"$@\"\nrc=$?\necho \"$s $(date +%s%N)\" >> '" + gitTimes + "'\nexit $rc\n");
        Files.setPosixFilePermissions(loggingGit, PosixFilePermissions.fromString("rwx------"));
        db = Database.open(tmp.resolve("store").resolve("paddock"));
        events = new EventLog(db, CLOCK);
        GitCli git = new GitCli();
        RepoService.OpenedRepo opened =
                new RepoService(new RepositoryLocator(git), git, new RepoStore(db, CLOCK), events).open(repo.dir());
        repoId = opened.record().id();
        gitRepo = opened.git();
        lister = new WorktreeLister(new GitCli(loggingGit.toString()));
        startMonitor(WorktreeWatcher.MAX_DIRS_PER_WORKTREE);
        assertThat(monitor.notified()).as("inotify watches every folder here").isTrue();
    }

    private void startMonitor(int maxWatchedFolders) throws Exception {
        monitor = new WorktreeMonitor(gitRepo, repoId, lister, new WorktreeSeenStore(db, CLOCK), events, CLOCK);
        monitor.maxWatchedFolders = maxWatchedFolders;
        CountDownLatch first = new CountDownLatch(1);
        monitor.addListener(s -> first.countDown());
        monitor.start();
        assertThat(first.await(20, TimeUnit.SECONDS)).as("first scan").isTrue();
        newEvents();
    }

    @AfterEach
    void closeEverything() {
        monitor.close();
        lister.close();
        db.close();
    }

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

    /**
     * Waits for an event of {@code kind} about {@code path} (written since the last one claimed); fails after
     * {@link #NOTIFIED_WITHIN_MS}.
     */
    private Event awaitEvent(String kind, Path path) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(NOTIFIED_WITHIN_MS);
        while (System.nanoTime() < deadline) {
            unclaimed.addAll(newEvents());
            for (Event e : unclaimed) {
                if (e.kind().equals(kind) && e.details() != null && e.details().contains("\"path\":\"" + path + "\"")) {
                    unclaimed.remove(e);
                    return e;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no " + kind + " for " + path + " within " + NOTIFIED_WITHIN_MS + " ms; saw "
                + unclaimed.stream().map(Event::message).toList());
    }

    /** The git commands the monitor ran since the log was last cleared. */
    private List<String> gitRuns() throws Exception {
        return Files.exists(gitLog) ? Files.readAllLines(gitLog, StandardCharsets.UTF_8) : List.of();
    }

    private void clearGitLog() throws Exception {
        Files.deleteIfExists(gitLog);
        Files.deleteIfExists(gitTimes);
    }

    /** How long the git commands the monitor ran since the log was last cleared took together, in ms. */
    private long gitMillis() throws Exception {
        if (!Files.exists(gitTimes)) {
            return 0;
        }
        long total = 0;
        for (String line : Files.readAllLines(gitTimes)) {
            String[] t = line.strip().split(" ");
            total += (Long.parseLong(t[1]) - Long.parseLong(t[0])) / 1_000_000;
        }
        return total;
    }

    @Test
    void aQuietRepositoryRunsNoGitBetweenSafetyPasses() throws Exception {
        Thread.sleep(300); // the first scan's own stragglers
        clearGitLog();

        Thread.sleep(2_500);

        assertThat(gitRuns()).as("no listing and no status every second").isEmpty();
    }

    @Test
    void anEditInOneWorktreeIsRecordedAsDirtyRunningGitStatusThereOnly() throws Exception {
        Thread.sleep(300);
        clearGitLog();

        TempRepo.write(two, "src/App.java", "class App { int edited; }\n");

        Event dirty = awaitEvent(EventKinds.WORKTREE_DIRTY, two);
        assertThat(dirty.message()).contains("has uncommitted changes (1 path)");
        List<String> statuses =
                gitRuns().stream().filter(l -> l.contains(" status ")).toList();
        assertThat(statuses).isNotEmpty().allMatch(l -> l.startsWith("-C " + two + " "));
    }

    @Test
    void aCommitFromATerminalIsRecordedAsHeadMovedAndClean() throws Exception {
        TempRepo.write(one, "notes.md", "notes\n");
        awaitEvent(EventKinds.WORKTREE_DIRTY, one);

        String head = TempRepo.commitAll(one, "Add notes");

        Event moved = awaitEvent(EventKinds.WORKTREE_HEAD_MOVED, one);
        assertThat(moved.details()).contains("\"head\":\"" + head + "\"");
        awaitEvent(EventKinds.WORKTREE_CLEAN, one);
    }

    @Test
    void aCommitInTheMainWorktreeIsSeenThroughItsIndexAndRefs() throws Exception {
        String head = repo.commitFile("CHANGELOG.md", "- first\n", "Start a changelog");

        Event moved = awaitEvent(EventKinds.WORKTREE_HEAD_MOVED, repo.dir());
        assertThat(moved.details()).contains("\"head\":\"" + head + "\"");
    }

    @Test
    void aFileInAFolderMadeAfterTheStartIsSeen() throws Exception {
        Files.createDirectories(two.resolve("new/deeper"));
        Thread.sleep(200); // the new folders are being watched
        TempRepo.write(two, "new/deeper/file.txt", "x");

        awaitEvent(EventKinds.WORKTREE_DIRTY, two);
        assertThat(monitor.snapshot().worktrees().stream()
                        .filter(w -> w.path().equals(two))
                        .findFirst()
                        .orElseThrow()
                        .dirty())
                .isTrue();
    }

    @Test
    void worktreesAddedLockedAndDeletedFromATerminalAreSeen() throws Exception {
        Path three = repo.addWorktree(tmp.resolve("three"), "agent/three");
        awaitEvent(EventKinds.WORKTREE_ADDED, three);

        repo.lockWorktree(three, "in use");
        awaitEvent(EventKinds.WORKTREE_LOCKED, three);

        TempRepo.deleteTree(three);
        Event missing = awaitEvent(EventKinds.WORKTREE_MISSING, three);
        assertThat(missing.message()).contains("is missing");

        TempRepo.write(three, "back.txt", "x"); // the folder comes back (an editor, a restore): no crash, no event
        repo.git("worktree", "unlock", three.toString());
        awaitEvent(EventKinds.WORKTREE_UNLOCKED, three);
    }

    @Test
    void aFileIgnoredByGitChangesNothingAndItsFolderIsNotWatched() throws Exception {
        Files.writeString(two.resolve(".gitignore"), "build/\n");
        TempRepo.commitAll(two, "Ignore build/");
        awaitEvent(EventKinds.WORKTREE_HEAD_MOVED, two);
        Files.createDirectories(two.resolve("build/classes"));
        Thread.sleep(1_500); // the status its creation asks for may wait for its back-off
        clearGitLog();

        TempRepo.write(two, "build/classes/App.class", "bytes");
        Thread.sleep(1_000);

        assertThat(gitRuns().stream().filter(l -> l.contains(" status ")))
                .as("nothing git would see changed")
                .isEmpty();
    }

    @Test
    void whenNotEveryFolderCanBeWatchedTheMonitorPollsEverySecondAndStillSeesChanges() throws Exception {
        monitor.close();
        startMonitor(1); // as if the per-user limit of inotify watches were reached at the second folder
        assertThat(monitor.notified()).isFalse();
        Thread.sleep(300);
        clearGitLog();

        Thread.sleep(2_500);
        long listings =
                gitRuns().stream().filter(l -> l.contains("worktree list")).count();
        TempRepo.write(two, "src/App.java", "class App { int edited; }\n");

        assertThat(listings).as("polled: a listing every second").isGreaterThanOrEqualTo(2);
        awaitEvent(EventKinds.WORKTREE_DIRTY, two);
    }

    /** The longest single git command the monitor ran since the log was last cleared, in ms. */
    private long longestGitMillis() throws Exception {
        if (!Files.exists(gitTimes)) {
            return 0;
        }
        long longest = 0;
        for (String line : Files.readAllLines(gitTimes)) {
            String[] t = line.strip().split(" ");
            longest = Math.max(longest, (Long.parseLong(t[1]) - Long.parseLong(t[0])) / 1_000_000);
        }
        return longest;
    }

    @Test
    void agentsWritingFilesAllTheTimeCostATenthOfACoreOverTime() throws Exception {
        List<Path> busy = new ArrayList<>(List.of(one, two));
        for (int n = 0; n < 6; n++) {
            Path wt = repo.addWorktree(tmp.resolve("busy" + n), "agent/busy" + n);
            awaitEvent(EventKinds.WORKTREE_ADDED, wt);
            busy.add(wt);
        }
        Thread.sleep(1_000);
        clearGitLog();
        long seconds = 6;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (int i = 0; System.nanoTime() < end; i++) { // eight builds at once
            for (Path wt : busy) {
                TempRepo.write(wt, "build-output/" + (i % 50) + ".txt", "round " + i);
            }
            Thread.sleep(5);
        }

        // The monitor starts a scan while it is within its budget, so the last one may run past it: allow the
        // longest scan seen (on a loaded machine one git status takes several hundred ms).
        long budget =
                (long) (WorktreeMonitor.CHANGE_SCAN_BURST_MS + seconds * 1000 * WorktreeMonitor.CHANGE_SCAN_SHARE);
        long longest = longestGitMillis();
        assertThat(gitMillis())
                .as(
                        "git time over %d s of constant writes (budget %d ms, one scan of %d ms more)",
                        seconds, budget, longest)
                .isLessThan(budget + Math.max(200, longest));
        assertThat(gitRuns().stream().filter(l -> l.contains(" status ")))
                .as("still looked")
                .isNotEmpty();
    }
}
