package dev.paddock.ui.conflicts;

import atlantafx.base.theme.Styles;
import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.beans.binding.Bindings;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;

/**
 * The bar above the three-way view's texts: previous / next conflict hunk, which hunk shows and how many are left, the
 * choices for it (ours, theirs, both in either order, the proposed resolution), and on a line of its own its class and
 * why.
 */
final class HunkBar extends javafx.scene.layout.VBox {
    private final ThreeWayViewModel vm;

    HunkBar(ThreeWayViewModel vm) {
        this.vm = vm;
        Button prev = iconButton(MaterialDesignA.ARROW_UP, "Previous conflict (Shift+F7, Alt+Up)", vm::previous);
        prev.setId("threeway-previous");
        Button next = iconButton(MaterialDesignA.ARROW_DOWN, "Next conflict (F7, Alt+Down)", vm::next);
        next.setId("threeway-next");
        Label where = new Label();
        where.setId(ThreeWayView.HUNK_LABEL_ID);
        where.getStyleClass().add(Style.THREEWAY_HUNK);
        where.textProperty()
                .bind(Bindings.createStringBinding(
                        this::hunkText, vm.hunkProperty(), vm.unresolvedProperty(), vm.fileProperty()));
        where.setMinWidth(Region.USE_PREF_SIZE);
        Label why = new Label();
        why.setId("threeway-why");
        why.getStyleClass().add(Style.MUTED);
        why.textProperty().bind(Bindings.createStringBinding(this::whyText, vm.hunkProperty(), vm.fileProperty()));
        // Its own line under the buttons, wrapped: why a hunk needs a person is worth reading whole.
        why.setWrapText(true);
        why.setMaxWidth(Double.MAX_VALUE);
        why.setMinHeight(Region.USE_PREF_SIZE);
        why.setPadding(new javafx.geometry.Insets(0, 0, 0, 4));
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox row = new HBox(6);
        row.setAlignment(Pos.CENTER_LEFT);
        row.getChildren()
                .addAll(
                        prev,
                        next,
                        where,
                        gap,
                        choiceButton("Ours", HunkState.OURS, "Take ours' lines (Alt+O)", "threeway-take-ours"),
                        choiceButton("Theirs", HunkState.THEIRS, "Take theirs' lines (Alt+T)", "threeway-take-theirs"),
                        choiceButton(
                                "Ours + theirs",
                                HunkState.OURS_THEN_THEIRS,
                                "Ours' lines, then theirs' (Alt+B)",
                                "threeway-take-ours-theirs"),
                        choiceButton(
                                "Theirs + ours",
                                HunkState.THEIRS_THEN_OURS,
                                "Theirs' lines, then ours' (Alt+R)",
                                "threeway-take-theirs-ours"),
                        choiceButton(
                                "Apply proposed",
                                HunkState.PROPOSED,
                                "Apply the resolution proposed for this safe class (Alt+P)",
                                "threeway-take-proposed"));
        getChildren().addAll(row, why);
        setSpacing(2);
        getStyleClass().add(Style.THREEWAY_HUNKBAR);
    }

    private Button iconButton(Ikon icon, String tip, Runnable action) {
        Button b = new Button(null, Icons.of(icon));
        b.getStyleClass().add(Styles.BUTTON_ICON);
        b.setTooltip(new Tooltip(tip));
        b.setOnAction(e -> action.run());
        b.disableProperty().bind(vm.hunkProperty().lessThan(0));
        return b;
    }

    private Button choiceButton(String text, HunkState choice, String tip, String id) {
        Button b = new Button(text);
        b.setId(id);
        b.setTooltip(new Tooltip(tip));
        b.setMinWidth(Region.USE_PREF_SIZE);
        b.setOnAction(e -> vm.choose(choice));
        b.disableProperty()
                .bind(Bindings.createBooleanBinding(
                        () -> !vm.canChoose(choice),
                        vm.hunkProperty(),
                        vm.fileProperty(),
                        vm.busyProperty(),
                        vm.files(),
                        vm.progressProperty(),
                        vm.abortedProperty()));
        return b;
    }

    private String hunkText() {
        ConflictFile f = vm.fileProperty().get();
        if (f == null) {
            return "";
        }
        if (f.hunks().isEmpty()) {
            return f.kind().needsHuman() ? f.kind().id().replace('_', '/') + ": no hunks" : "No conflict hunks";
        }
        int h = vm.hunkProperty().get();
        return "Conflict " + (h + 1) + " of " + f.hunks().size() + " · "
                + vm.unresolvedProperty().get() + " unresolved";
    }

    private String whyText() {
        ConflictHunk h = vm.currentHunk();
        if (h == null) {
            return "";
        }
        HunkState c = vm.choice(h.index());
        return h.hunkClass().id().replace('_', ' ')
                + confidenceText(h)
                + (h.why() == null ? "" : ": " + h.why())
                + (c.isResolved() ? " · resolved: " + c.label() : "");
    }

    /** " · proposal 100% sure" for a safe hunk, " · suggestion 40% sure" for a person's, "" without either. */
    static String confidenceText(ConflictHunk h) {
        if (h.suggested() == null) {
            return "";
        }
        return (h.proposed() != null ? " · proposal " : " · suggestion ") + Math.round(h.confidence() * 100) + "% sure";
    }
}
