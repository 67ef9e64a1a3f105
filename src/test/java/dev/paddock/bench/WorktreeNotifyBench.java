package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoService;
import dev.paddock.repo.RepoStore;
import dev.paddock.store.Database;
import dev.paddock.testing.TempRepo;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.RepositoryLocator;
import dev.paddock.worktree.WorktreeInfo;
import dev.paddock.worktree.WorktreeLister;
import dev.paddock.worktree.WorktreeMonitor;
import dev.paddock.worktree.WorktreeSeenStore;
import dev.paddock.worktree.WorktreeSnapshot;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How soon a change made from a terminal in one of 30 linked worktrees reaches the {@link WorktreeMonitor}'s
 * listeners (the event is written in the same transaction, just before): a file edited (→ dirty) and a
 * {@code git commit} (→ head moved and clean), timed from the moment the edit is written or the git process exits
 * to the listener's call. Both ways the monitor can run: notified by the file system (inotify), and polled (every
 * second, the dirty state refreshed at most every ten pass-durations: how it ran before notifications). The README
 * promises "about a second".
 */
class WorktreeNotifyBench {
    private static final int LINKED = 30;
    private static final int ROUNDS = 20;
    private static final Clock CLOCK = Clock.systemUTC();

    @TempDir
    Path temp;

    @Test
    void terminalChangeToMonitorEventWith30Worktrees() throws Exception {
        Path repo = BenchSupport.repositoryWithWorktrees(temp, LINKED);
        for (boolean notified : List.of(true, false)) {
            measure(repo, notified);
        }
    }

    private void measure(Path repoDir, boolean notified) throws Exception {
        String mode = notified ? "notified (inotify)" : "polled (1 s + back-off, as before)";
        try (Database db = Database.open(temp.resolve("store-" + notified).resolve("paddock"));
                WorktreeLister lister = new WorktreeLister(new GitCli())) {
            EventLog events = new EventLog(db, CLOCK);
            GitCli git = new GitCli();
            RepoService.OpenedRepo opened =
                    new RepoService(new RepositoryLocator(git), git, new RepoStore(db, CLOCK), events).open(repoDir);
            AtomicReference<Waiter> waiting = new AtomicReference<>();
            CountDownLatch first = new CountDownLatch(1);
            try (WorktreeMonitor monitor = new WorktreeMonitor(
                    opened.git(),
                    opened.record().id(),
                    lister,
                    new WorktreeSeenStore(db, CLOCK),
                    events,
                    CLOCK,
                    notified)) {
                monitor.addListener(s -> {
                    first.countDown();
                    Waiter w = waiting.get();
                    if (w != null) {
                        w.offer(s);
                    }
                });
                monitor.start();
                assertThat(first.await(60, TimeUnit.SECONDS)).isTrue();
                assertThat(monitor.notified()).as(mode).isEqualTo(notified);
                Thread.sleep(2_000); // past the first passes

                List<Long> edits = new ArrayList<>();
                List<Long> commits = new ArrayList<>();
                for (int i = 0; i < ROUNDS; i++) {
                    Path wt = temp.resolve("wt" + (1 + (i * 7) % LINKED)).toRealPath();
                    Waiter dirty = new Waiter(w -> w.path().equals(wt) && Boolean.TRUE.equals(w.dirty()));
                    waiting.set(dirty);
                    TempRepo.write(wt, "file" + i + ".txt", "edited in round " + i + ", " + mode + "\n");
                    dirty.start();
                    edits.add(dirty.await(mode));

                    String before = TempRepo.revParse(wt, "HEAD");
                    TempRepo.git(wt, "add", "-A");
                    Waiter committed = new Waiter(
                            w -> w.path().equals(wt) && !before.equals(w.head()) && Boolean.FALSE.equals(w.dirty()));
                    waiting.set(committed);
                    TempRepo.git(wt, "commit", "-q", "-m", "Round " + i);
                    committed.start();
                    commits.add(committed.await(mode));
                    waiting.set(null);
                    Thread.sleep(300);
                }
                BenchSupport.report("worktree change from a terminal -> monitor event, " + (LINKED + 1)
                        + " worktrees, " + mode + ": file edited (dirty) ms " + percentiles(edits)
                        + "; git commit (head moved, clean) ms " + percentiles(commits));
            }
        }
    }

    /** p50 and max, and min. */
    private static String percentiles(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return "p50 " + sorted.get(sorted.size() / 2) + " / max " + sorted.get(sorted.size() - 1) + " (min "
                + sorted.get(0) + ", n " + sorted.size() + ")";
    }

    /**
     * Waits for a snapshot in which some worktree matches; the clock starts at {@link #start} (a change seen while
     * the terminal's command still ran counts as 0 ms).
     */
    private static final class Waiter {
        private final Predicate<WorktreeInfo> match;
        private final CountDownLatch seen = new CountDownLatch(1);
        private volatile long started;
        private volatile long seenAt;

        Waiter(Predicate<WorktreeInfo> match) {
            this.match = match;
        }

        void start() {
            started = System.nanoTime();
        }

        void offer(WorktreeSnapshot s) {
            if (seen.getCount() > 0 && s.worktrees().stream().anyMatch(match)) {
                seenAt = System.nanoTime();
                seen.countDown();
            }
        }

        long await(String mode) throws InterruptedException {
            assertThat(seen.await(60, TimeUnit.SECONDS))
                    .as("%s: change seen", mode)
                    .isTrue();
            return Math.max(0, (seenAt - started) / 1_000_000);
        }
    }
}
