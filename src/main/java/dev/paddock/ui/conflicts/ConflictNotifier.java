package dev.paddock.ui.conflicts;

import dev.paddock.ui.common.Icons;
import java.util.List;
import java.util.function.Consumer;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.util.Duration;
import org.controlsfx.control.Notifications;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The desktop notification of merge requests entering the conflict queue (ControlsFX
 * {@link Notifications}): one per entry, or one summary when many arrive at once. Call on the FX thread.
 */
final class ConflictNotifier {
    /** Style class of the notifications, for tests. */
    static final String STYLE = "pd-conflict-notification";
    private static final int SINGLE_MAX = 3;
    private static final Duration SHOWN = Duration.seconds(12);

    private final Node owner;
    private final Consumer<ConflictQueueRow> onOpen;

    /**
     * @param owner  a node of the window the notifications belong to
     * @param onOpen called with the entry when its notification is clicked
     */
    ConflictNotifier(Node owner, Consumer<ConflictQueueRow> onOpen) {
        this.owner = owner;
        this.onOpen = onOpen;
    }

    /** Announces entries that just arrived. */
    void announce(List<ConflictQueueRow> arrived) {
        if (owner.getScene() == null || owner.getScene().getWindow() == null
                || !owner.getScene().getWindow().isShowing()) {
            return;
        }
        if (arrived.size() > SINGLE_MAX) {
            show("Conflicts: " + arrived.size() + " branches wait for you",
                    "The merge queue could not merge them cleanly.", arrived.get(0));
            return;
        }
        for (ConflictQueueRow r : arrived) {
            show("Merge conflict: " + r.branch() + " in " + r.sandboxId(), r.files()
                    + (r.files() == 1 ? " file" : " files") + ", " + r.humanHunks() + " for a person, "
                    + r.safeHunks() + " safe. Open it to resolve.", r);
        }
    }

    private void show(String title, String text, ConflictQueueRow r) {
        Notifications n = Notifications.create().title(title).text(text).owner(owner.getScene().getWindow())
                .position(Pos.BOTTOM_RIGHT).hideAfter(SHOWN).onAction(e -> onOpen.accept(r))
                .graphic(Icons.of(MaterialDesignS.SOURCE_MERGE, 32)).styleClass(STYLE);
        if (owner.getScene().getRoot().getStyleClass().contains("dark")) {
            n.darkStyle();
        }
        n.show();
    }
}
