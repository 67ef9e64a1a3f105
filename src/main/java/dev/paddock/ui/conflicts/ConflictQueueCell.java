package dev.paddock.ui.conflicts;

import dev.paddock.ui.common.Formats;
import dev.paddock.ui.theme.Style;
import java.time.Instant;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** One entry of the conflict queue: branch and sandbox, files, safe / human hunk counts and age. */
final class ConflictQueueCell extends ListCell<ConflictQueueRow> {
    private final ObservableValue<Instant> now;
    private final Label branch = new Label();
    private final Label age = new Label();
    private final Label sandbox = new Label();
    private final Label files = new Label();
    private final Label human = new Label();
    private final Label safe = new Label();
    private final VBox box;

    /** @param now the clock ages are shown against (re-renders when it ticks) */
    ConflictQueueCell(ObservableValue<Instant> now) {
        this.now = now;
        getStyleClass().add(Style.CONFLICT_CELL);
        branch.getStyleClass().add(Style.CONFLICT_BRANCH);
        branch.setStyle("-fx-font-weight: bold;");
        for (Label l : new Label[] {age, sandbox, files}) {
            l.getStyleClass().add(Style.MUTED);
        }
        human.getStyleClass().add(Style.CONFLICT_HUMAN);
        safe.getStyleClass().add(Style.CONFLICT_SAFE);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox top = new HBox(6, branch, spacer, age);
        top.setAlignment(Pos.CENTER_LEFT);
        HBox bottom = new HBox(10, sandbox, files, human, safe);
        // The cell is as wide as the queue: a long branch or sandbox id loses its middle (whole in the tooltip),
        // the counts and the age keep their width.
        for (Label l : new Label[] {branch, sandbox}) {
            l.setMinWidth(0);
            l.setTextOverrun(javafx.scene.control.OverrunStyle.CENTER_ELLIPSIS);
        }
        for (Label l : new Label[] {age, files, human, safe}) {
            l.setMinWidth(Region.USE_PREF_SIZE);
        }
        box = new VBox(2, top, bottom);
        box.setMinWidth(0);
        setPrefWidth(0);
        now.addListener((o, a, n) -> showAge());
    }

    @Override
    protected void updateItem(ConflictQueueRow r, boolean empty) {
        super.updateItem(r, empty);
        setText(null);
        if (empty || r == null) {
            setGraphic(null);
            return;
        }
        branch.setText(r.branch());
        sandbox.setText(r.sandboxId());
        setTooltip(new javafx.scene.control.Tooltip(r.branch() + "\n" + r.sandboxId()));
        files.setText(r.files() + (r.files() == 1 ? " file" : " files"));
        human.setText(r.humanHunks() + " human");
        safe.setText(r.safeHunks() + " safe");
        showAge();
        setGraphic(box);
    }

    private void showAge() {
        ConflictQueueRow r = getItem();
        if (r != null && now.getValue() != null) {
            age.setText(Formats.ago(r.since(), now.getValue()));
        }
    }
}
