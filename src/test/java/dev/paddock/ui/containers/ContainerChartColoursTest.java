package dev.paddock.ui.containers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.container.ContainerMetrics;
import dev.paddock.container.ContainerMetricsBoard;
import dev.paddock.ui.theme.Theme;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Region;
import javafx.scene.paint.Paint;
import javafx.scene.shape.Path;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The containers tab at 1366×768 fed by a real metrics board: two sandboxes that rank in opposite orders for CPU
 * and for memory keep one colour each in both charts and both legends, and no time label is cut at a chart's edge.
 */
@ExtendWith(ApplicationExtension.class)
class ContainerChartColoursTest {
    private static final long MIB = 1024 * 1024;

    private Stage stage;
    private final ContainersViewModel vm = new ContainersViewModel();
    private final ContainerMetricsBoard board = new ContainerMetricsBoard(Clock.systemUTC());

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void show() throws Exception {
        Instant now = Instant.now();
        // ctr-busy: high CPU, low memory; ctr-live: the other way round.
        board.update(new ContainerMetrics("ctr-busy", "b46b9a3f8fb1", 36, 73, 18, MIB / 2, 4096 * MIB, now, true));
        board.update(new ContainerMetrics("ctr-live", "08c7f2f63da0", 0.5, 1, 0.2, 200 * MIB, 512 * MIB, now, true));
        fx(() -> {
            vm.connect(board);
            ContainersView view = new ContainersView(vm);
            Scene scene = new Scene(view, 1366, 768);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
            return null;
        });
        WaitForAsyncUtils.waitFor(
                20,
                TimeUnit.SECONDS,
                () -> fx(() -> lines(ContainersView.CPU_CHART_ID) == 2
                        && lines(ContainersView.MEMORY_CHART_ID) == 2
                        && legend(ContainersView.CPU_CHART_ID).size() == 2
                        && legend(ContainersView.MEMORY_CHART_ID).size() == 2));
        WaitForAsyncUtils.waitForFxEvents();
    }

    @AfterEach
    void close() throws Exception {
        board.close();
        vm.close();
        fx(() -> {
            stage.hide();
            return null;
        });
    }

    @Test
    void aSandboxHasTheSameColourInBothChartsAndLegends(FxRobot robot) throws Exception {
        Map<String, Paint> cpuLines = fx(() -> strokes(ContainersView.CPU_CHART_ID));
        Map<String, Paint> memoryLines = fx(() -> strokes(ContainersView.MEMORY_CHART_ID));
        Map<String, Paint> cpuLegend = fx(() -> swatches(ContainersView.CPU_CHART_ID));
        Map<String, Paint> memoryLegend = fx(() -> swatches(ContainersView.MEMORY_CHART_ID));
        // The charts do rank them in opposite orders (the busiest first).
        assertThat(fx(() -> names(ContainersView.CPU_CHART_ID))).containsExactly("ctr-busy", "ctr-live");
        assertThat(fx(() -> names(ContainersView.MEMORY_CHART_ID))).containsExactly("ctr-live", "ctr-busy");

        assertThat(cpuLines.get("ctr-busy")).as("two sandboxes, two colours").isNotEqualTo(cpuLines.get("ctr-live"));
        for (String id : List.of("ctr-busy", "ctr-live")) {
            assertThat(memoryLines.get(id)).as("memory line of " + id).isEqualTo(cpuLines.get(id));
            assertThat(cpuLegend.get(id)).as("CPU legend of " + id).isEqualTo(cpuLines.get(id));
            assertThat(memoryLegend.get(id)).as("memory legend of " + id).isEqualTo(cpuLines.get(id));
        }
    }

    @Test
    void theLastTimeLabelLiesInsideEachChart(FxRobot robot) throws Exception {
        for (String chartId : List.of(ContainersView.CPU_CHART_ID, ContainersView.MEMORY_CHART_ID)) {
            fx(() -> {
                LineChart<?, ?> c = chart(chartId);
                Bounds chartBounds = c.localToScene(c.getLayoutBounds());
                Text last = c.getXAxis().getChildrenUnmodifiable().stream()
                        .filter(n -> n instanceof Text t
                                && t.isVisible()
                                && !t.getText().isEmpty())
                        .map(n -> (Text) n)
                        .max(java.util.Comparator.comparingDouble(
                                t -> t.localToScene(t.getBoundsInLocal()).getMaxX()))
                        .orElseThrow();
                Bounds label = last.localToScene(last.getBoundsInLocal());
                assertThat(label.getMaxX())
                        .as(chartId + ": right edge of the label \"" + last.getText() + "\"")
                        .isLessThanOrEqualTo(chartBounds.getMaxX());
                assertThat(label.getMaxX())
                        .as(chartId + " inside the window")
                        .isLessThanOrEqualTo(stage.getScene().getWidth());
                return null;
            });
        }
    }

    @SuppressWarnings("unchecked")
    private LineChart<Number, Number> chart(String id) {
        return (LineChart<Number, Number>) stage.getScene().lookup("#" + id);
    }

    private int lines(String chartId) {
        return chart(chartId).getData().size();
    }

    private List<String> names(String chartId) {
        return chart(chartId).getData().stream().map(XYChart.Series::getName).toList();
    }

    private Map<String, Paint> strokes(String chartId) {
        return chart(chartId).getData().stream()
                .collect(Collectors.toMap(XYChart.Series::getName, s -> ((Path) s.getNode()).getStroke()));
    }

    private List<Label> legend(String chartId) {
        FlowPane legend = (FlowPane) stage.getScene().lookup("#" + chartId + "-legend");
        return legend.getChildren().stream().map(n -> (Label) n).toList();
    }

    private Map<String, Paint> swatches(String chartId) {
        return legend(chartId).stream().collect(Collectors.toMap(Label::getText, l -> {
            Node g = l.getGraphic();
            return ((Region) g).getBackground().getFills().get(0).getFill();
        }));
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(30, TimeUnit.SECONDS);
    }
}
