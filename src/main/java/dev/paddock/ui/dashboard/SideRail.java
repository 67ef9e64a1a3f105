package dev.paddock.ui.dashboard;

import atlantafx.base.theme.Styles;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The approval and conflict queues folded to a narrow column: a button to unfold them and, under it, each queue's
 * icon with its count. Shown while both queues are empty, so the tables get the width.
 */
final class SideRail extends VBox {
    /** Node id, for tests and styling. */
    static final String ID = "side-rail";
    /** Width of the rail, in pixels. */
    static final double WIDTH = 44;

    /**
     * @param unfold what a click on the rail does: show the queues
     */
    SideRail(
            ObservableValue<? extends Number> approvals, ObservableValue<? extends Number> conflicts, Runnable unfold) {
        setId(ID);
        getStyleClass().add(Style.SIDE_RAIL);
        setAlignment(Pos.TOP_CENTER);
        setSpacing(10);
        setMinWidth(WIDTH);
        setPrefWidth(WIDTH);
        setMaxWidth(WIDTH);
        Button open = button(MaterialDesignC.CHEVRON_DOUBLE_LEFT, "Show approvals and conflicts (Ctrl+B)", unfold);
        open.setId("side-unfold");
        getChildren()
                .addAll(
                        open,
                        queue(
                                MaterialDesignS.SHIELD_ACCOUNT_OUTLINE,
                                "approvals",
                                "requests waiting for a decision",
                                approvals,
                                unfold),
                        queue(
                                MaterialDesignS.SOURCE_MERGE,
                                "conflicts",
                                "branches waiting for a three-way resolution",
                                conflicts,
                                unfold));
    }

    /** A queue's icon and count: a button that unfolds the queues. */
    private static VBox queue(
            Ikon icon, String name, String what, ObservableValue<? extends Number> count, Runnable unfold) {
        Button b = button(icon, "", unfold);
        b.setId("side-rail-" + name);
        b.tooltipProperty()
                .bind(count.map(n -> new Tooltip(
                        n.longValue() == 0
                                ? "No " + what + " (Ctrl+B shows the " + name + ")"
                                : n.longValue() + " " + what + " (Ctrl+B shows them)")));
        Label n = new Label();
        n.getStyleClass().add(Style.SIDE_RAIL_COUNT);
        n.textProperty().bind(count.map(v -> Long.toString(v.longValue())).orElse("0"));
        // A count above zero stands out: something waits while the queues are folded.
        count.addListener((o, was, v) -> waiting(n, v));
        waiting(n, count.getValue());
        VBox box = new VBox(0, b, n);
        box.setAlignment(Pos.TOP_CENTER);
        return box;
    }

    private static void waiting(Label count, Number n) {
        count.getStyleClass().remove(WAITING);
        if (n != null && n.longValue() > 0) {
            count.getStyleClass().add(WAITING);
        }
    }

    /** Style class of a count above zero. */
    static final String WAITING = Style.SIDE_RAIL_WAITING;

    private static Button button(Ikon icon, String tip, Runnable action) {
        Button b = new Button(null, Icons.of(icon, 18));
        b.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        if (!tip.isEmpty()) {
            b.setTooltip(new Tooltip(tip));
        }
        b.setOnAction(e -> action.run());
        return b;
    }
}
