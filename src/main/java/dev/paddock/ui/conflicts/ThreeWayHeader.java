package dev.paddock.ui.conflicts;

import atlantafx.base.theme.Styles;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.beans.binding.BooleanBinding;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignU;

/**
 * The header of the three-way view: what is merged, what the last command did, and the commands on the whole file
 * or merge (Abort, Unresolve, Mark resolved). Once nothing is left to do here (merged, or ended elsewhere) it says so
 * and offers only Close.
 */
final class ThreeWayHeader extends HBox {
    /** Node ids, for tests and styling. */
    static final String UNRESOLVE_ID = "threeway-unresolve";

    static final String CLOSE_ID = "threeway-close";
    static final String STATUS_ID = "threeway-status";

    /** What the header's buttons do (the view asks first where it must). */
    interface Commands {
        void markResolved();

        void unresolve();

        void abort();

        void close();
    }

    private final ThreeWayViewModel vm;

    /**
     * @param over        whether nothing more can be done here (merged, aborted, ended elsewhere)
     * @param currentDone whether the file shown is resolved
     */
    ThreeWayHeader(ThreeWayViewModel vm, BooleanBinding over, BooleanBinding currentDone, Commands commands) {
        this.vm = vm;
        Label title = new Label(null, Icons.of(org.kordamp.ikonli.materialdesign2.MaterialDesignS.SOURCE_MERGE, 20));
        title.getStyleClass().add(Style.THREEWAY_TITLE);
        title.textProperty().bind(vm.reportProperty().map(this::titleOf).orElse("Reading the conflicts…"));
        title.setTooltip(new Tooltip());
        title.getTooltip()
                .textProperty()
                .bind(vm.reportProperty().map(this::detailsOf).orElse(""));
        Label status = new Label();
        status.setId(STATUS_ID);
        status.getStyleClass().add(Style.MUTED);
        status.textProperty().bind(vm.statusProperty());
        status.setMinWidth(0);
        HBox.setHgrow(status, Priority.ALWAYS);
        status.setMaxWidth(Double.MAX_VALUE);
        Tooltip statusTip = new Tooltip();
        statusTip.textProperty().bind(status.textProperty());
        status.setTooltip(statusTip);
        ProgressIndicator progress = new ProgressIndicator();
        progress.setPrefSize(20, 20);
        progress.visibleProperty()
                .bind(vm.busyProperty()
                        .or(javafx.beans.binding.Bindings.createBooleanBinding(
                                () -> vm.progressProperty().get().stage() == ConflictBackend.Stage.FINISHING,
                                vm.progressProperty())));

        Button abort = new Button("Abort merge…", Icons.of(MaterialDesignC.CLOSE_OCTAGON_OUTLINE));
        abort.setId(ThreeWayView.ABORT_ID);
        abort.getStyleClass().add(Styles.DANGER);
        abort.setTooltip(new Tooltip("Abandon this merge: everything is restored as it was before it started"));
        abort.disableProperty()
                .bind(vm.busyProperty()
                        .or(vm.finishedProperty())
                        .or(over)
                        .or(vm.reportProperty().isNull()));
        abort.setOnAction(e -> commands.abort());
        Button unresolve = new Button("Unresolve", Icons.of(MaterialDesignU.UNDO_VARIANT));
        unresolve.setId(UNRESOLVE_ID);
        unresolve.setTooltip(new Tooltip("Reopen this resolved file to change its result (Ctrl+U)"));
        unresolve
                .disableProperty()
                .bind(javafx.beans.binding.Bindings.createBooleanBinding(
                        () -> !vm.canUnresolve(),
                        vm.busyProperty(),
                        vm.fileIndexProperty(),
                        vm.files(),
                        vm.progressProperty(),
                        over));
        unresolve.setOnAction(e -> commands.unresolve());
        Button mark = new Button("Mark resolved", Icons.of(MaterialDesignC.CHECK_BOLD));
        mark.setId(ThreeWayView.MARK_ID);
        mark.getStyleClass().add(Styles.ACCENT);
        mark.setTooltip(new Tooltip("Hand this file's result to the merge queue (Ctrl+S or Ctrl+Enter)"));
        mark.disableProperty()
                .bind(vm.busyProperty()
                        .or(vm.fileProperty().isNull())
                        .or(currentDone)
                        .or(over));
        mark.setOnAction(e -> commands.markResolved());
        // While the file shown is resolved, Unresolve takes Mark resolved's place.
        unresolve.visibleProperty().bind(currentDone.and(over.not()));
        unresolve.managedProperty().bind(unresolve.visibleProperty());
        mark.visibleProperty().bind(currentDone.not().and(over.not()));
        mark.managedProperty().bind(mark.visibleProperty());
        abort.visibleProperty().bind(over.not());
        abort.managedProperty().bind(abort.visibleProperty());
        Button close = new Button("Close", Icons.of(MaterialDesignC.CHECK_CIRCLE_OUTLINE));
        close.setId(CLOSE_ID);
        close.getStyleClass().add(Styles.ACCENT);
        close.setDefaultButton(true);
        close.setCancelButton(true);
        close.setTooltip(new Tooltip("Close this window (Ctrl+W)"));
        close.visibleProperty().bind(over);
        close.managedProperty().bind(close.visibleProperty());
        close.setOnAction(e -> commands.close());
        over.addListener((o, was, now) -> {
            getStyleClass().remove(Style.THREEWAY_MERGED);
            if (now && vm.progressProperty().get().stage() == ConflictBackend.Stage.MERGED) {
                getStyleClass().add(Style.THREEWAY_MERGED);
            }
            if (now) {
                javafx.application.Platform.runLater(close::requestFocus);
            }
        });
        // The buttons keep their labels; the title and the status give way (ellipsis, full text in a tooltip).
        for (Button b : new Button[] {abort, unresolve, mark, close}) {
            b.setMinWidth(Region.USE_PREF_SIZE);
        }
        title.setMinWidth(0);
        getChildren().addAll(title, status, progress, abort, unresolve, mark, close);
        setSpacing(10);
        setAlignment(Pos.CENTER_LEFT);
        getStyleClass().add(Style.THREEWAY_HEADER);
    }

    private String titleOf(ConflictReport r) {
        return "Merge #" + vm.mergeRequestId() + ": theirs " + shortId(r.theirs()) + " into ours " + shortId(r.ours());
    }

    private String detailsOf(ConflictReport r) {
        return "Merge request #" + vm.mergeRequestId() + "\ntheirs (the agent's branch): " + r.theirs()
                + "\nours (the base branch): " + r.ours() + "\nbase: "
                + (r.base() == null ? "none (unrelated histories)" : r.base());
    }

    static String shortId(String id) {
        return id == null ? "?" : id.substring(0, Math.min(8, id.length()));
    }
}
