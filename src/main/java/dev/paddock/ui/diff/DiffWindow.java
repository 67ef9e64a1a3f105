package dev.paddock.ui.diff;

import dev.paddock.ui.theme.Theme;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;

/** A sandbox's change in a window of its own (Escape or Ctrl+W closes it; F5 reads the change again). */
public final class DiffWindow {
    private DiffWindow() {}

    /** The view model of a window {@link #show} made (benchmarks and tests look at it). */
    public static DiffViewModel modelOf(Stage window) {
        return (DiffViewModel) window.getProperties().get(DiffViewModel.class);
    }

    /**
     * Shows the change of {@code sandboxId} in a new window.
     *
     * @param owner the panel's window (its theme is adopted), or null
     * @param what what the sandbox is, for the title ("agent/login (sb-12)")
     * @param path the file to show first, or null for the first one
     * @return the window
     */
    public static Stage show(Window owner, DiffBackend backend, String sandboxId, String what, String path) {
        DiffViewModel vm = new DiffViewModel(backend);
        DiffView view = new DiffView(vm);
        Stage stage = new Stage();
        stage.setTitle("Changes: " + what + " · Paddock");
        Rectangle2D screen = Screen.getPrimary().getVisualBounds();
        // Room for a window manager's title bar and the desktop's panels: nothing runs off a 768-pixel screen.
        Scene scene = new Scene(view, Math.min(1400, screen.getWidth() - 40), Math.min(900, screen.getHeight() - 90));
        if (owner != null && owner.getScene() != null) {
            Theme.adopt(view, owner.getScene());
            stage.initOwner(owner);
        }
        stage.setScene(scene);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.W, KeyCombination.SHORTCUT_DOWN), stage::close);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.ESCAPE), stage::close);
        scene.getAccelerators().put(new KeyCodeCombination(KeyCode.F5), vm::reload);
        stage.setOnHidden(e -> vm.close());
        stage.getProperties().put(DiffViewModel.class, vm);
        stage.show();
        vm.open(sandboxId, path);
        return stage;
    }
}
