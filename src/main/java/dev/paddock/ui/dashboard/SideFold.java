package dev.paddock.ui.dashboard;

import dev.paddock.ui.common.LayoutMemory;
import dev.paddock.ui.theme.Style;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.scene.Node;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;

/**
 * The dashboard's upper half: the tabs beside the approval and conflict queues, which fold to a {@link SideRail} while
 * both queues are empty and nothing else there needs reading (the tables get the width), and unfold when a request or
 * a conflict arrives. They fold {@link #FOLD_DELAY} after the last one leaves, so the note about a decision is read
 * first. A person can unfold them by hand (they then stay open, also across runs) or fold them again.
 */
final class SideFold extends BorderPane {
    /** Where a person's choice to keep the queues open is kept ({@link LayoutMemory}; 1 open, 0 not). */
    static final String PINNED = "dashboard.sidePinned";

    private final Node main;
    private final Node side;
    private final SideRail rail;
    private final SplitPane split = new SplitPane();
    private final LayoutMemory layout;
    /** How long the queues stay open after they emptied. */
    static final javafx.util.Duration FOLD_DELAY = javafx.util.Duration.seconds(1.5);

    /** Whether the queues have something to show (a field: a binding only its listener holds may be collected). */
    private final javafx.beans.binding.BooleanBinding needed;

    private final javafx.animation.PauseTransition foldLater = new javafx.animation.PauseTransition(FOLD_DELAY);
    private boolean folded;
    private boolean pinned;

    /**
     * @param approvals requests waiting, and {@code conflicts} branches waiting: shown on the rail
     * @param more     something else in the queues a person must read (requests waiting in other repositories, the
     *     note about a decision, an error)
     */
    SideFold(
            Node main,
            Node side,
            javafx.beans.binding.IntegerExpression approvals,
            javafx.beans.binding.IntegerExpression conflicts,
            javafx.beans.value.ObservableBooleanValue more,
            LayoutMemory layout) {
        this.main = main;
        this.side = side;
        this.layout = layout;
        this.needed = approvals.greaterThan(0).or(conflicts.greaterThan(0)).or(more);
        this.rail = new SideRail(approvals, conflicts, () -> setFolded(false, true));
        // The gap a split pane's divider leaves between the tabs and the side.
        BorderPane.setMargin(rail, new javafx.geometry.Insets(0, 0, 0, 8));
        getStyleClass().add(Style.UPPER);
        SplitPane.setResizableWithParent(side, false);
        split.getStyleClass().add(Style.UPPER_SPLIT);
        // A divider a person drags is kept (only while the queues show: the rail has no divider).
        split.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_RELEASED, e -> {
            if (split.getDividerPositions().length > 0) {
                layout.put(DashboardView.SIDE_DIVIDER, split.getDividerPositions()[0]);
            }
        });
        pinned = layout.get(PINNED, 0) > 0;
        foldLater.setOnFinished(e -> {
            if (!needed.get() && !pinned) {
                setFolded(true, false);
            }
        });
        needed.addListener((o, was, now) -> {
            if (now) {
                foldLater.stop();
                setFolded(false, false);
            } else {
                foldLater.playFromStart();
            }
        });
        show(!pinned && !needed.get());
    }

    /** Folds or unfolds the queues by a person's choice (Ctrl+B, the rail's or the side's button). */
    void toggle() {
        setFolded(!folded, true);
    }

    /** Shows the queues (a notification of theirs was clicked); unlike a click on the rail, not remembered. */
    void unfold() {
        if (folded) {
            show(false);
        }
    }

    /** Folds the queues by a person's choice. */
    void fold() {
        setFolded(true, true);
    }

    private void setFolded(boolean fold, boolean byHand) {
        foldLater.stop();
        if (byHand) {
            pinned = !fold;
            layout.put(PINNED, pinned ? 1 : 0);
        }
        if (fold != folded) {
            show(fold);
        }
    }

    private void show(boolean fold) {
        boolean hadFocus = main.getScene() != null && isInside(main.getScene().getFocusOwner(), side);
        setCenter(null);
        setRight(null);
        if (fold) {
            split.getItems().clear();
            setCenter(main);
            setRight(rail);
        } else {
            split.getItems().setAll(main, side);
            placeDivider();
            setCenter(split);
        }
        folded = fold;
        if (hadFocus && fold) {
            rail.getChildren().get(0).requestFocus();
        }
    }

    /**
     * The divider where a person left it, else the side at 30 % of the width, but 400 to 560 px (a request's buttons
     * need the room; the tables get the rest). New items reset a split pane's dividers, so this runs at every unfold.
     */
    private void placeDivider() {
        double remembered = layout.get(DashboardView.SIDE_DIVIDER, -1);
        if (remembered > 0) {
            split.setDividerPositions(remembered);
            return;
        }
        if (getWidth() > 0) {
            split.setDividerPositions(defaultDivider(getWidth()));
            return;
        }
        split.widthProperty().addListener(new ChangeListener<>() {
            @Override
            public void changed(ObservableValue<? extends Number> o, Number a, Number w) {
                if (w.doubleValue() > 0) {
                    split.widthProperty().removeListener(this);
                    split.setDividerPositions(defaultDivider(w.doubleValue()));
                }
            }
        });
    }

    private static double defaultDivider(double width) {
        double side = Math.max(DashboardView.SIDE_MIN_WIDTH + 20, Math.min(560, width * 0.3));
        return 1 - side / width;
    }

    private static boolean isInside(Node n, Node parent) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (p == parent) {
                return true;
            }
        }
        return false;
    }
}
