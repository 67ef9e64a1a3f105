package dev.paddock.ui.approvals;

import dev.paddock.approval.Approval;
import dev.paddock.common.Words;
import java.util.List;
import java.util.function.Consumer;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.util.Duration;
import dev.paddock.ui.common.Icons;
import org.controlsfx.control.Notifications;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The desktop notification of new approval requests (ControlsFX {@link Notifications}, in the corner of
 * the panel's screen): one per request, or one summary when many arrive at once. Call on the FX thread.
 */
final class ApprovalNotifier {
    /** Style class of the notifications Paddock shows, for tests. */
    static final String STYLE = "pd-approval-notification";
    /** More requests than this in one reload make one summary notification. */
    private static final int SINGLE_MAX = 3;
    private static final Duration SHOWN = Duration.seconds(12);

    private final Node owner;
    private final Consumer<Approval> onOpen;

    /**
     * @param owner a node of the window the notifications belong to
     * @param onOpen called with the request when its notification is clicked (the panel shows it)
     */
    ApprovalNotifier(Node owner, Consumer<Approval> onOpen) {
        this.owner = owner;
        this.onOpen = onOpen;
    }

    /** Announces requests that just arrived. */
    void announce(List<Approval> arrived) {
        if (owner.getScene() == null || owner.getScene().getWindow() == null
                || !owner.getScene().getWindow().isShowing()) {
            return;
        }
        if (arrived.size() > SINGLE_MAX) {
            show("Approvals: " + arrived.size() + " requests wait for you",
                    "Agents in " + Words.count(arrived.stream().map(Approval::sandboxId).distinct()
                            .count(), "sandbox", "sandboxes") + " ask to run commands your policy marks as risky.",
                    arrived.get(0));
            return;
        }
        for (Approval a : arrived) {
            String what = a.request() == null || a.request().isBlank() ? a.tool() : a.request().strip();
            // The notification does not wrap: one short line, the queue has the rest.
            what = what.lines().findFirst().orElse("");
            if (what.length() > 70) {
                what = what.substring(0, 69) + "…";
            }
            show("Approval requested: " + a.tool() + " in " + a.sandboxId(), what, a);
        }
    }

    private void show(String title, String text, Approval a) {
        Notifications n = Notifications.create().title(title).text(text).owner(owner.getScene().getWindow())
                .position(Pos.BOTTOM_RIGHT).hideAfter(SHOWN).onAction(e -> onOpen.accept(a))
                .graphic(Icons.of(MaterialDesignS.SHIELD_ALERT_OUTLINE, 32)).styleClass(STYLE);
        if (owner.getScene().getRoot().getStyleClass().contains("dark")) {
            n.darkStyle();
        }
        n.show();
    }
}
