package dev.paddock.ui.sandboxes;

import dev.paddock.ui.sandboxes.TranscriptRow.Decision;
import dev.paddock.ui.sandboxes.TranscriptRow.Kind;
import dev.paddock.ui.theme.Style;
import java.util.List;
import java.util.function.IntConsumer;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * One row of the Transcript tab. Its nodes are made once and reused as the list scrolls (the list is virtual:
 * only the rows on screen have a cell); {@link #updateItem} only sets texts and style classes made off the FX
 * thread. A click on a row that hides more (a tool result, a long call) shows or hides it.
 */
final class TranscriptCell extends ListCell<TranscriptRow> {
    /** Style classes this cell sets by kind and state; removed before each update. */
    private static final List<String> ROW_STYLES = List.of(
            Style.TRANSCRIPT_ERROR,
            Style.TRANSCRIPT_MARKER,
            Style.TRANSCRIPT_AGENT,
            Style.TRANSCRIPT_CALL,
            Style.TRANSCRIPT_RESULT,
            Style.TRANSCRIPT_QUIET);

    private static final List<String> CHIP_STYLES = List.of(
            Style.CHIP_ACCENT,
            Style.CHIP_SUCCESS,
            Style.CHIP_DANGER,
            Style.CHIP_WARNING,
            Style.CHIP_MUTED,
            Style.TRANSCRIPT_TOOL);

    private final Label kind = new Label();
    private final Label body = new Label();
    private final Label more = new Label();
    private final Label reason = new Label();
    private final Label decision = new Label();
    private final Tooltip decisionTip = new Tooltip();
    private final HBox box;

    TranscriptCell(IntConsumer toggle) {
        getStyleClass().add(Style.TRANSCRIPT_CELL);
        kind.getStyleClass().addAll(Style.CHIP, Style.TRANSCRIPT_KIND);
        kind.setMinWidth(Region.USE_PREF_SIZE);
        kind.setPrefWidth(64);
        kind.setAlignment(Pos.CENTER);
        body.getStyleClass().add(Style.TRANSCRIPT_BODY);
        body.setWrapText(true);
        body.setMinWidth(0);
        body.setMaxWidth(Double.MAX_VALUE);
        more.getStyleClass().add(Style.TRANSCRIPT_MORE);
        more.managedProperty().bind(more.visibleProperty());
        reason.getStyleClass().add(Style.TRANSCRIPT_REASON);
        reason.setWrapText(true);
        reason.setMinWidth(0);
        reason.managedProperty().bind(reason.visibleProperty());
        decision.getStyleClass().addAll(Style.CHIP, Style.TRANSCRIPT_DECISION);
        decision.setMinWidth(Region.USE_PREF_SIZE);
        decision.managedProperty().bind(decision.visibleProperty());
        decisionTip.setWrapText(true);
        decisionTip.setMaxWidth(520);
        VBox content = new VBox(1, body, more, reason);
        content.setMinWidth(0);
        HBox.setHgrow(content, Priority.ALWAYS);
        box = new HBox(8, kind, content, decision);
        box.setAlignment(Pos.TOP_LEFT);
        box.setMinWidth(0);
        setPrefWidth(0);
        setOnMouseClicked(e -> {
            if (e.getButton() == MouseButton.PRIMARY
                    && getItem() != null
                    && getItem().expandable()) {
                toggle.accept(getIndex());
            }
        });
    }

    @Override
    protected void updateItem(TranscriptRow r, boolean empty) {
        super.updateItem(r, empty);
        getStyleClass().removeAll(ROW_STYLES);
        if (empty || r == null) {
            setGraphic(null);
            setText(null);
            return;
        }
        kind.setText(r.label());
        kind.getStyleClass().removeAll(CHIP_STYLES);
        kind.getStyleClass().add(chipStyle(r));
        boolean mono = r.kind() == Kind.TOOL_CALL || r.kind() == Kind.TOOL_RESULT || r.kind() == Kind.OUTPUT;
        if (mono != body.getStyleClass().contains(Style.MONO)) {
            if (mono) {
                body.getStyleClass().add(Style.MONO);
            } else {
                body.getStyleClass().remove(Style.MONO);
            }
        }
        body.setText(r.expanded() ? r.detail() : r.text());
        more.setVisible(r.expandable());
        if (r.expandable()) {
            more.setText(r.expanded() ? "\u25BE hide (Enter)" : "\u25B8 " + r.more() + " (Enter shows them)");
        }
        Decision d = r.decision();
        decision.setVisible(d != null);
        reason.setVisible(d != null && d.reason() != null);
        if (d != null) {
            decision.setText(d.text());
            decision.getStyleClass().removeAll(CHIP_STYLES);
            decision.getStyleClass()
                    .add(
                            switch (d.tone()) {
                                case ALLOWED -> Style.CHIP_SUCCESS;
                                case DENIED -> Style.CHIP_DANGER;
                                case WAITING -> Style.CHIP_WARNING;
                                case NEUTRAL -> Style.CHIP_MUTED;
                            });
            decisionTip.setText(d.tooltip());
            decision.setTooltip(decisionTip);
            reason.setText(d.reason());
        } else {
            decision.setTooltip(null);
        }
        getStyleClass().add(rowStyle(r));
        if (r.error()) {
            getStyleClass().add(Style.TRANSCRIPT_ERROR);
        }
        setText(null);
        setGraphic(box);
    }

    /**
     * The height the row needs at the list's width: its texts wrap, so the graphic is asked at that width (a
     * labeled control would ask its graphic for its height at its own preferred, unwrapped width).
     */
    @Override
    protected double computePrefHeight(double width) {
        if (getGraphic() == null || width <= 0) {
            return super.computePrefHeight(width);
        }
        javafx.geometry.Insets in = getInsets();
        return in.getTop() + in.getBottom() + box.prefHeight(Math.max(0, width - in.getLeft() - in.getRight()));
    }

    private static String chipStyle(TranscriptRow r) {
        if (r.error()) {
            return Style.CHIP_DANGER;
        }
        return switch (r.kind()) {
            case AGENT -> Style.CHIP_ACCENT;
            case TOOL_CALL -> Style.TRANSCRIPT_TOOL;
            case USAGE -> Style.CHIP_SUCCESS;
            default -> Style.CHIP_MUTED;
        };
    }

    private static String rowStyle(TranscriptRow r) {
        return switch (r.kind()) {
            case AGENT, PROMPT -> Style.TRANSCRIPT_AGENT;
            case TOOL_CALL -> Style.TRANSCRIPT_CALL;
            case TOOL_RESULT -> Style.TRANSCRIPT_RESULT;
            case MARKER, SESSION -> Style.TRANSCRIPT_MARKER;
            default -> Style.TRANSCRIPT_QUIET;
        };
    }
}
