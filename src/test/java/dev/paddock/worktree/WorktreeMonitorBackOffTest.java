package dev.paddock.worktree;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.events.Event;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dirty-state back-off with a real but slow {@code git status} (a wrapper that sleeps 0.4 s before
 * running git): after such a pass the next refresh waits about 10 × 0.4 s − 1 s = 3 s.
 */
class WorktreeMonitorBackOffTest {
    private static final Clock CLOCK = Clock.systemUTC();

    @TempDir
    Path tmp;

    private TempRepo repo;
    private Database db;
    private EventLog events;
    private WorktreeLister slowLister;
    private WorktreeMonitor monitor;
    private long repoId;
    private long lastEventId;

    @BeforeEach
    void watchRepositoryWithSlowStatus() throws Exception {
        repo = TempRepo.init(tmp.resolve("repo"));
        Path slowGit = tmp.resolve("slow-status-git");
        Files.writeString(
                slowGit,
                "#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = status ]; then sleep 0.4; break; fi\n"
                        + "done\nexec git \"$@\"\n");
        Files.setPosixFilePermissions(slowGit, PosixFilePermissions.fromString("rwx------"));
        db = Database.open(tmp.resolve("store").resolve("paddock"));
        events = new EventLog(db, CLOCK);
        GitCli git = new GitCli();
        RepoService.OpenedRepo opened =
                new RepoService(new RepositoryLocator(git), git, new RepoStore(db, CLOCK), events).open(repo.dir());
        repoId = opened.record().id();
        slowLister = new WorktreeLister(new GitCli(slowGit.toString()));
        monitor =
                new WorktreeMonitor(opened.git(), repoId, slowLister, new WorktreeSeenStore(db, CLOCK), events, CLOCK);
        monitor.scan();
        newEvents();
    }

    @AfterEach
    void closeEverything() {
        monitor.close();
        slowLister.close();
        db.close();
    }

    private List<String> newEvents() throws Exception {
        List<Event> fresh = new ArrayList<>(events.recent(repoId, 1000).stream()
                .filter(e -> e.id() > lastEventId)
                .toList());
        fresh.sort(Comparator.comparingLong(Event::id));
        if (!fresh.isEmpty()) {
            lastEventId = fresh.get(fresh.size() - 1).id();
        }
        return fresh.stream().map(Event::kind).toList();
    }

    @Test
    void slowStatusDelaysTheDirtyRefreshButAMovedHeadIsCheckedAtOnceAndTheRefreshComesLater() throws Exception {
        repo.write("README.md", "# edited, not committed\n");
        monitor.scan(); // within the back-off: git status is not run again yet
        List<String> duringBackOff = newEvents();
        boolean dirtyKnownDuringBackOff = monitor.snapshot().worktrees().get(0).dirty();

        repo.write("NEW.md", "new\n");
        repo.git("add", "NEW.md");
        repo.git("commit", "-q", "-m", "Add NEW.md");
        monitor.scan(); // the head moved: its status is refreshed at once
        List<String> afterCommit = newEvents();

        repo.git("checkout", "--", "README.md");
        long cleaned = System.nanoTime();
        List<String> eventually = new ArrayList<>();
        while (!eventually.contains(EventKinds.WORKTREE_CLEAN)
                && System.nanoTime() - cleaned < TimeUnit.SECONDS.toNanos(15)) {
            Thread.sleep(200);
            monitor.scan();
            eventually.addAll(newEvents());
        }

        assertThat(duringBackOff).isEmpty();
        assertThat(dirtyKnownDuringBackOff).isFalse();
        assertThat(afterCommit).containsExactly(EventKinds.WORKTREE_HEAD_MOVED, EventKinds.WORKTREE_DIRTY);
        assertThat(eventually).containsExactly(EventKinds.WORKTREE_CLEAN);
    }
}
