package dev.paddock.ui.sandboxes;

import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.sandboxes.SandboxDetailsViewModel.Section;
import dev.paddock.ui.theme.Style;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;
import org.kordamp.ikonli.materialdesign2.MaterialDesignH;
import org.kordamp.ikonli.materialdesign2.MaterialDesignM;
import org.kordamp.ikonli.materialdesign2.MaterialDesignT;

/**
 * The details pane's tabs — Transcript, Log, History, Changes, Checkpoints — with the transcript's summary at the
 * right of their names' row while the Transcript shows. A sandbox whose agent is a preset (Claude Code, Codex, ...)
 * opens on its Transcript, first; a custom command's on its Log, first; a person's choice of another tab stays.
 * The tab shown sets the view model's {@link Section}.
 */
final class DetailsTabs extends StackPane {
    private final TabPane tabs = new TabPane();
    private final Tab transcriptTab;
    private final Tab logTab;
    private String shownId;

    DetailsTabs(
            SandboxDetailsViewModel vm,
            TranscriptPane transcript,
            Node log,
            Node history,
            Node changes,
            Node checkpoints) {
        transcriptTab = tab(
                "Transcript",
                "details-tab-transcript",
                MaterialDesignM.MESSAGE_TEXT_OUTLINE,
                transcript,
                Section.TRANSCRIPT);
        logTab = tab("Log", "details-tab-log", MaterialDesignT.TEXT_BOX_OUTLINE, log, Section.LOG);
        tabs.getTabs()
                .setAll(
                        logTab,
                        transcriptTab,
                        tab("History", "details-tab-history", MaterialDesignH.HISTORY, history, Section.HISTORY),
                        tab("Changes", "details-tab-changes", MaterialDesignF.FILE_COMPARE, changes, Section.CHANGES),
                        tab(
                                "Checkpoints",
                                "details-tab-checkpoints",
                                MaterialDesignH.HISTORY,
                                checkpoints,
                                Section.CHECKPOINTS));
        tabs.setId("sandbox-details-tabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.getStyleClass().addAll(Style.DETAILS_TABS, "dense");
        tabs.getSelectionModel().selectedItemProperty().addListener((o, a, t) -> {
            if (t != null) {
                vm.sectionProperty().set((Section) t.getUserData());
            }
        });

        HBox summary = transcript.summaryBar();
        getChildren().addAll(tabs, summary);
        StackPane.setAlignment(summary, Pos.TOP_RIGHT);
        StackPane.setMargin(summary, new Insets(4, 6, 0, 0));
        summary.setMaxHeight(Region.USE_PREF_SIZE);
        summary.visibleProperty()
                .bind(tabs.getSelectionModel().selectedItemProperty().isEqualTo(transcriptTab));
        // As wide as the row leaves beside the tabs' names.
        tabs.skinProperty().addListener((o, a, skin) -> {
            Region names = (Region) tabs.lookup(".headers-region");
            if (names != null) {
                summary.maxWidthProperty()
                        .bind(widthProperty().subtract(names.widthProperty()).subtract(24));
            }
        });
    }

    private static Tab tab(String name, String id, Ikon icon, Node content, Section section) {
        Tab t = new Tab(name, content);
        t.setId(id);
        t.setGraphic(Icons.of(icon, 14));
        t.setUserData(section);
        return t;
    }

    /** Shows the tab of {@code section} (a sandbox shown next keeps it: it is not one a sandbox opens on). */
    void select(Section section) {
        tabs.getTabs().stream()
                .filter(t -> t.getUserData() == section)
                .findFirst()
                .ifPresent(t -> tabs.getSelectionModel().select(t));
    }

    /** Puts the tab a sandbox opens on first and shows it, when another sandbox is shown. */
    void show(RepositoryStatus.Sandbox s) {
        String id = s == null ? null : s.id();
        if (Objects.equals(id, shownId)) {
            return;
        }
        shownId = id;
        if (s == null) {
            return;
        }
        boolean agent = s.agent() != null && !s.agent().isBlank() && !s.agent().equals("custom");
        Tab first = agent ? transcriptTab : logTab;
        Tab second = agent ? logTab : transcriptTab;
        Tab selected = tabs.getSelectionModel().getSelectedItem();
        boolean onDefault = selected == null || selected == transcriptTab || selected == logTab;
        if (tabs.getTabs().get(0) != first) {
            List<Tab> order = new ArrayList<>(tabs.getTabs());
            order.remove(first);
            order.remove(second);
            order.add(0, second);
            order.add(0, first);
            tabs.getTabs().setAll(order);
        }
        tabs.getSelectionModel().select(onDefault ? first : selected);
    }
}
