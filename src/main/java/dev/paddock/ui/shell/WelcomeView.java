package dev.paddock.ui.shell;

import atlantafx.base.theme.Styles;
import dev.paddock.repo.RepoRecord;
import dev.paddock.ui.common.Formats;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import java.time.Instant;
import java.util.function.Consumer;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;

/**
 * Shown when no repository is open: why (if opening one failed), a button that asks for a folder,
 * and the recently opened repositories.
 */
final class WelcomeView extends VBox {
    static final String ID = "welcome";

    WelcomeView(ShellViewModel vm, Runnable chooseFolder, Consumer<RepoRecord> openRecent) {
        super(14);
        setId(ID);
        getStyleClass().add(Style.WELCOME);
        setAlignment(Pos.TOP_CENTER);
        setFillWidth(false);

        Label title = new Label("Open a repository");
        title.getStyleClass().add(Style.WELCOME_TITLE);
        Label text = new Label("Paddock shows one git repository at a time: its worktrees, the sandboxes of your"
                + " agents, their approvals and merges. Choose the folder of a repository to start; the ones you"
                + " open are listed below and in the switcher at the top.");
        text.setWrapText(true);
        text.setMaxWidth(560);
        text.getStyleClass().add(Style.WELCOME_TEXT);

        Label error = new Label(null, Icons.of(MaterialDesignA.ALERT_CIRCLE_OUTLINE));
        error.setId("open-error");
        error.getStyleClass().add(Style.PROBLEM);
        error.setWrapText(true);
        error.setMaxWidth(560);
        error.textProperty().bind(vm.openErrorProperty());
        error.visibleProperty().bind(vm.openErrorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());

        Button open = new Button("Open repository…", Icons.of(MaterialDesignF.FOLDER_OPEN_OUTLINE));
        open.setId("open-repository");
        open.getStyleClass().add(Styles.ACCENT);
        open.setDefaultButton(true);
        open.disableProperty().bind(vm.busyProperty());
        open.setOnAction(e -> chooseFolder.run());

        Label recentTitle = new Label("Recent repositories");
        recentTitle.getStyleClass().add(Style.WELCOME_SUBTITLE);
        ListView<RepoRecord> recent = new ListView<>(vm.recents());
        recent.setId("recent-repositories");
        recent.setPrefSize(560, 260);
        recent.setFixedCellSize(36);
        recent.setPlaceholder(new Label("Repositories you open are remembered here."));
        recent.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(RepoRecord r, boolean empty) {
                super.updateItem(r, empty);
                if (empty || r == null) {
                    setText(null);
                    setGraphic(null);
                    return;
                }
                setText(r.name() + "   " + r.path() + "   · opened " + Formats.ago(r.lastOpenedAt(), Instant.now()));
                setGraphic(Icons.of(MaterialDesignF.FOLDER_OUTLINE));
            }
        });
        recent.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2 && recent.getSelectionModel().getSelectedItem() != null) {
                openRecent.accept(recent.getSelectionModel().getSelectedItem());
            }
        });
        recent.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER && recent.getSelectionModel().getSelectedItem() != null) {
                openRecent.accept(recent.getSelectionModel().getSelectedItem());
            }
        });
        getChildren()
                .addAll(
                        Icons.of(org.kordamp.ikonli.materialdesign2.MaterialDesignS.SOURCE_BRANCH, 48),
                        title,
                        text,
                        error,
                        open,
                        recentTitle,
                        recent);
    }
}
