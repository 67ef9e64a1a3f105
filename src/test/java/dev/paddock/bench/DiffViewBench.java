package dev.paddock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.diff.FileChange;
import dev.paddock.panel.ServiceDiffBackend;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.diff.DiffViewModel;
import dev.paddock.ui.diff.DiffWindow;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.fxmisc.richtext.CodeArea;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Benchmark: the diff window on a sandbox whose change is a folder of 5,000 files renamed and a 3 MB lockfile with 200
 * lines changed, all uncommitted; the window opens on the lockfile (as from the Changes tab with it shown). Timed:
 * from {@link DiffWindow#show} to the end of the first pulse that shows the file tree and the lockfile's diff (first
 * paint); from choosing another file to its pulse; a page down in the lockfile's diff to the next pulse (scrolling).
 * Also: the heap the open window keeps. Each round first writes the lockfile anew (another 200 lines changed), so no
 * round opens on a state read before. The real diff and review services over a real H2 file; no agent runs.
 * Figures are reported, not asserted.
 */
@ExtendWith(ApplicationExtension.class)
class DiffViewBench {
    private static final int FILES = 5_000;
    private static final int LOCK_LINES = 60_000;
    private static final int ROUNDS = 5;
    private static final String LOCKFILE = "package-lock.json";

    @TempDir
    Path temp;

    @Test
    void openOnFiveThousandRenamesAndAThreeMegabyteLockfile() throws Exception {
        TempRepo repo = TempRepo.init(temp.resolve("repo"));
        for (int i = 0; i < FILES; i++) {
            repo.write(
                    "lib/d" + (i / 100) + "/file" + i + ".txt",
                    "file " + i + "\n" + "a line of the library\n".repeat(5));
        }
        repo.write("package-lock.json", lockfile(-1));
        repo.commitAll("5,000 files and a lockfile");
        try (Wiring wiring = Wiring.open(PaddockHome.resolve(temp.resolve("home"), Map.of()))) {
            SandboxRecord s = wiring.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "Bench", "sleep 60")
                            .id("bench-001")
                            .maxRetries(0)
                            .build());
            assertThat(wiring.fingerprints().await(s.id(), Duration.ofSeconds(120)))
                    .isTrue();
            Path wt = s.workspace().worktree();
            TempRepo.git(wt, "mv", "lib", "src");
            Files.writeString(wt.resolve("package-lock.json"), lockfile(300));
            ServiceDiffBackend backend = new ServiceDiffBackend(wiring.diffs(), wiring.reviews(), "bench");
            Stage owner = WaitForAsyncUtils.asyncFx(() -> {
                        Stage panel = new Stage();
                        Scene scene = new Scene(new javafx.scene.layout.StackPane(), 400, 300);
                        Theme.LIGHT.apply(scene);
                        panel.setScene(scene);
                        panel.show();
                        return panel;
                    })
                    .get(30, TimeUnit.SECONDS);

            List<Long> firstPaint = new ArrayList<>();
            List<Long> otherFile = new ArrayList<>();
            List<Long> pageDown = new ArrayList<>();
            long kept = 0;
            for (int i = 0; i <= ROUNDS; i++) {
                // A new state each round (the agent wrote the lockfile again): nothing of it was read before.
                Files.writeString(wt.resolve("package-lock.json"), lockfile(300 + i));
                long before = usedAfterGc();
                Opened o = open(owner, backend);
                assertThat(o.vm.files()).hasSize(FILES + 1);
                long with = usedAfterGc();
                long switched = choose(o, o.vm.files().get(FILES / 2));
                choose(
                        o,
                        o.vm.files().stream()
                                .filter(f -> f.path().equals(LOCKFILE))
                                .findFirst()
                                .orElseThrow());
                List<Long> pages = scroll(o, 30);
                WaitForAsyncUtils.asyncFx(() -> o.stage.close()).get(10, TimeUnit.SECONDS);
                if (i > 0) {
                    firstPaint.add(o.millis);
                    otherFile.add(switched);
                    pageDown.addAll(pages);
                    kept = Math.max(kept, with - before);
                }
            }
            BenchSupport.report("diff window, 5,000 renamed files + a 3.4 MB lockfile (200 lines changed), open to the"
                    + " first paint of the tree and the lockfile's diff, ms: " + BenchSupport.summary(firstPaint)
                    + "; heap kept by the open window " + kept / 1_000_000 + " MB; load average "
                    + String.format(
                            "%.1f",
                            java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                                    .getSystemLoadAverage()));
            BenchSupport.report(
                    "diff window, choosing another file to its pulse, ms: " + BenchSupport.summary(otherFile));
            BenchSupport.report("diff window, a page down in the lockfile's diff to the next pulse, ms: "
                    + BenchSupport.summary(pageDown));
        }
    }

    private record Opened(Stage stage, DiffViewModel vm, CodeArea area, long millis) {}

    private static Opened open(Stage owner, ServiceDiffBackend backend) throws Exception {
        CompletableFuture<Opened> done = new CompletableFuture<>();
        Platform.runLater(() -> {
            long t0 = System.nanoTime();
            Stage stage = DiffWindow.show(owner, backend, "bench-001", "agent/bench (bench-001)", LOCKFILE);
            Scene scene = stage.getScene();
            CodeArea area = (CodeArea) scene.lookup("#diff-unified");
            DiffViewModel vm = DiffWindow.modelOf(stage);
            vm.loadingProperty().addListener((o, was, now) -> {
                if (!now && vm.selectedProperty().get() != null && !done.isDone()) {
                    afterNextPulse(
                            scene,
                            () -> done.complete(new Opened(stage, vm, area, (System.nanoTime() - t0) / 1_000_000)));
                }
            });
        });
        Opened o = done.get(120, TimeUnit.SECONDS);
        assertThat(WaitForAsyncUtils.asyncFx(() -> o.area.getParagraphs().size())
                        .get(10, TimeUnit.SECONDS))
                .as("the lockfile's diff shows")
                .isGreaterThan(1000);
        return o;
    }

    private static long choose(Opened o, FileChange f) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        Platform.runLater(() -> {
            long t0 = System.nanoTime();
            javafx.beans.value.ChangeListener<Boolean> l = new javafx.beans.value.ChangeListener<>() {
                @Override
                public void changed(javafx.beans.value.ObservableValue<? extends Boolean> v, Boolean was, Boolean now) {
                    if (!now) {
                        o.vm.loadingProperty().removeListener(this);
                        afterNextPulse(o.stage.getScene(), () -> done.complete((System.nanoTime() - t0) / 1_000_000));
                    }
                }
            };
            o.vm.loadingProperty().addListener(l);
            o.vm.selectedProperty().set(f);
        });
        return done.get(60, TimeUnit.SECONDS);
    }

    private static List<Long> scroll(Opened o, int pages) throws Exception {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < pages; i++) {
            CompletableFuture<Long> done = new CompletableFuture<>();
            Platform.runLater(() -> {
                long t0 = System.nanoTime();
                o.area.nextPage(org.fxmisc.richtext.NavigationActions.SelectionPolicy.CLEAR);
                afterNextPulse(o.stage.getScene(), () -> done.complete((System.nanoTime() - t0) / 1_000_000));
            });
            out.add(done.get(10, TimeUnit.SECONDS));
        }
        return out;
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

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    /** A lockfile of {@link #LOCK_LINES} lines; every {@code every}th line changed (none: -1). */
    private static String lockfile(int every) {
        StringBuilder b = new StringBuilder(LOCK_LINES * 52);
        for (int i = 0; i < LOCK_LINES; i++) {
            boolean changed = every > 0 && i % every == every / 2;
            b.append("    \"node_modules/pkg-")
                    .append(i)
                    .append("\": \"")
                    .append(changed ? "2.0." : "1.0.")
                    .append(i % 97)
                    .append("\", \"sha1-")
                    .append(Integer.toHexString(i * 7919))
                    .append("\",\n");
        }
        return b.toString();
    }
}
