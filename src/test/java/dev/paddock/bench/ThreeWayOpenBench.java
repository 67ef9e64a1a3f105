package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.common.PaddockException;
import dev.paddock.merge.ClassifiedConflicts;
import dev.paddock.merge.MergeTreeConflicts;
import dev.paddock.merge.RememberedConflicts;
import dev.paddock.merge.conflict.ConflictClassifier;
import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.testing.ConflictRepo;
import dev.paddock.testing.ConflictScenarios;
import dev.paddock.testing.GitConflictBackend;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.common.UiExecutor;
import dev.paddock.ui.conflicts.ConflictBackend;
import dev.paddock.ui.conflicts.ConflictQueueRow;
import dev.paddock.ui.conflicts.HunkState;
import dev.paddock.ui.conflicts.ThreeWayView;
import dev.paddock.ui.conflicts.ThreeWayViewModel;
import dev.paddock.ui.conflicts.ThreeWayWindow;
import dev.paddock.ui.theme.Theme;
import dev.paddock.worktree.GitCli;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Benchmark: opening the three-way view on a 5,000-line file with 50 conflict hunks (target
 * ≤ 500 ms until it responds). The conflict is a real merge in a real repository
 * ({@link ConflictScenarios#largeFile}). Timed from just before the window and view are built to the
 * end of a {@code runLater} posted after the first layout pulse that shows the loaded file: then the
 * window has drawn the file and the FX thread answers input. Three figures: with the conflicts already
 * read (the view's own cost: starting result, four code areas, hunk styles), and with them read from the
 * repository (git index stages plus JGit's merge, what a backend does after a restart), and as the panel opens a
 * conflict the queue has just classified (the remembered analysis of {@code Wiring}). Also timed: one "take theirs"
 * on the loaded file, to the next pulse. Figures are reported, not asserted.
 */
@ExtendWith(ApplicationExtension.class)
class ThreeWayOpenBench {
    private static final int LINES = 5_000;
    private static final int HUNKS = 50;
    private static final int WARMUP = 3;
    private static final int RUNS = 15;
    private static final java.lang.management.ThreadMXBean CPU =
            java.lang.management.ManagementFactory.getThreadMXBean();

    @TempDir
    Path temp;

    @Test
    void openOnAFiveThousandLineFileWithFiftyHunks() throws Exception {
        TempRepo repo = ConflictScenarios.largeFile(temp.resolve("repo"), LINES, HUNKS);
        GitConflictBackend git = new GitConflictBackend(repo);
        ConflictReport report = ConflictRepo.report(repo);
        ConflictFile f = report.files().get(0);
        assertThat(f.hunks()).hasSize(HUNKS);
        assertThat(f.oursText().lines().count()).isEqualTo(LINES);
        ConflictBackend cached = new Cached(git, () -> report);
        // The panel's path: the queue classified the conflict when it arose (through the same remembered analysis
        // as in Wiring), and the view asks that analysis again for the same two commits.
        String ours = repo.git("rev-parse", "HEAD").strip();
        String theirs = repo.git("rev-parse", "MERGE_HEAD").strip();
        RememberedConflicts analysis = new RememberedConflicts(
                new ClassifiedConflicts(new ConflictClassifier(), new MergeTreeConflicts(new GitCli())));
        assertThat(analysis.classify(repo.dir(), ours, theirs).files().get(0).hunks())
                .hasSize(HUNKS);
        ConflictBackend remembered = new Cached(git, () -> analysis.classify(repo.dir(), ours, theirs));
        Stage owner = WaitForAsyncUtils.asyncFx(() -> {
                    Stage panel = new Stage();
                    Scene scene = new Scene(new javafx.scene.layout.StackPane(), 400, 300);
                    Theme.LIGHT.apply(scene);
                    panel.setScene(scene);
                    panel.show();
                    return panel;
                })
                .get(30, TimeUnit.SECONDS);

        List<Long> readAlready = new ArrayList<>();
        List<Long> readFromRepo = new ArrayList<>();
        List<Long> throughQueue = new ArrayList<>();
        List<Long> takeTheirs = new ArrayList<>();
        List<Long> fxCpu = new ArrayList<>();
        for (int i = 0; i < WARMUP + RUNS; i++) {
            Opened a = open(owner, cached);
            Opened b = open(owner, git);
            Opened c = open(owner, remembered);
            long choose = choose(a.vm);
            close(a);
            close(b);
            close(c);
            if (i >= WARMUP) {
                readAlready.add(a.millis);
                readFromRepo.add(b.millis);
                throughQueue.add(c.millis);
                takeTheirs.add(choose);
                fxCpu.add(a.fxCpuMillis);
            }
        }
        BenchSupport.report("three-way view open, 5,000 lines / 50 hunks, conflicts read already, ms: "
                + BenchSupport.summary(readAlready));
        BenchSupport.report("three-way view open, 5,000 lines / 50 hunks, conflicts read from the repository, ms: "
                + BenchSupport.summary(readFromRepo));
        BenchSupport.report("three-way view open, 5,000 lines / 50 hunks, as the panel opens a conflict the queue"
                + " classified (remembered analysis), ms: " + BenchSupport.summary(throughQueue));
        BenchSupport.report("three-way view open, conflicts read already, CPU time of the FX thread, ms: "
                + BenchSupport.summary(fxCpu) + "; load average "
                + String.format(
                        "%.1f",
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                                .getSystemLoadAverage())
                + " on "
                + Runtime.getRuntime().availableProcessors() + " cores");
        BenchSupport.report("three-way view take theirs on one hunk of 50 to the next pulse, ms: "
                + BenchSupport.summary(takeTheirs));
    }

    /** A window opened, and how long until it responded. */
    private record Opened(Stage stage, ThreeWayViewModel vm, long millis, long fxCpuMillis) {}

    private static Opened open(Stage owner, ConflictBackend backend) throws Exception {
        CompletableFuture<Opened> done = new CompletableFuture<>();
        Platform.runLater(() -> {
            long t0 = System.nanoTime();
            long cpu0 = CPU.getCurrentThreadCpuTime();
            ThreeWayViewModel vm = new ThreeWayViewModel(backend, 1, UiExecutor.io());
            // the panel's path: ConflictQueueView.open → ThreeWayWindow.show (which starts the load)
            Stage stage = ThreeWayWindow.show(owner, vm, "agent/big (bench)");
            Scene scene = stage.getScene();
            ThreeWayView view = (ThreeWayView) scene.getRoot();
            vm.fileProperty()
                    .addListener((o, before, shown) -> afterNextPulse(scene, () -> {
                        long ms = (System.nanoTime() - t0) / 1_000_000;
                        if (vm.fileProperty().get() == null
                                || view.resultArea().getParagraphs().size() < LINES) {
                            done.completeExceptionally(new AssertionError("the file did not load: "
                                    + vm.errorProperty().get()));
                        } else {
                            done.complete(
                                    new Opened(stage, vm, ms, (CPU.getCurrentThreadCpuTime() - cpu0) / 1_000_000));
                        }
                    }));
        });
        return done.get(60, TimeUnit.SECONDS);
    }

    private static long choose(ThreeWayViewModel vm) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        Platform.runLater(() -> {
            long t0 = System.nanoTime();
            vm.goTo(HUNKS / 2);
            vm.choose(HunkState.THEIRS);
            Scene scene = findScene();
            afterNextPulse(scene, () -> done.complete((System.nanoTime() - t0) / 1_000_000));
        });
        return done.get(60, TimeUnit.SECONDS);
    }

    private static Scene findScene() {
        return javafx.stage.Window.getWindows().stream()
                .map(javafx.stage.Window::getScene)
                .filter(s -> s != null && s.getRoot() instanceof ThreeWayView)
                .findFirst()
                .orElseThrow();
    }

    /** Runs {@code r} in a runLater posted after the next layout pulse of {@code scene}. Call on the FX thread. */
    private static void afterNextPulse(Scene scene, Runnable r) {
        Runnable[] listener = new Runnable[1];
        listener[0] = () -> {
            scene.removePostLayoutPulseListener(listener[0]);
            Platform.runLater(r);
        };
        scene.addPostLayoutPulseListener(listener[0]);
        Platform.requestNextPulse();
    }

    private static void close(Opened o) throws Exception {
        WaitForAsyncUtils.asyncFx(o.stage::close).get(10, TimeUnit.SECONDS);
    }

    /** Where {@link Cached} gets its report. */
    private interface ReportSource {
        ConflictReport report() throws PaddockException;
    }

    /** The backend with its conflicts read once: the view's own cost. */
    private record Cached(GitConflictBackend git, ReportSource source) implements ConflictBackend {
        @Override
        public List<ConflictQueueRow> queue() {
            return git.queue();
        }

        @Override
        public ConflictReport conflicts(long mergeRequestId) throws PaddockException {
            return source.report();
        }

        @Override
        public List<ResolvedFile> resolvedFiles(long id) {
            return git.resolvedFiles(id);
        }

        @Override
        public void unresolve(long id, String path, String who) throws PaddockException {
            git.unresolve(id, path, who);
        }

        @Override
        public Progress progress(long id) {
            return git.progress(id);
        }

        @Override
        public void markResolved(long id, String path, String text, String who) throws PaddockException {
            git.markResolved(id, path, text, who);
        }

        @Override
        public void keepSide(long id, String path, Side side, String who) throws PaddockException {
            git.keepSide(id, path, side, who);
        }

        @Override
        public void abort(long id, String who) throws PaddockException {
            git.abort(id, who);
        }

        @Override
        public Runnable onChange(Runnable callback) {
            return git.onChange(callback);
        }

        @Override
        public String who() {
            return git.who();
        }
    }
}
