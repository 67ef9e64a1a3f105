package dev.paddock.ui.dashboard;

import dev.paddock.status.RepositoryStatus.Worktree;
import dev.paddock.ui.common.Columns;
import dev.paddock.ui.common.EmptyState;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ObservableList;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignH;
import org.kordamp.ikonli.materialdesign2.MaterialDesignL;
import org.kordamp.ikonli.materialdesign2.MaterialDesignP;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/** The worktrees of the repository: one row per worktree git knows of, main first. */
final class WorktreeTable extends TableView<Worktree> {
    /** Node id, for tests and styling. */
    static final String ID = "worktree-table";

    private static final String CHIP_ROWS = Style.STATE_CHIP_ROWS;
    private static final double CHIP_GAP = 6;

    WorktreeTable(ObservableList<Worktree> rows) {
        super(rows);
        setId(ID);
        getStyleClass().addAll(Style.TABLE, "striped", "dense"); // rows of 2em: more of them at 768 px
        setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        setPlaceholder(new EmptyState(
                MaterialDesignS.SOURCE_BRANCH,
                "No worktrees listed yet",
                "Every worktree of the repository appears here: the main one and each linked worktree"
                        + " (git worktree add), with its branch, head commit and whether it is dirty."));

        TableColumn<Worktree, Worktree> path = column("Worktree", w -> w, 290);
        path.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(Worktree w, boolean empty) {
                super.updateItem(w, empty);
                if (empty || w == null) {
                    setGraphic(null);
                    setText(null);
                    return;
                }
                setText(w.main() ? w.name() + "  (main)" : w.name());
                setGraphic(Icons.of(w.main() ? MaterialDesignH.HOME_OUTLINE : MaterialDesignS.SOURCE_BRANCH));
                setTooltip(new Tooltip(w.path()));
            }
        });

        TableColumn<Worktree, Worktree> branch = column("Branch", w -> w, 200);
        branch.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(Worktree w, boolean empty) {
                super.updateItem(w, empty);
                getStyleClass().remove(Style.MUTED);
                if (empty || w == null) {
                    setText(null);
                    return;
                }
                if (w.branch() != null) {
                    setText(w.branch());
                } else {
                    setText(w.detached() ? "detached HEAD" : "no branch");
                    getStyleClass().add(Style.MUTED);
                }
            }
        });

        TableColumn<Worktree, String> head =
                column("Head", w -> w.head() == null ? "" : w.head().substring(0, 8), 90);
        head.setMinWidth(90);
        head.getStyleClass().add(Style.MONO_COLUMN);

        TableColumn<Worktree, String> subject = column("Last commit", w -> w.subject() == null ? "" : w.subject(), 230);

        TableColumn<Worktree, Worktree> state = column("State", w -> w, 170);
        state.setMinWidth(160);
        state.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(Worktree w, boolean empty) {
                super.updateItem(w, empty);
                setText(null);
                if (empty || w == null) {
                    setGraphic(null);
                    return;
                }
                HBox box = new HBox(CHIP_GAP);
                box.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
                box.getChildren()
                        .add(
                                w.missing()
                                        ? chip(
                                                "folder missing",
                                                Style.CHIP_DANGER,
                                                MaterialDesignA.ALERT_OUTLINE,
                                                "The folder " + w.path() + " is not on disk; git still lists"
                                                        + " the worktree"
                                                        + (w.locked() ? " (it is locked, so git keeps it)" : ""))
                                        : dirtyChip(w));
                if (w.locked()) {
                    box.getChildren()
                            .add(chip(
                                    "locked",
                                    Style.CHIP_WARNING,
                                    MaterialDesignL.LOCK_OUTLINE,
                                    w.lockedReason() == null || w.lockedReason().isEmpty()
                                            ? "Locked (git worktree lock)"
                                            : "Locked: " + w.lockedReason()));
                }
                if (w.prunable()) {
                    box.getChildren()
                            .add(chip(
                                    "prunable",
                                    Style.CHIP_DANGER,
                                    MaterialDesignA.ALERT_OUTLINE,
                                    "git worktree prune would remove it: " + w.prunableReason()));
                }
                setGraphic(box);
            }
        });

        getColumns().setAll(java.util.List.of(path, branch, state, head, subject));
        Columns.fit(path, "The worktree's folder (whole path in the tooltip)", 20, "agent-fix-login");
        Columns.fit(branch, "The branch checked out there", 0, "agent/fix-login");
        fitState(state, rows);
        rows.addListener((javafx.collections.ListChangeListener<Worktree>) c -> {
            if (fitState(state, rows) && getSkin() != null) {
                Columns.apply(this);
            }
        });
        Columns.fit(head, "The commit checked out", 14, "01234567");
        Columns.fit(subject, "The subject of that commit", 0, "Fix the");
        Columns.install(this);
    }

    /**
     * The State column fits the widest row of chips shown ("folder missing" with "locked", say), at least
     * "12 changes".
     *
     * @return whether that row changed
     */
    private static boolean fitState(TableColumn<Worktree, Worktree> state, java.util.List<Worktree> rows) {
        java.util.Set<java.util.List<String>> shown = new java.util.LinkedHashSet<>();
        shown.add(java.util.List.of("12 changes"));
        for (Worktree w : rows) {
            shown.add(chipTexts(w));
        }
        java.util.List<java.util.List<String>> list = java.util.List.copyOf(shown);
        if (list.equals(state.getProperties().get(CHIP_ROWS))) {
            return false;
        }
        state.getProperties().put(CHIP_ROWS, list);
        Columns.fitChipRows(state, "Clean, or how many files changed; locked; prunable", CHIP_GAP, list);
        return true;
    }

    /** The texts of the chips a row's State cell shows. */
    static java.util.List<String> chipTexts(Worktree w) {
        java.util.List<String> texts = new java.util.ArrayList<>();
        texts.add(w.missing() ? "folder missing" : dirtyChip(w).getText());
        if (w.locked()) {
            texts.add("locked");
        }
        if (w.prunable()) {
            texts.add("prunable");
        }
        return texts;
    }

    private static Label dirtyChip(Worktree w) {
        if (w.dirty() == null) {
            return chip("checking", Style.CHIP_MUTED, MaterialDesignP.PROGRESS_CLOCK, "Dirty state not known yet");
        }
        if (w.dirty()) {
            String n = w.changedFiles() + (w.changedFiles() == 1 ? " change" : " changes");
            return chip(
                    n,
                    Style.CHIP_ACCENT,
                    MaterialDesignP.PENCIL_OUTLINE,
                    "Uncommitted changes or untracked files (git status)");
        }
        return chip("clean", Style.CHIP_SUCCESS, MaterialDesignC.CHECK, "Nothing to commit");
    }

    private static Label chip(String text, String style, org.kordamp.ikonli.Ikon icon, String tip) {
        Label l = new Label(text, Icons.of(icon, 12));
        l.getStyleClass().addAll(Style.CHIP, style);
        l.setMinWidth(Region.USE_PREF_SIZE);
        l.setTooltip(new Tooltip(tip));
        return l;
    }

    private static <T> TableColumn<Worktree, T> column(String title, Function<Worktree, T> value, double width) {
        TableColumn<Worktree, T> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(value.apply(f.getValue())));
        c.setPrefWidth(width);
        return c;
    }
}
