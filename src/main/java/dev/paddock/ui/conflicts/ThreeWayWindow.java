package dev.paddock.ui.conflicts;

import dev.paddock.ui.theme.Theme;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The window of a three-way resolution: one per merge request, closed when its merge is aborted from it. When the merge
 * finishes (or ends elsewhere) the view says so and offers only Close; the window stops following the merge request
 * once it is closed.
 */
public final class ThreeWayWindow {
    private ThreeWayWindow() {
    }

    /**
     * Shows the three-way view of {@code vm} in a new window and starts loading its conflicts.
     *
     * @param owner the panel's window (its theme is adopted), or null
     * @param what  what is being merged, for the title ("agent/login (sb-12)")
     * @return the window
     */
    public static Stage show(Window owner, ThreeWayViewModel vm, String what) {
        ThreeWayView view = new ThreeWayView(vm);
        Stage stage = new Stage();
        stage.setTitle("Resolve conflicts: " + what + " · Paddock");
        // Large enough for four texts side by side, but never beyond the screen.
        javafx.geometry.Rectangle2D screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        Scene scene = new Scene(view, Math.min(1400, screen.getWidth()), Math.min(900, screen.getHeight()));
        if (owner != null && owner.getScene() != null) {
            Theme.adopt(view, owner.getScene());
            stage.initOwner(owner);
        }
        stage.setScene(scene);
        // Closing only closes the window: the merge stays in the conflict queue and opens again from there.
        scene.getAccelerators().put(new javafx.scene.input.KeyCodeCombination(javafx.scene.input.KeyCode.W,
                javafx.scene.input.KeyCombination.SHORTCUT_DOWN), stage::close);
        vm.abortedProperty().addListener((o, a, aborted) -> {
            if (aborted) {
                stage.close();
            }
        });
        stage.setOnHidden(e -> vm.close());
        stage.show();
        vm.load();
        return stage;
    }
}
