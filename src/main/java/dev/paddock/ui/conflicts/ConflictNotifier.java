package dev.paddock.ui.conflicts;

import dev.paddock.ui.common.ToastStack;
import dev.paddock.ui.theme.Style;
import java.util.List;
import java.util.function.Consumer;
import javafx.scene.Node;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The notifications of merge requests entering the conflict queue, in the panel window's {@link ToastStack} (shared
 * with the approval queue's): one per entry, taken away when the entry leaves the conflict queue. Call on the FX
 * thread.
 */
final class ConflictNotifier {
    /** Style class of the notifications, for tests. */
    static final String STYLE = Style.CONFLICT_NOTIFICATION;
    /** Key prefix of these toasts in the window's stack. */
    static final String KEY = "conflict-";

    private final java.util.function.Supplier<Node> owner;
    private final Consumer<ConflictQueueRow> onOpen;

    /**
     * @param owner  a node of the window the notifications belong to (asked at each notification)
     * @param onOpen called with the entry when its notification is clicked
     */
    ConflictNotifier(java.util.function.Supplier<Node> owner, Consumer<ConflictQueueRow> onOpen) {
        this.owner = owner;
        this.onOpen = onOpen;
    }

    /** Announces entries that just arrived. */
    void announce(List<ConflictQueueRow> arrived) {
        ToastStack stack = stack();
        if (stack == null) {
            return;
        }
        for (ConflictQueueRow r : arrived) {
            stack.show(
                    KEY + r.mergeRequestId(),
                    STYLE,
                    MaterialDesignS.SOURCE_MERGE,
                    "Merge conflict: " + (r.sandboxId() == null ? r.branch() : r.sandboxId()),
                    r.branch() + ": " + r.files()
                            + (r.files() == 1 ? " file" : " files") + ", " + r.humanHunks() + " for a person, "
                            + r.safeHunks()
                            + " safe. Open it to resolve.",
                    () -> onOpen.accept(r));
        }
    }

    /** Takes away the notifications of entries no longer in the conflict queue ({@code waiting}: the ids still there). */
    void waiting(java.util.Set<Long> waiting) {
        ToastStack stack = stack();
        if (stack != null) {
            stack.keepOnly(KEY, waiting.stream().map(id -> KEY + id).collect(java.util.stream.Collectors.toSet()));
        }
    }

    private ToastStack stack() {
        javafx.stage.Window w =
                owner.get().getScene() == null ? null : owner.get().getScene().getWindow();
        return w == null || !w.isShowing() ? null : ToastStack.of(w);
    }
}
