package dev.paddock.ui.sandboxes;

import atlantafx.base.theme.Styles;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.OverrunStyle;
import javafx.scene.control.Tooltip;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignM;

/**
 * The Transcript tab: the agent's conversation in a virtual list, with a summary line the details pane shows beside
 * the tabs' names (only the rows on screen have
 * a cell, so ten thousand entries open and scroll like ten). The list follows the newest row while the person is at
 * its end; once they scroll up it stays where they are and a "Jump to latest" button in the summary line counts what
 * arrived since.
 * Keys: Enter shows or hides a tool result (or a long call), Ctrl+End jumps to the latest row, Ctrl+C copies a
 * row's whole text.
 */
final class TranscriptPane extends VBox {
    static final String LIST_ID = "sandbox-transcript";

    private static final long TO_END_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1_500);
    private static final java.util.Set<KeyCode> UP_KEYS =
            java.util.EnumSet.of(KeyCode.UP, KeyCode.PAGE_UP, KeyCode.HOME, KeyCode.KP_UP);

    private final TranscriptViewModel vm;
    private final ListView<TranscriptRow> list;
    private final Button latest = new Button();
    private final HBox summaryBar;
    private boolean following = true;
    private int arrived;
    private boolean checkPending;
    /**
     * Until when (nanoTime) each layout pass brings the last row's end into view: rows differ in height, so one jump
     * may fall short, and new rows take their height a pass or two after they show. Input from the person ends it.
     */
    private long toEndUntil;

    private final Runnable afterLayout = this::afterLayout;

    TranscriptPane(TranscriptViewModel vm) {
        this.vm = vm;
        list = new ListView<>(vm.rows());
        list.setId(LIST_ID);
        list.getStyleClass().addAll(Style.TRANSCRIPT, "dense");
        list.setCellFactory(v -> new TranscriptCell(vm::toggle));
        Label placeholder = new Label("The agent's conversation appears here as it runs: its messages, each tool call"
                + " with what the policy decided, the results (Enter shows one), errors, and what the run cost.");
        placeholder.setWrapText(true);
        placeholder.getStyleClass().add(Style.MUTED);
        placeholder.setPadding(new Insets(12));
        list.setPlaceholder(placeholder);

        Label summary = new Label();
        summary.setId("sandbox-transcript-summary");
        summary.getStyleClass().add(Style.MUTED);
        summary.setMinWidth(0);
        summary.setTextOverrun(OverrunStyle.ELLIPSIS);
        summary.textProperty()
                .bind(javafx.beans.binding.Bindings.createStringBinding(
                        () -> {
                            String s = vm.summaryProperty().get();
                            String text = s.isEmpty() ? "No transcript yet." : s;
                            return vm.readingProperty().get() ? text + " · reading the log…" : text;
                        },
                        vm.summaryProperty(),
                        vm.readingProperty()));
        Tooltip summaryTip = new Tooltip();
        summaryTip
                .textProperty()
                .bind(vm.summaryInFullProperty()
                        .concat("\nKeys: Enter or a click shows a result,"
                                + " Ctrl+End the latest row, Ctrl+C copies a row."));
        summary.setTooltip(summaryTip);
        latest.setId("sandbox-transcript-latest");
        latest.setGraphic(Icons.of(MaterialDesignA.ARROW_DOWN, 14));
        latest.getStyleClass().addAll(Styles.ACCENT, Styles.SMALL);
        latest.setFocusTraversable(false);
        latest.setTooltip(new Tooltip("Show the newest rows and follow them again (Ctrl+End)"));
        latest.setOnAction(e -> jumpToLatest());
        latest.setVisible(false);
        // In the summary line, beside the tabs' names: it covers no row of the list; the summary gives way to it.
        latest.managedProperty().bind(latest.visibleProperty());
        latest.setMinWidth(Region.USE_PREF_SIZE);
        summaryBar = new HBox(6, Icons.of(MaterialDesignM.MESSAGE_TEXT_OUTLINE, 14), summary, latest);
        summaryBar.setId("sandbox-transcript-summary-bar");
        summaryBar.setAlignment(Pos.CENTER_LEFT);
        summaryBar.setMinWidth(0);

        StackPane stack = new StackPane(list);
        VBox.setVgrow(stack, Priority.ALWAYS);
        getChildren().add(stack);

        vm.rows().addListener((ListChangeListener<TranscriptRow>) c -> rowsChanged(c));
        list.addEventFilter(KeyEvent.KEY_PRESSED, this::key);
        list.addEventFilter(ScrollEvent.SCROLL, e -> {
            if (e.getDeltaY() > 0) {
                stopFollowing();
            }
            checkFollowingAfterLayout();
        });
        list.addEventFilter(MouseEvent.MOUSE_PRESSED, e -> {
            if (e.getTarget() instanceof javafx.scene.Node n && inScrollBar(n)) {
                stopFollowing();
            }
        });
        list.addEventFilter(MouseEvent.MOUSE_DRAGGED, e -> checkFollowingAfterLayout());
        list.addEventFilter(MouseEvent.MOUSE_RELEASED, e -> checkFollowingAfterLayout());
        sceneProperty().addListener((o, was, now) -> {
            if (was != null) {
                was.removePostLayoutPulseListener(afterLayout);
            }
            if (now != null) {
                now.addPostLayoutPulseListener(afterLayout);
            }
        });
    }

    /**
     * The summary line (calls, errors, tokens, cost), for the details pane to place: it shows in the tabs' row, beside
     * their names, so the list keeps that line's height.
     */
    HBox summaryBar() {
        return summaryBar;
    }

    /** The list (for tests and focus). */
    ListView<TranscriptRow> list() {
        return list;
    }

    /** Whether the list follows the newest row. */
    boolean isFollowing() {
        return following;
    }

    /** Shows the newest row and follows the new ones again. */
    void jumpToLatest() {
        following = true;
        arrived = 0;
        int last = list.getItems().size() - 1;
        if (last >= 0) {
            scrollToEnd();
            list.getSelectionModel().clearAndSelect(last);
            list.getFocusModel().focus(last);
        }
        showLatestButton();
    }

    private void rowsChanged(ListChangeListener.Change<? extends TranscriptRow> c) {
        if (list.getItems().isEmpty()) {
            following = true;
            arrived = 0;
            showLatestButton();
            return;
        }
        int added = 0;
        while (c.next()) {
            if (c.wasAdded() && !c.wasReplaced()) {
                added += c.getAddedSize();
            }
        }
        if (added == 0) {
            // A row shown or hidden, a decision arriving: the list stays where it is.
            return;
        }
        if (following) {
            scrollToEnd();
        } else {
            arrived += added;
            showLatestButton();
        }
    }

    private void key(KeyEvent e) {
        if (e.getCode() == KeyCode.END && e.isShortcutDown()) {
            jumpToLatest();
            e.consume();
        } else if (e.getCode() == KeyCode.ENTER || e.getCode() == KeyCode.SPACE) {
            int i = list.getFocusModel().getFocusedIndex();
            if (i >= 0) {
                vm.toggle(i);
                list.getSelectionModel().clearAndSelect(i);
                list.getFocusModel().focus(i);
            }
            e.consume();
        } else if ((e.getCode() == KeyCode.PAGE_DOWN || e.getCode() == KeyCode.PAGE_UP) && !e.isShortcutDown()) {
            if (e.getCode() == KeyCode.PAGE_UP) {
                stopFollowing();
            }
            page(e.getCode() == KeyCode.PAGE_DOWN ? 1 : -1);
            checkFollowingAfterLayout();
            e.consume();
        } else if (e.getCode() == KeyCode.C && e.isShortcutDown()) {
            TranscriptRow r = list.getSelectionModel().getSelectedItem();
            if (r != null) {
                ClipboardContent content = new ClipboardContent();
                content.putString(r.fullText());
                Clipboard.getSystemClipboard().setContent(content);
            }
            e.consume();
        } else {
            if (UP_KEYS.contains(e.getCode())) {
                stopFollowing();
            }
            checkFollowingAfterLayout();
        }
    }

    /**
     * Page Down / Page Up: the list moves by nine tenths of its height and the row at its new bottom (top) is
     * selected. The list's own paging stops at a row taller than the list, which a shown result easily is.
     */
    private void page(int direction) {
        VirtualFlow<?> flow = (VirtualFlow<?>) list.lookup(".virtual-flow");
        if (flow == null || list.getItems().isEmpty()) {
            return;
        }
        flow.scrollPixels(direction * Math.max(flow.getHeight() * 0.9, 1));
        IndexedCell<?> to = direction > 0 ? flow.getLastVisibleCell() : flow.getFirstVisibleCell();
        if (to != null && to.getIndex() >= 0) {
            list.getSelectionModel().clearAndSelect(to.getIndex());
            list.getFocusModel().focus(to.getIndex());
        }
    }

    /** The person moves away from the end: new rows no longer pull the list down (until it shows the end again). */
    private void stopFollowing() {
        toEndUntil = 0;
        following = false;
        showLatestButton();
    }

    private boolean inScrollBar(javafx.scene.Node n) {
        for (javafx.scene.Node p = n; p != null && p != list; p = p.getParent()) {
            if (p instanceof javafx.scene.control.ScrollBar) {
                return true;
            }
        }
        return false;
    }

    /** After the person moved the list (wheel, keys, scroll bar): it follows again once its last row shows. */
    private void checkFollowingAfterLayout() {
        toEndUntil = 0;
        checkPending = true;
        list.requestLayout();
    }

    private void scrollToEnd() {
        list.scrollTo(list.getItems().size() - 1);
        toEndUntil = System.nanoTime() + TO_END_NANOS;
        list.requestLayout();
    }

    /**
     * After a layout pass: the list's estimate of where its last row is can be short when rows differ in height, so
     * it is moved by the pixels still missing, until the last row's end shows.
     */
    private void finishScrollToEnd() {
        VirtualFlow<?> flow = (VirtualFlow<?>) list.lookup(".virtual-flow");
        int lastIndex = list.getItems().size() - 1;
        if (flow == null || lastIndex < 0) {
            return;
        }
        IndexedCell<?> last = flow.getLastVisibleCell();
        if (last == null) {
            // Its cells are not laid out yet (the rows just arrived, the tab just showed): at the next pass.
            list.requestLayout();
            return;
        }
        if (last.getIndex() < lastIndex) {
            // Far off: the list's own jump; near: a screen at a time over rows it has measured.
            if (lastIndex - last.getIndex() > 20) {
                flow.scrollTo(lastIndex);
            } else {
                flow.scrollPixels(Math.max(flow.getHeight(), 1));
            }
            list.requestLayout();
            return;
        }
        double missing = last.getLayoutY() + last.getHeight() - flow.getHeight();
        if (missing > 0.5) {
            flow.scrollPixels(missing);
            list.requestLayout();
        }
    }

    private void afterLayout() {
        if (following && System.nanoTime() < toEndUntil) {
            finishScrollToEnd();
        }
        if (!checkPending) {
            return;
        }
        checkPending = false;
        following = lastRowShows();
        if (following) {
            arrived = 0;
        }
        showLatestButton();
    }

    /** Whether the list's last row is (at least partly) on screen. */
    boolean lastRowShows() {
        if (list.getItems().isEmpty()) {
            return true;
        }
        VirtualFlow<?> flow = (VirtualFlow<?>) list.lookup(".virtual-flow");
        IndexedCell<?> last = flow == null ? null : flow.getLastVisibleCell();
        return last == null || last.getIndex() >= list.getItems().size() - 1;
    }

    /** Whether the list's last row shows whole, its end at the list's bottom or above (for tests). */
    boolean lastRowShowsWhole() {
        VirtualFlow<?> flow = (VirtualFlow<?>) list.lookup(".virtual-flow");
        IndexedCell<?> last = flow == null ? null : flow.getLastVisibleCell();
        return list.getItems().isEmpty()
                || last != null
                        && last.getIndex() == list.getItems().size() - 1
                        && last.getLayoutY() + last.getHeight() <= flow.getHeight() + 0.5;
    }

    private void showLatestButton() {
        latest.setVisible(!following && !list.getItems().isEmpty());
        latest.setText(arrived > 0 ? arrived + " new · Jump to latest" : "Jump to latest");
    }
}
