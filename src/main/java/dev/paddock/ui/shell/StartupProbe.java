package dev.paddock.ui.shell;

import dev.paddock.status.RepositoryStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.collections.ListChangeListener;
import javafx.scene.Scene;

/**
 * Start-up timing for the benchmark (inactive unless {@code -Dpaddock.bench.startupFile=FILE}):
 * appends one line {@code firstFrameMs=N dashboardMs=M} to FILE, measured from the process start,
 * where the first frame is the first pulse after the window is shown and the dashboard is the
 * moment the worktree table first has rows. With {@code -Dpaddock.bench.exit=true} the panel then quits.
 */
final class StartupProbe {
    private StartupProbe() {
    }

    static void watch(Scene scene, ShellViewModel vm) {
        String file = System.getProperty("paddock.bench.startupFile");
        if (file == null) {
            return;
        }
        Instant processStart = ProcessHandle.current().info().startInstant().orElse(Instant.now());
        long[] firstFrame = {-1};
        new AnimationTimer() {
            @Override
            public void handle(long now) {
                firstFrame[0] = Duration.between(processStart, Instant.now()).toMillis();
                stop();
            }
        }.start();
        vm.dashboard().worktrees().addListener(new ListChangeListener<RepositoryStatus.Worktree>() {
            @Override
            public void onChanged(Change<? extends RepositoryStatus.Worktree> c) {
                if (vm.dashboard().worktrees().isEmpty()) {
                    return;
                }
                vm.dashboard().worktrees().removeListener(this);
                long dashboard = Duration.between(processStart, Instant.now()).toMillis();
                try {
                    Files.writeString(Path.of(file), "firstFrameMs=" + firstFrame[0] + " dashboardMs=" + dashboard
                            + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
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
