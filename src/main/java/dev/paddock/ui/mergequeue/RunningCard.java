package dev.paddock.ui.mergequeue;

import atlantafx.base.theme.Styles;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeStep;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import java.time.Instant;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;
import org.kordamp.ikonli.materialdesign2.MaterialDesignT;

/**
 * The entry being merged, on top of the merge queue tab: its step as a chip (updating, testing, merging), branch,
 * sandbox, entry and attempt ("attempt 1 of 3"), the time in the step and in all (ticking each second), and its own
 * Cancel and Test log buttons. Says "Nothing is being merged" while the queue is idle. A click selects the entry.
 */
final class RunningCard extends HBox {
    /** Node ids, for tests. */
    static final String ID = "merge-running";

    static final String STEP_ID = "merge-running-step";
    static final String BRANCH_ID = "merge-running-branch";
    static final String META_ID = "merge-running-meta";
    static final String STEP_TIME_ID = "merge-running-step-time";
    static final String TOTAL_TIME_ID = "merge-running-total";
    static final String CANCEL_ID = "merge-running-cancel";
    static final String LOG_ID = "merge-running-log";
    static final String IDLE_ID = "merge-running-idle";
    static final String ATTEMPT_ID = "merge-running-attempt";

    private final MergeQueueViewModel vm;
    private final Label step = new Label();
    private final Label branch = new Label();
    private final Label meta = new Label();
    private final Label stepTime = new Label();
    private final Label total = new Label();
    private final Label attempt = new Label();
    private final Label idle = new Label("Nothing is being merged now.");
    private final HBox details;

    RunningCard(MergeQueueViewModel vm) {
        super(14);
        this.vm = vm;
        setId(ID);
        getStyleClass().add(Style.MERGE_RUNNING);
        setAlignment(Pos.CENTER_LEFT);

        step.setId(STEP_ID);
        step.setMinWidth(Region.USE_PREF_SIZE);
        branch.setId(BRANCH_ID);
        branch.getStyleClass().add(Style.MERGE_RUNNING_BRANCH);
        branch.setMinWidth(60);
        meta.setId(META_ID);
        meta.getStyleClass().add(Style.MUTED);
        meta.setMinWidth(60);
        javafx.scene.control.Tooltip metaTip = new javafx.scene.control.Tooltip();
        metaTip.textProperty().bind(meta.textProperty());
        meta.setTooltip(metaTip); // whole when the card is narrow
        VBox who = new VBox(2, branch, meta);
        who.setMinWidth(0);
        HBox.setHgrow(who, Priority.ALWAYS);

        stepTime.setId(STEP_TIME_ID);
        stepTime.getStyleClass().add(Style.MERGE_TIME);
        stepTime.setMinWidth(Region.USE_PREF_SIZE);
        total.setId(TOTAL_TIME_ID);
        total.getStyleClass().add(Style.MUTED);
        total.setMinWidth(Region.USE_PREF_SIZE);
        attempt.setId(ATTEMPT_ID);
        attempt.getStyleClass().add(Style.MUTED);
        attempt.setMinWidth(Region.USE_PREF_SIZE);
        HBox totalLine = new HBox(0, total, attempt);
        totalLine.setAlignment(Pos.CENTER_RIGHT);
        VBox times = new VBox(0, stepTime, totalLine);
        times.setAlignment(Pos.CENTER_RIGHT);
        times.setMinWidth(Region.USE_PREF_SIZE);

        Button cancel = new Button("Cancel", Icons.of(MaterialDesignC.CLOSE_CIRCLE_OUTLINE, 16));
        cancel.setId(CANCEL_ID);
        cancel.setTooltip(
                new Tooltip("Stop this merge before it moves base: the test is killed, base stays as it was"));
        cancel.setOnAction(e -> vm.cancel(vm.runningProperty().get()));
        cancel.setMinWidth(Region.USE_PREF_SIZE);
        Button log = new Button("Test log", Icons.of(MaterialDesignF.FILE_DOCUMENT_OUTLINE, 16));
        log.setId(LOG_ID);
        log.getStyleClass().add(Styles.FLAT);
        log.setTooltip(new Tooltip("Open the test command's output in the desktop's application"));
        log.setOnAction(e -> vm.openLog(vm.runningProperty().get()));
        log.disableProperty()
                .bind(vm.runningProperty()
                        .map(QueueRow::hasTestLog)
                        .orElse(false)
                        .map(b -> !b));
        log.setMinWidth(Region.USE_PREF_SIZE);

        details = new HBox(14, step, who, times, cancel, log);
        details.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(details, Priority.ALWAYS);
        idle.setId(IDLE_ID);
        idle.getStyleClass().add(Style.MUTED);
        idle.setGraphic(Icons.of(MaterialDesignS.SLEEP, 16));
        getChildren().addAll(idle, details);

        setOnMouseClicked(e -> {
            QueueRow r = vm.runningProperty().get();
            if (r != null) {
                vm.select(r.id());
            }
        });
        vm.runningProperty().addListener((o, a, b) -> show());
        vm.nowProperty().addListener((o, a, b) -> showTimes());
        vm.selectedProperty().addListener((o, a, b) -> showSelected());
        show();
    }

    private void show() {
        QueueRow r = vm.runningProperty().get();
        idle.setVisible(r == null);
        idle.setManaged(r == null);
        details.setVisible(r != null);
        details.setManaged(r != null);
        if (r == null) {
            showSelected();
            return;
        }
        MergeEntry e = r.entry();
        MergeStep s = e.step();
        String name = s == null ? "starting" : s.id();
        step.setText(name);
        step.setGraphic(Icons.of(icon(s), 14));
        step.getStyleClass().setAll("label", Style.CHIP, Style.STEP, Style.STEP_PREFIX + name);
        MergeEntry.Request req = e.request();
        branch.setText(req.branch());
        meta.setText(
                "entry #" + e.id() + "  ·  " + (req.sandboxId() == null ? "no sandbox" : "sandbox " + req.sandboxId())
                        + "  ·  " + req.strategy().id() + " strategy");
        attempt.setText("  ·  " + QueueText.attemptOf(e, r.maxAttempts()));
        showTimes();
        showSelected();
    }

    private void showTimes() {
        QueueRow r = vm.runningProperty().get();
        if (r == null) {
            return;
        }
        Instant now = vm.nowProperty().get();
        MergeEntry e = r.entry();
        String name = e.step() == null ? "starting" : e.step().id();
        stepTime.setText(QueueText.duration(e.stepElapsed(now)) + " " + name);
        total.setText(QueueText.duration(e.elapsed(now)) + " in all");
    }

    private void showSelected() {
        QueueRow r = vm.runningProperty().get();
        QueueRow sel = vm.selectedProperty().get();
        boolean selected = r != null && sel != null && sel.id() == r.id();
        pseudoClassStateChanged(javafx.css.PseudoClass.getPseudoClass("selected"), selected);
    }

    private static Ikon icon(MergeStep s) {
        if (s == null) {
            return MaterialDesignS.SYNC;
        }
        return switch (s) {
            case UPDATING -> MaterialDesignS.SOURCE_BRANCH_SYNC;
            case TESTING -> MaterialDesignT.TEST_TUBE;
            case MERGING -> MaterialDesignS.SOURCE_MERGE;
        };
    }
}
