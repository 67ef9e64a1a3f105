package dev.paddock.ui.approvals;

import dev.paddock.approval.Approval;
import dev.paddock.ui.common.ToastStack;
import dev.paddock.ui.theme.Style;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import javafx.scene.Node;
import javafx.stage.Window;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The notifications of new approval requests, in the panel window's {@link ToastStack}: one per request (at most
 * three show; more are counted in one "N more waiting" line), each taken away as soon as its request is decided,
 * here or elsewhere. Call on the FX thread.
 */
final class ApprovalNotifier {
    /** Style class of the notifications Paddock shows, for tests. */
    static final String STYLE = Style.APPROVAL_NOTIFICATION;
    /** Key prefix of these toasts in the stack. */
    static final String KEY = "approval-";

    private final java.util.function.Supplier<Node> owner;
    private final Consumer<Approval> onOpen;

    /**
     * @param owner a node of the window the notifications belong to (asked at each notification)
     * @param onOpen called with the request when its notification is clicked (the panel shows it)
     */
    ApprovalNotifier(java.util.function.Supplier<Node> owner, Consumer<Approval> onOpen) {
        this.owner = owner;
        this.onOpen = onOpen;
    }

    /** Announces requests that just arrived. */
    void announce(List<Approval> arrived) {
        ToastStack stack = stack();
        if (stack == null) {
            return;
        }
        for (Approval a : arrived) {
            String what = a.request() == null || a.request().isBlank()
                    ? a.tool()
                    : a.tool().equals("Bash")
                            ? a.request().strip()
                            : a.tool() + " " + a.request().strip();
            // At most two short lines: the queue has the rest.
            what = what.lines().findFirst().orElse("");
            if (what.length() > 90) {
                what = what.substring(0, 89) + "…";
            }
            stack.show(
                    KEY + a.id(),
                    STYLE,
                    MaterialDesignS.SHIELD_ALERT_OUTLINE,
                    a.sandboxId() + " asks for approval",
                    what,
                    () -> onOpen.accept(a));
        }
    }

    /** Takes away the notifications of requests no longer pending ({@code pending}: the ids still pending). */
    void pending(Set<Long> pending) {
        ToastStack stack = stack();
        if (stack != null) {
            stack.keepOnly(KEY, pending.stream().map(id -> KEY + id).collect(Collectors.toSet()));
        }
    }

    private ToastStack stack() {
        Window w =
                owner.get().getScene() == null ? null : owner.get().getScene().getWindow();
        if (w == null || !w.isShowing()) {
            return null;
        }
        ToastStack stack = ToastStack.of(w);
        stack.setOnSummary(() -> {
            if (w instanceof javafx.stage.Stage s) {
                s.toFront();
            }
        });
        return stack;
    }
}
