package dev.paddock.ui.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.ui.sandboxes.TranscriptRow.Kind;
import dev.paddock.ui.theme.Theme;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.collections.FXCollections;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ListView;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** A transcript row whose text wraps gets the height of all its lines: it never runs under the next row. */
@ExtendWith(ApplicationExtension.class)
class TranscriptCellWrapTest {
    private ListView<TranscriptRow> list;
    private List<TranscriptRow> rows;
    private Stage stage;

    @Start
    void start(Stage stage) {
        String folder = "/tmp/junit-8615007935366425810/panel/repo/.worktrees/count-forty-five-20261206-001-claude-1"
                + "/agent/count-forty-five-claude-1";
        rows = List.of(
                new TranscriptRow(
                        0,
                        Kind.MARKER,
                        "paddock",
                        "2026-12-06T13:23:10.825776759Z run 1 of"
                                + " count-forty-five-20261206-001-claude-1: exec '/usr/bin/claude' '-p' '--output-format'"
                                + " 'stream-json' '--verbose' '--session-id' '04463802-bfab-4bfe-b672-540ec45f64e5'",
                        null,
                        null,
                        false,
                        null,
                        false),
                new TranscriptRow(
                        1,
                        Kind.SESSION,
                        "session",
                        "Session 04463802-bfab-4bfe-b672-540ec45f64e5 ·" + " claude-opus-5-5 · " + folder,
                        null,
                        null,
                        false,
                        null,
                        false),
                new TranscriptRow(2, Kind.AGENT, "agent", "Running a command.", null, null, false, null, false));
        list = new ListView<>(FXCollections.observableArrayList());
        list.setCellFactory(v -> new TranscriptCell(i -> {}));
        Scene scene = new Scene(list, 1300, 400);
        Theme.LIGHT.apply(scene);
        stage.setScene(scene);
        stage.show();
        this.stage = stage;
    }

    @Test
    void wrappedRowsAreAsTallAsTheirLinesAndDoNotOverlap(FxRobot robot) throws Exception {
        // As in the panel: rows arrive one by one while the list shows, and the pane narrows afterwards.
        for (TranscriptRow r : rows) {
            WaitForAsyncUtils.asyncFx(() -> list.getItems().add(r)).get(5, TimeUnit.SECONDS);
            WaitForAsyncUtils.waitForFxEvents();
        }
        WaitForAsyncUtils.asyncFx(() -> stage.setWidth(900)).get(5, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> cells().size() == 3));
        List<TranscriptCell> cells = fx(this::cells);
        for (int i = 0; i < cells.size(); i++) {
            TranscriptCell c = cells.get(i);
            Node body = fx(() -> c.lookup("." + dev.paddock.ui.theme.Style.TRANSCRIPT_BODY));
            double shown = fx(() -> body.getLayoutBounds().getHeight());
            double needed = fx(() -> body.prefHeight(body.getLayoutBounds().getWidth()));
            assertThat(shown).as("row " + i + "'s text height at its width").isGreaterThanOrEqualTo(needed - 0.5);
            double bodyBottom =
                    fx(() -> body.localToScene(body.getLayoutBounds()).getMaxY());
            double cellBottom = fx(() -> c.localToScene(c.getLayoutBounds()).getMaxY());
            assertThat(bodyBottom).as("row " + i + "'s text inside its cell").isLessThanOrEqualTo(cellBottom + 0.5);
        }
        assertThat(fx(() -> cells.get(1).getHeight()))
                .as("the session row wraps onto a second line")
                .isGreaterThan(fx(() -> cells.get(2).getHeight()) + 5);
    }

    private List<TranscriptCell> cells() {
        List<TranscriptCell> out = new ArrayList<>();
        for (Node n : list.lookupAll(".list-cell")) {
            if (n instanceof TranscriptCell c && c.getItem() != null && c.isVisible()) {
                out.add(c);
            }
        }
        out.sort(java.util.Comparator.comparingInt(TranscriptCell::getIndex));
        return out;
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(10, TimeUnit.SECONDS);
    }
}
