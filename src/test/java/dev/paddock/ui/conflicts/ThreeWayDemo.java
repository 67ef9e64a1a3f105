package dev.paddock.ui.conflicts;

import dev.paddock.testing.ConflictScenarios;
import dev.paddock.testing.GitConflictBackend;
import dev.paddock.testing.TempRepo;
import dev.paddock.ui.common.UiExecutor;
import dev.paddock.ui.theme.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Shows the three-way view on the test scenario's real conflicting merge, for screenshots
 * ({@code DISPLAY=:99 java -cp ... dev.paddock.ui.conflicts.ThreeWayDemo}): the Java file open, its
 * import hunk resolved with the proposed union, theirs taken on the greet hunk (shown).
 */
public final class ThreeWayDemo {
    private ThreeWayDemo() {}

    /** Starts the demo window. */
    public static void main(String[] args) {
        Application.launch(App.class, args);
    }

    /** The JavaFX application of the demo. */
    public static final class App extends Application {
        @Override
        public void start(Stage stage) throws Exception {
            Path dir = Files.createTempDirectory("threeway-demo");
            TempRepo repo = ConflictScenarios.serviceAndNotes(dir.resolve("repo"));
            ThreeWayViewModel vm = new ThreeWayViewModel(new GitConflictBackend(repo), 7, UiExecutor.io());
            ThreeWayView view = new ThreeWayView(vm);
            Scene scene = new Scene(view, 1420, 860);
            Theme.LIGHT.apply(scene);
            stage.setTitle("Resolve conflicts: agent/b (sb-42) · Paddock");
            stage.setScene(scene);
            stage.setX(10);
            stage.setY(10);
            stage.show();
            vm.load()
                    .thenRun(() -> Platform.runLater(() -> {
                        vm.selectFile(1);
                        vm.choose(HunkState.PROPOSED);
                        vm.next();
                        vm.choose(HunkState.THEIRS);
                    }));
        }
    }
}
