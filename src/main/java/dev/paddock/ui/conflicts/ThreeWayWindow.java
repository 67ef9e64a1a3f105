package dev.paddock.ui.conflicts;

import dev.paddock.ui.theme.Theme;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The window of a three-way resolution: one per merge request, closed when its merge is aborted from it. When the merge
 * is merged the view says so and the window closes itself {@value #LINGER_MS} ms later (the merge queue and the events
 * keep the record); when it ends elsewhere (cancelled) the view says why and offers only Close. The window stops
 * following the merge request once it is closed.
 */
public final class ThreeWayWindow {
    /** How long a merged window stays, so the person sees "Merged as …" before it goes, in ms. */
    static final long LINGER_MS = 2_000;

    private ThreeWayWindow() {}

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
        scene.getAccelerators()
                .put(
                        new javafx.scene.input.KeyCodeCombination(
                                javafx.scene.input.KeyCode.W, javafx.scene.input.KeyCombination.SHORTCUT_DOWN),
                        stage::close);
        vm.abortedProperty().addListener((o, a, aborted) -> {
            if (aborted) {
                stage.close();
            }
        });
        javafx.animation.PauseTransition linger =
                new javafx.animation.PauseTransition(javafx.util.Duration.millis(LINGER_MS));
        linger.setOnFinished(e -> stage.close());
        vm.progressProperty().addListener((o, was, now) -> {
            if (now != null && now.stage() == ConflictBackend.Stage.MERGED && stage.isShowing()) {
                linger.playFromStart();
            }
        });
        stage.setOnHidden(e -> {
            linger.stop();
            vm.close();
        });
        stage.show();
        vm.load();
        return stage;
    }
}
