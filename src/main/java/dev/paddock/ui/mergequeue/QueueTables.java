package dev.paddock.ui.mergequeue;

import dev.paddock.merge.MergeEntry;
import dev.paddock.ui.common.Columns;
import dev.paddock.ui.common.Formats;
import dev.paddock.ui.theme.Style;
import java.time.Instant;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ObservableList;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;

/**
 * The two tables of the merge queue tab: the queued entries (position, entry, branch, sandbox, waiting time, last
 * test, failed attempts, note) and the history (result chip, entry, branch, sandbox, result text, merge commit,
 * finished, duration, attempts). Times re-render with the view model's clock.
 */
final class QueueTables {
    /** Node ids, for tests. */
    static final String QUEUED_ID = "merge-queued-table";

    static final String HISTORY_ID = "merge-history-table";
    static final String REVIEW_ID = "merge-review-table";

    private QueueTables() {}

    /** The queued entries, position 1 first. */
    static TableView<QueueRow> queued(ObservableList<QueueRow> rows, ReadOnlyObjectProperty<Instant> now) {
        TableView<QueueRow> t = table(rows, QUEUED_ID);
        t.getColumns()
                .setAll(List.of(
                        fit(
                                text("Pos", "merge-col-position", r -> String.valueOf(r.position()), 44, 44),
                                "Position: the order the queue takes them (entries whose last test passed first)",
                                "99"),
                        fit(
                                text("Entry", "merge-col-id", r -> "#" + r.id(), 60, 60),
                                "The merge request's id",
                                "#9999"),
                        Columns.fit(branchAndSandbox(230), null, BRANCH_BOLD, BRANCH_SAMPLE),
                        fit(
                                ticking(
                                        "Waiting",
                                        "merge-col-waiting",
                                        now,
                                        (r, at) -> QueueText.span(
                                                r.entry().waitingSince() == null
                                                        ? null
                                                        : java.time.Duration.between(
                                                                r.entry().waitingSince(), at)),
                                        96),
                                "How long it has waited in the queue",
                                "59 min 59 s"),
                        fit(
                                text(
                                        "Last test",
                                        "merge-col-last-test",
                                        r -> QueueText.lastTest(
                                                r.entry().attempt().lastTestPassed()),
                                        78,
                                        78),
                                "Whether its last test run passed",
                                "not run"),
                        fit(
                                text(
                                        "Failed",
                                        "merge-col-attempts",
                                        r -> r.entry().attempt().attempts() + " of " + r.maxAttempts(),
                                        64,
                                        64),
                                "Failed attempts, of the most before it waits for a person",
                                "3 of 3"),
                        fit(
                                text(
                                        "Note",
                                        "merge-col-note",
                                        r -> r.entry().attempt().result() == null
                                                ? ""
                                                : r.entry().attempt().result(),
                                        240,
                                        80),
                                "What the queue last said about it (whole in the tooltip)",
                                "waits for")));
        Columns.install(t);
        return t;
    }

    /** The entries waiting for a person to review their policy change: entry, branch, commit, waiting time, note. */
    static TableView<QueueRow> review(ObservableList<QueueRow> rows, ReadOnlyObjectProperty<Instant> now) {
        TableView<QueueRow> t = table(rows, REVIEW_ID);
        t.getColumns()
                .setAll(List.of(
                        fit(
                                text("Entry", "merge-col-id", r -> "#" + r.id(), 60, 60),
                                "The merge request's id",
                                "#9999"),
                        Columns.fit(branchAndSandbox(230), null, BRANCH_BOLD, BRANCH_SAMPLE),
                        Columns.fit(
                                mono(text(
                                        "Commit",
                                        "merge-col-commit",
                                        r -> QueueText.shortCommit(
                                                r.entry().attempt().theirsCommit()),
                                        98,
                                        98)),
                                "The branch's commit under review",
                                14,
                                "0123456789"),
                        fit(
                                ticking(
                                        "Waiting",
                                        "merge-col-waiting",
                                        now,
                                        (r, at) -> QueueText.span(
                                                r.entry().attempt().stepStartedAt() == null
                                                        ? null
                                                        : java.time.Duration.between(
                                                                r.entry()
                                                                        .attempt()
                                                                        .stepStartedAt(),
                                                                at)),
                                        96),
                                "How long it has waited for your review",
                                "59 min 59 s"),
                        fit(
                                text(
                                        "Note",
                                        "merge-col-note",
                                        r -> r.entry().attempt().result() == null
                                                ? ""
                                                : r.entry().attempt().result(),
                                        300,
                                        80),
                                "What the queue last said about it (whole in the tooltip)",
                                "waits for")));
        Columns.install(t);
        return t;
    }

    /** Merged, failed, cancelled and conflicted entries, newest first. */
    static TableView<QueueRow> history(ObservableList<QueueRow> rows, ReadOnlyObjectProperty<Instant> now) {
        TableView<QueueRow> t = table(rows, HISTORY_ID);
        TableColumn<QueueRow, QueueRow> state = new TableColumn<>("Result");
        state.setId("merge-col-state");
        state.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        state.setPrefWidth(92);
        state.setMinWidth(92);
        state.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(QueueRow r, boolean empty) {
                super.updateItem(r, empty);
                setText(null);
                setGraphic(empty || r == null ? null : chip(r.entry()));
            }
        });
        Columns.fitChips(
                state,
                "How it ended: merged, failed, cancelled, or a conflict waiting for a person",
                "cancelled",
                "conflict");
        t.getColumns()
                .setAll(List.of(
                        state,
                        fit(
                                text("Entry", "merge-col-id", r -> "#" + r.id(), 60, 60),
                                "The merge request's id",
                                "#9999"),
                        // Its start may give way (the end shows): the details need the room more at 1366 px.
                        Columns.fit(branchAndSandbox(250), null, BRANCH_BOLD, HISTORY_BRANCH_SAMPLE),
                        fit(
                                wrapping(text(
                                        "Details",
                                        "merge-col-result",
                                        r -> r.entry().attempt().result() == null
                                                ? ""
                                                : r.entry().attempt().result(),
                                        230,
                                        90)),
                                "What happened (whole in the tooltip)",
                                DETAILS_LINE),
                        Columns.fit(
                                mono(text(
                                        "Commit",
                                        "merge-col-commit",
                                        r -> QueueText.shortCommit(
                                                r.entry().attempt().mergeCommit()),
                                        98,
                                        98)),
                                "The merge commit on base",
                                14,
                                "0123456789"),
                        fit(
                                ticking(
                                        "Finished",
                                        "merge-col-finished",
                                        now,
                                        (r, at) -> Formats.clock(finished(r.entry()), at),
                                        82),
                                "When it left the queue (the date when not today)",
                                "Dec 31 23:59"),
                        fit(
                                text(
                                        "Duration",
                                        "merge-col-duration",
                                        r -> QueueText.span(r.entry().elapsed(Instant.now())),
                                        96,
                                        90),
                                "How long its last attempt ran",
                                "59 min 59 s"),
                        fit(
                                text(
                                        "Attempts",
                                        "merge-col-attempts",
                                        r -> r.entry().attemptsMade() + " of " + r.maxAttempts(),
                                        88,
                                        88),
                                "Attempts made, of the most before it waits for a person",
                                "3 of 3")));
        Columns.install(t);
        return t;
    }

    /** When the entry left the queue's hands: finished, or (a conflict) when it left running. */
    static Instant finished(MergeEntry e) {
        MergeEntry.Attempt a = e.attempt();
        return a.finishedAt() != null ? a.finishedAt() : e.step() == null ? a.stepStartedAt() : null;
    }

    /** A coloured chip for an entry's state ("merged", "conflict"). */
    static Label chip(MergeEntry e) {
        Label chip = new Label(e.state().id());
        chip.getStyleClass().addAll(Style.CHIP, Style.STATE_PREFIX + e.state().id());
        chip.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        return chip;
    }

    /**
     * Branch (bold) over its sandbox id (muted, "no sandbox" for a branch a person enqueued): one column that takes
     * the width left, each line cut with an ellipsis and whole in the tooltip. Its cells' text is the branch.
     */
    /** A branch the branch column shows whole, and the room its bold type takes beyond the cell's usual text. */
    private static final String BRANCH_SAMPLE = "agent/fix-typos-readme";

    private static final double BRANCH_BOLD = 24;
    /** The history's branch column may cut a little more: its details need the room. */
    private static final String HISTORY_BRANCH_SAMPLE = "agent/fix-typos-rea";
    /** The wider line of a merge's details on two lines: "merged into main" over "as 0123456789ab". */
    private static final String DETAILS_LINE = "merged into main";

    private static TableColumn<QueueRow, QueueRow> branchAndSandbox(double width) {
        TableColumn<QueueRow, QueueRow> c = new TableColumn<>("Branch / sandbox");
        c.setId("merge-col-branch");
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        c.setPrefWidth(width);
        c.setMinWidth(120);
        c.setCellFactory(col -> new TableCell<>() {
            private final Label branch = new Label();
            private final Label sandbox = new Label();
            private final javafx.scene.layout.VBox box = new javafx.scene.layout.VBox(0, branch, sandbox);
            private final Tooltip tip = new Tooltip();

            {
                branch.getStyleClass().add(Style.MERGE_BRANCH);
                sandbox.getStyleClass().addAll(Style.MUTED, Style.MERGE_SANDBOX);
                branch.setMinWidth(0);
                // Branches share their start ("agent/"): when narrow the end, which tells them apart, shows.
                branch.setTextOverrun(javafx.scene.control.OverrunStyle.LEADING_ELLIPSIS);
                sandbox.setMinWidth(0);
                box.setMinWidth(0);
            }

            @Override
            protected void updateItem(QueueRow r, boolean empty) {
                super.updateItem(r, empty);
                if (empty || r == null) {
                    setText(null);
                    setGraphic(null);
                    setTooltip(null);
                    return;
                }
                String sb = r.entry().request().sandboxId() == null
                        ? "no sandbox"
                        : r.entry().request().sandboxId();
                branch.setText(r.entry().request().branch());
                sandbox.setText(sb);
                setText(null);
                setGraphic(box);
                tip.setText(r.entry().request().branch() + "\n" + sb);
                setTooltip(tip);
            }
        });
        return c;
    }

    /** The branch shown in a cell of {@link #branchAndSandbox} (for tests). */
    static String branchOf(TableCell<?, ?> cell) {
        return cell.getItem() instanceof QueueRow r ? r.entry().request().branch() : cell.getText();
    }

    private static TableView<QueueRow> table(ObservableList<QueueRow> rows, String id) {
        TableView<QueueRow> t = new TableView<>(rows);
        t.setId(id);
        t.getStyleClass().addAll(Style.TABLE, "striped");
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        t.setFixedCellSize(38); // two lines: branch over sandbox
        return t;
    }

    private static TableColumn<QueueRow, String> text(
            String title, String id, Function<QueueRow, String> text, double width, double min) {
        TableColumn<QueueRow, String> c = new TableColumn<>(title);
        c.setId(id);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(text.apply(f.getValue())));
        c.setPrefWidth(width);
        c.setMinWidth(min);
        c.setCellFactory(col -> new TableCell<>() {
            private final Tooltip tip = new Tooltip();

            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty ? null : s);
                tip.setText(s);
                setTooltip(empty || s == null || s.isEmpty() ? null : tip);
            }
        });
        return c;
    }

    /**
     * A text column whose cells wrap onto the row's two lines ("merged into main as" over the commit) before they
     * cut with an ellipsis; whole in the tooltip.
     */
    private static TableColumn<QueueRow, String> wrapping(TableColumn<QueueRow, String> c) {
        c.setCellFactory(col -> new TableCell<>() {
            private final Tooltip tip = new Tooltip();

            {
                setWrapText(true);
            }

            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty ? null : s);
                tip.setText(s);
                setTooltip(empty || s == null || s.isEmpty() ? null : tip);
            }
        });
        return c;
    }

    private static <T> TableColumn<QueueRow, T> fit(TableColumn<QueueRow, T> c, String tooltip, String... samples) {
        return Columns.fit(c, tooltip, 0, samples);
    }

    private static TableColumn<QueueRow, String> mono(TableColumn<QueueRow, String> c) {
        c.getStyleClass().add(Style.MONO_COLUMN);
        return c;
    }

    /** A column whose text depends on the clock: it re-renders whenever {@code now} changes. */
    private static TableColumn<QueueRow, String> ticking(
            String title,
            String id,
            ReadOnlyObjectProperty<Instant> now,
            BiFunction<QueueRow, Instant, String> text,
            double width) {
        TableColumn<QueueRow, String> c = new TableColumn<>(title);
        c.setId(id);
        c.setCellValueFactory(f -> {
            QueueRow r = f.getValue();
            return Bindings.createStringBinding(() -> text.apply(r, now.get()), now);
        });
        c.setPrefWidth(width);
        c.setMinWidth(width - 6);
        return c;
    }
}
