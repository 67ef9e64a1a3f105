package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.agent.TranscriptFollower;
import dev.paddock.agent.TranscriptFormat;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.testing.ClaudeCli;
import dev.paddock.testing.ClaudeStreamLog;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.shell.MainWindow;
import dev.paddock.ui.shell.ShellViewModel;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Scene;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The Transcript tab with {@value #EVENTS} events: a Claude Code sandbox of a real running Paddock (the real CLI,
 * which stops at once without a login) whose log then holds a working session of {@value #EVENTS} stream-json
 * events in the CLI's shape ({@link ClaudeStreamLog}: messages, tool calls, results of a few to forty lines; about
 * 19 MB), shown in the real panel at 1366×768 (Monocle, software rendering).
 *
 * <p>Measured: the time from selecting the sandbox in the table (its details open on the Transcript tab) until the
 * list holds every entry and shows the last one, {@value #OPENS} times (each a fresh read of the whole log); the
 * Java heap in use after a GC before and after; then scrolling: {@value #STEPS} Page Down keys from the top and
 * {@value #STEPS} jumps ({@code scrollTo}) to random rows, each timed from the action to the end of the layout pass
 * that shows it, and the CSS + layout part of every FX pulse meanwhile (p50, p99, max). Figures are reported, not
 * asserted. Run alone: {@code mvn -Pbench verify -Dit.test=TranscriptViewBench}.
 */
class TranscriptViewBench {
    static final int EVENTS = 10_000;
    static final int OPENS = 5;
    static final int STEPS = 200;

    @TempDir
    Path temp;

    @Test
    void openingAndScrollingATranscriptOfTenThousandEvents() throws Exception {
        ClaudeCli.require();
        TempRepo repo = TempRepo.init(temp.resolve("project"));
        try (Host host = Host.start(PaddockHome.resolve(temp.resolve("home"), Map.of()), "panel")) {
            SandboxRecord big = host.wiring()
                    .sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "Fix the totals", null)
                            .agent("claude")
                            .tier(Tier.WORKTREE)
                            .maxRetries(0)
                            .build());
            SandboxRecord other = host.wiring().sandboxService().create(NewSandbox.of(repo.dir(), "Idle", "exit 0"));
            awaitEnd(host, big.id());
            Path log = host.wiring().sandboxService().logFile(big.id());
            ClaudeStreamLog agent = ClaudeStreamLog.newSession();
            Files.writeString(
                    log,
                    String.join("\n", agent.conversation(big.workspace().worktreePath(), EVENTS, 42)) + "\n",
                    StandardOpenOption.APPEND);
            BenchSupport.report(String.format(
                    Locale.ROOT,
                    "transcript view: log of %,d events, %.1f MB",
                    EVENTS,
                    Files.size(log) / (1024.0 * 1024)));

            // Every entry of the log: the CLI's own run (and Paddock's line before it), then the session written.
            int expected = new TranscriptFollower(
                            log, TranscriptFormat.CLAUDE_STREAM_JSON, TranscriptFollower.MAX_TAIL_BYTES)
                    .finish()
                    .entries()
                    .size();
            Stage stage = FxToolkit.registerPrimaryStage();
            ShellViewModel shell = new ShellViewModel();
            WaitForAsyncUtils.asyncFx(() -> {
                        MainWindow window = new MainWindow(shell, Theme.LIGHT);
                        Scene scene = new Scene(window, 1366, 768);
                        Theme.LIGHT.apply(scene);
                        window.installShortcuts(scene);
                        stage.setScene(scene);
                        stage.show();
                    })
                    .get(60, TimeUnit.SECONDS);
            shell.start(CompletableFuture.completedFuture(host.panel()), repo.dir())
                    .get(60, TimeUnit.SECONDS);
            WaitForAsyncUtils.waitFor(
                    30,
                    TimeUnit.SECONDS,
                    () -> fx(() -> shell.dashboard().sandboxes().size() == 2));
            Pulses pulses = new Pulses(stage.getScene());
            long heapBefore = heapAfterGc();

            List<Long> open = new ArrayList<>();
            List<Long> firstRows = new ArrayList<>();
            ListView<?> list = null;
            for (int i = 0; i < OPENS; i++) {
                select(stage, other.id());
                Thread.sleep(1_000);
                long t0 = System.nanoTime();
                select(stage, big.id());
                AtomicLong first = new AtomicLong();
                list = awaitList(stage);
                ListView<?> l = list;
                WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> {
                    boolean any = fx(() -> !l.getItems().isEmpty());
                    if (any && first.get() == 0) {
                        first.set(System.nanoTime());
                    }
                    return fx(() -> l.getItems().size() >= expected && lastRowShows(l));
                });
                open.add((System.nanoTime() - t0) / 1_000_000);
                firstRows.add((first.get() - t0) / 1_000_000);
            }
            long heapAfter = heapAfterGc();
            int rows = fx(list::getItems).size();
            BenchSupport.report("transcript view: " + rows + " rows; select to first rows on screen ms: "
                    + BenchSupport.summary(firstRows));
            BenchSupport.report("transcript view: select to the last entry shown (every row read) ms: "
                    + BenchSupport.summary(open));
            BenchSupport.report(String.format(
                    Locale.ROOT,
                    "transcript view: heap in use after a GC: %d MB before"
                            + " opening, %d MB with the transcript shown (+%d MB)",
                    heapBefore,
                    heapAfter,
                    heapAfter - heapBefore));

            ListView<?> l = list;
            pulses.clear();
            List<Long> pageDown = new ArrayList<>();
            // Home, as a person would press it: the list stops following the end and shows its first row.
            WaitForAsyncUtils.asyncFx(() -> {
                        l.requestFocus();
                        javafx.event.Event.fireEvent(
                                l,
                                new KeyEvent(KeyEvent.KEY_PRESSED, "", "", KeyCode.HOME, false, false, false, false));
                    })
                    .get(10, TimeUnit.SECONDS);
            WaitForAsyncUtils.waitForFxEvents();
            Thread.sleep(2_000);
            assertThat(fx(() -> l.getFocusModel().getFocusedIndex())).as("Home").isZero();
            pulses.clear();
            for (int i = 0; i < STEPS; i++) {
                pageDown.add(timed(
                        pulses,
                        () -> javafx.event.Event.fireEvent(
                                l,
                                new KeyEvent(
                                        KeyEvent.KEY_PRESSED, "", "", KeyCode.PAGE_DOWN, false, false, false, false))));
            }
            int reached = fx(() -> l.getFocusModel().getFocusedIndex());
            List<Long> pageDownPulses = pulses.take();
            Random r = new Random(1);
            List<Long> jumps = new ArrayList<>();
            for (int i = 0; i < STEPS; i++) {
                int to = r.nextInt(rows);
                jumps.add(timed(pulses, () -> l.scrollTo(to)));
            }
            List<Long> jumpPulses = pulses.take();
            BenchSupport.report("transcript view: Page Down to the pass that shows it, µs: " + percentiles(pageDown)
                    + " (" + STEPS + " pages, row " + reached + " reached)");
            BenchSupport.report(
                    "transcript view: CSS + layout of each FX pulse while paging, µs: " + percentiles(pageDownPulses));
            BenchSupport.report(
                    "transcript view: scrollTo(random row) to the pass that shows it, µs: " + percentiles(jumps));
            BenchSupport.report(
                    "transcript view: CSS + layout of each FX pulse while jumping, µs: " + percentiles(jumpPulses));
            assertThat(reached).as("paging moved through the list").isGreaterThan(STEPS);
            WaitForAsyncUtils.asyncFx(stage::hide).get(10, TimeUnit.SECONDS);
            shell.close();
        }
    }

    private static javafx.scene.Parent stageRoot(Pulses p) {
        return p.scene.getRoot();
    }

    /** Times of the CSS and layout passes of the scene's pulses (pre- to post-layout listener), in µs. */
    private static final class Pulses {
        private final Scene scene;
        private final List<Long> durations = Collections.synchronizedList(new ArrayList<>());
        private volatile long start;
        private volatile CountDownLatch next;

        Pulses(Scene scene) throws Exception {
            this.scene = scene;
            WaitForAsyncUtils.asyncFx(() -> {
                        scene.addPreLayoutPulseListener(() -> start = System.nanoTime());
                        scene.addPostLayoutPulseListener(() -> {
                            durations.add((System.nanoTime() - start) / 1_000);
                            CountDownLatch n = next;
                            if (n != null) {
                                n.countDown();
                            }
                        });
                    })
                    .get(10, TimeUnit.SECONDS);
        }

        void clear() {
            durations.clear();
        }

        List<Long> take() {
            synchronized (durations) {
                List<Long> out = new ArrayList<>(durations);
                durations.clear();
                return out;
            }
        }
    }

    /** Runs {@code action} on the FX thread and times it to the end of the next layout pass, in µs. */
    private static long timed(Pulses pulses, Runnable action) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        AtomicLong t0 = new AtomicLong();
        WaitForAsyncUtils.asyncFx(() -> {
                    pulses.next = done;
                    t0.set(System.nanoTime());
                    action.run();
                    // A pulse even when nothing moved (a row already on screen).
                    stageRoot(pulses).requestLayout();
                })
                .get(10, TimeUnit.SECONDS);
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        long t = (System.nanoTime() - t0.get()) / 1_000;
        pulses.next = null;
        return t;
    }

    private static String percentiles(List<Long> values) {
        long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
        if (v.length == 0) {
            return "none";
        }
        return String.format(
                Locale.ROOT,
                "p50 %d, p99 %d, max %d (n=%d)",
                v[v.length / 2],
                v[Math.min(v.length - 1, (int) Math.ceil(v.length * 0.99) - 1)],
                v[v.length - 1],
                v.length);
    }

    private static void select(Stage stage, String id) throws Exception {
        WaitForAsyncUtils.asyncFx(() -> {
                    @SuppressWarnings("unchecked")
                    TableView<RepositoryStatus.Sandbox> table = (TableView<RepositoryStatus.Sandbox>)
                            stage.getScene().lookup("#sandbox-table");
                    for (int i = 0; i < table.getItems().size(); i++) {
                        if (table.getItems().get(i).id().equals(id)) {
                            table.getSelectionModel().clearAndSelect(i);
                        }
                    }
                })
                .get(10, TimeUnit.SECONDS);
    }

    private static ListView<?> awaitList(Stage stage) throws Exception {
        AtomicReference<ListView<?>> found = new AtomicReference<>();
        WaitForAsyncUtils.waitFor(
                30,
                TimeUnit.SECONDS,
                () -> fx(() -> {
                    found.set((ListView<?>) stage.getScene().lookup("#sandbox-transcript"));
                    return found.get() != null
                            && found.get().isVisible()
                            && found.get().getScene() != null;
                }));
        return found.get();
    }

    private static boolean lastRowShows(ListView<?> list) {
        VirtualFlow<?> flow = (VirtualFlow<?>) list.lookup(".virtual-flow");
        IndexedCell<?> last = flow == null ? null : flow.getLastVisibleCell();
        return last != null && last.getIndex() == list.getItems().size() - 1;
    }

    private static void awaitEnd(Host host, String id) throws Exception {
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> {
            SandboxState s = host.wiring().sandboxes().find(id).orElseThrow().state();
            return s == SandboxState.AWAITING_HUMAN || s == SandboxState.FAILED || s == SandboxState.DONE;
        });
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(300);
        }
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) / (1024 * 1024);
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }
}
