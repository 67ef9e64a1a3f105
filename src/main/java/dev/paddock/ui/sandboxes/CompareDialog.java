package dev.paddock.ui.sandboxes;

import atlantafx.base.theme.Styles;
import dev.paddock.compare.ComparisonColumns;
import dev.paddock.compare.MemberResult;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import dev.paddock.ui.theme.Theme;
import javafx.beans.binding.Bindings;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Window;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;

/**
 * The Compare view of a fan-out: one row per sandbox with the columns of {@link ComparisonColumns} (the table
 * {@code paddock sandbox compare} prints), read off the FX thread. Enter, a double click or Show details closes it
 * and selects that sandbox in the table with its details pane open; its result is that sandbox's id.
 */
public final class CompareDialog extends Dialog<String> {
    public static final ButtonType SHOW = new ButtonType("Show details", ButtonBar.ButtonData.OK_DONE);

    /** The width the columns want, in px. */
    static final double PREF_WIDTH = 1300;

    private final CompareViewModel vm;
    private final TableView<MemberResult> table = new TableView<>(null);

    public CompareDialog(CompareViewModel vm, Window owner) {
        this.vm = vm;
        setTitle("Compare " + vm.group());
        if (owner != null) {
            initOwner(owner);
        }
        setResizable(true);
        getDialogPane().setId("compare-dialog");
        getDialogPane().setUserData(this);
        getDialogPane().getStyleClass().addAll(Style.DIALOG, Style.DIALOG_WIDE);
        Theme.adopt(getDialogPane(), owner == null ? null : owner.getScene());
        // As wide as the columns want, within the screen (1366 px: every column still shows its header).
        double screen = javafx.stage.Screen.getPrimary().getVisualBounds().getWidth();
        getDialogPane().setPrefWidth(Math.min(PREF_WIDTH, screen - 40));

        Label summary = new Label();
        summary.setId("compare-summary");
        summary.textProperty().bind(vm.summaryProperty());
        summary.setMinWidth(0);
        summary.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(summary, Priority.ALWAYS);
        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(16, 16);
        spinner.visibleProperty().bind(vm.loadingProperty());
        Button refresh = new Button(null, Icons.of(MaterialDesignR.REFRESH, 16));
        refresh.setId("compare-refresh");
        refresh.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        refresh.setTooltip(new Tooltip("Read the sandboxes again (F5)"));
        refresh.setOnAction(e -> vm.load());
        HBox header = new HBox(8, summary, spinner, refresh);
        header.setAlignment(Pos.CENTER_LEFT);

        table.setId("compare-table");
        table.setItems(vm.members());
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY);
        table.setPlaceholder(new Label("Reading the group's sandboxes…"));
        table.setPrefHeight(260);
        for (ComparisonColumns.Column c : ComparisonColumns.ALL) {
            table.getColumns().add(column(c));
        }
        table.setRowFactory(t -> {
            TableRow<MemberResult> row = new TableRow<>();
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && CompareViewModel.canOpen(row.getItem())) {
                    open(row.getItem());
                }
            });
            return row;
        });
        table.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER
                    && CompareViewModel.canOpen(table.getSelectionModel().getSelectedItem())) {
                open(table.getSelectionModel().getSelectedItem());
                e.consume();
            }
        });
        getDialogPane().setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.F5) {
                vm.load();
            }
        });
        VBox.setVgrow(table, Priority.ALWAYS);

        ErrorBox error = new ErrorBox(null).bindTo(vm.errorProperty());
        error.setId("compare-error");
        Label hint = new Label("Lines, commits and files count what each branch made since the commit the group"
                + " started from. Enter or a double click shows a sandbox's details and changes.");
        hint.getStyleClass().add(Style.MUTED);
        hint.setWrapText(true);
        hint.setMinHeight(Region.USE_PREF_SIZE);
        getDialogPane().setContent(new VBox(8, header, error, table, hint));

        getDialogPane().getButtonTypes().addAll(SHOW, ButtonType.CLOSE);
        Button show = (Button) getDialogPane().lookupButton(SHOW);
        show.setId("compare-show");
        show.disableProperty()
                .bind(Bindings.createBooleanBinding(
                        () -> !CompareViewModel.canOpen(
                                table.getSelectionModel().getSelectedItem()),
                        table.getSelectionModel().selectedItemProperty()));
        setResultConverter(b -> b == SHOW && table.getSelectionModel().getSelectedItem() != null
                ? table.getSelectionModel().getSelectedItem().id()
                : null);
        setOnShown(e -> table.requestFocus());
    }

    /** The table (tests). */
    TableView<MemberResult> table() {
        return table;
    }

    private void open(MemberResult m) {
        setResult(m.id());
        close();
    }

    private TableColumn<MemberResult, MemberResult> column(ComparisonColumns.Column c) {
        boolean id = c.header().equals("ID");
        TableColumn<MemberResult, MemberResult> col = new TableColumn<>(id ? "Sandbox" : c.header());
        col.setId("compare-col-" + c.header().toLowerCase(java.util.Locale.ROOT));
        col.setCellValueFactory(f -> new javafx.beans.property.ReadOnlyObjectWrapper<>(f.getValue()));
        col.setSortable(false);
        Label head = new Label(col.getText());
        head.setTooltip(new Tooltip(c.help()));
        head.setMinWidth(Region.USE_PREF_SIZE);
        col.setGraphic(head);
        col.setText(null);
        col.setCellFactory(t -> new TableCell<>() {
            @Override
            protected void updateItem(MemberResult m, boolean empty) {
                super.updateItem(m, empty);
                getStyleClass().removeAll(Style.COMPARE_PASSED, Style.COMPARE_FAILED);
                setGraphic(null);
                setTooltip(null);
                if (empty || m == null) {
                    setText(null);
                    return;
                }
                if (c.header().equals("State")) {
                    setText(null);
                    setGraphic(StateChips.stateChip(m.state()));
                    return;
                }
                setText(id ? shortId(m) : c.of(m));
                if (id) {
                    setTooltip(new Tooltip(m.id() + "\n" + m.branch()));
                }
                if (c.header().equals("Tests") && m.testVerdict() != null) {
                    getStyleClass().add(Style.COMPARE_PREFIX + m.testVerdict());
                }
            }
        });
        if (c.numeric()) {
            col.setStyle("-fx-alignment: CENTER-RIGHT;");
        }
        col.setPrefWidth(
                switch (c.header()) {
                    case "ID" -> 132;
                    case "State" -> 128;
                    case "Lines" -> 92;
                    case "Tests" -> 76;
                    default -> c.numeric() ? 86 : 84;
                });
        col.setMinWidth(id ? 110 : 72);
        return col;
    }

    /** The part of a sandbox's id after its group's ({@code claude-2}); the whole id when it has no such start. */
    private String shortId(MemberResult m) {
        String prefix = vm.group() + "-";
        return m.id().startsWith(prefix) && m.id().length() > prefix.length()
                ? m.id().substring(prefix.length())
                : m.id();
    }
}
