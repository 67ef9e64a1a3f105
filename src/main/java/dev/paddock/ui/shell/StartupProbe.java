package dev.paddock.ui.shell;

import dev.paddock.status.RepositoryStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import javafx.scene.Scene;

/**
 * Start-up timing for the benchmark (inactive unless {@code -Dpaddock.bench.startupFile=FILE}):
 * appends one line {@code firstFrameAt=T1 dashboardAt=T2} to FILE, wall-clock times in epoch ms,
 * where the first frame is the moment the window's first frame has been drawn ({@link FirstFrame}: after
 * the second pulse, which waits for the first one's drawing) and the dashboard is the
 * moment the worktree table first has rows. The benchmark subtracts the time it started the
 * process (the kernel's process start time is only known to the second). With
 * {@code -Dpaddock.bench.exit=true} the panel then quits.
 */
final class StartupProbe {
    private StartupProbe() {}

    static void watch(Scene scene, ShellViewModel vm) {
        String file = System.getProperty("paddock.bench.startupFile");
        if (file == null) {
            return;
        }
        long[] firstFrame = {-1};
        // Registered before the panel's own after-first-frame work, so it runs first (runLater keeps order).
        FirstFrame.afterDrawn(() -> firstFrame[0] = System.currentTimeMillis());
        vm.dashboard().worktrees().addListener(new ListChangeListener<RepositoryStatus.Worktree>() {
            @Override
            public void onChanged(Change<? extends RepositoryStatus.Worktree> c) {
                if (vm.dashboard().worktrees().isEmpty()) {
                    return;
                }
                vm.dashboard().worktrees().removeListener(this);
                long dashboard = System.currentTimeMillis();
                try {
                    Files.writeString(
                            Path.of(file),
                            "firstFrameAt=" + firstFrame[0] + " dashboardAt=" + dashboard + "\n",
                            StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                } catch (IOException e) {
                    System.err.println("paddock: cannot write " + file + ": " + e.getMessage());
                }
                if (Boolean.getBoolean("paddock.bench.exit")) {
                    Platform.exit();
                }
            }
        });
    }
}
