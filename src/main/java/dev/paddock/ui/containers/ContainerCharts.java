package dev.paddock.ui.containers;

import dev.paddock.container.ContainerMetrics;
import dev.paddock.container.ContainerMetricsBoard;
import dev.paddock.ui.theme.Style;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import javafx.collections.ObservableList;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.util.StringConverter;

/**
 * One live chart: a line per container over the last {@link #WINDOW_S} seconds, one point appended per tick
 * (the board's one-second snapshot) and the oldest dropped, so each series stays a fixed-length window. The x
 * axis is the wall clock (seconds, labelled HH:mm:ss); it slides with the newest sample.
 */
final class ContainerCharts {
    /** How many seconds a chart shows: the board's whole history, five minutes. */
    static final int WINDOW_S = ContainerMetricsBoard.HISTORY;
    /**
     * At most this many lines: the containers with the highest figures (50 lines would be noise, and drawing them
     * costs the panel's CPU); the table lists every container.
     */
    static final int MAX_LINES = 8;
    /** The busiest containers are chosen again every this many ticks (not every tick: lines would flicker). */
    static final int RANK_EVERY = 10;

    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private final LineChart<Number, Number> chart;
    private final javafx.scene.layout.FlowPane legend = new javafx.scene.layout.FlowPane(10, 2);
    private final javafx.scene.layout.VBox box = new javafx.scene.layout.VBox(0);
    private final NumberAxis time = new NumberAxis();
    private final ToDoubleFunction<ContainerMetrics> value;
    private final Map<String, XYChart.Series<Number, Number>> bySandbox = new HashMap<>();
    private final Map<String, Instant> lastAt = new HashMap<>();
    private final String title;
    private final SandboxColours colours;
    private java.util.Set<String> shown = java.util.Set.of();
    private int ticks;

    /**
     * @param title the chart's title, e.g. "CPU (% of limit)"
     * @param value the figure drawn, in the unit of the y axis
     * @param colours each sandbox's colour, shared with the other chart
     */
    ContainerCharts(
            String id, String title, String yLabel, ToDoubleFunction<ContainerMetrics> value, SandboxColours colours) {
        this.value = value;
        this.colours = colours;
        this.title = title;
        time.setAutoRanging(false);
        time.setForceZeroInRange(false);
        time.setTickUnit(60);
        time.setMinorTickVisible(false);
        time.setTickLabelFormatter(new StringConverter<>() {
            @Override
            public String toString(Number n) {
                return CLOCK.format(Instant.ofEpochSecond(n.longValue()));
            }

            @Override
            public Number fromString(String s) {
                throw new UnsupportedOperationException();
            }
        });
        NumberAxis y = new NumberAxis();
        y.setLabel(yLabel);
        y.setForceZeroInRange(true);
        chart = new LineChart<>(time, y);
        chart.setId(id);
        chart.setTitle(title);
        chart.setAnimated(false);
        chart.setCreateSymbols(false);
        // JavaFX's own legend did not show in the pane's height (seen on the screenshot): a flow of labels below
        // the chart, each with its line's colour (the sandbox's pd-sandbox-colorN style class), does.
        chart.setLegendVisible(false);
        legend.getStyleClass().add(Style.CHART_LEGEND);
        legend.setId(id + "-legend");
        box.getChildren().setAll(chart, legend);
        javafx.scene.layout.VBox.setVgrow(chart, javafx.scene.layout.Priority.ALWAYS);
        chart.getStyleClass().add(Style.CONTAINER_CHART);
        slide(Instant.now());
    }

    /** The chart with its legend below. */
    javafx.scene.layout.VBox node() {
        return box;
    }

    /** The sandboxes drawn now (their colours must stay). */
    java.util.Set<String> shownSandboxes() {
        return bySandbox.keySet();
    }

    /** One entry per line: its colour (the sandbox's {@code pd-sandbox-colorN}) and the sandbox id. */
    private void showLegend() {
        List<javafx.scene.Node> items = new java.util.ArrayList<>();
        Map<XYChart.Series<Number, Number>, String> ids = new java.util.IdentityHashMap<>();
        bySandbox.forEach((id, s) -> ids.put(s, id));
        for (XYChart.Series<Number, Number> s : chart.getData()) {
            javafx.scene.layout.Region swatch = new javafx.scene.layout.Region();
            swatch.getStyleClass().add("chart-legend-item-symbol");
            swatch.getStyleClass().add("chart-line-symbol");
            String id = ids.get(s);
            if (id != null) {
                colours.apply(id, swatch.getStyleClass());
                colour(id, s);
            }
            javafx.scene.control.Label item = new javafx.scene.control.Label(s.getName(), swatch);
            item.getProperties().put(LEGEND_SANDBOX, id);
            item.getStyleClass().add(Style.CHART_LEGEND_ITEM);
            items.add(item);
        }
        legend.getChildren().setAll(items);
    }

    /** Draws the busiest sandboxes' history afresh (the view became visible). */
    void reset(Map<String, ContainerMetrics> latest, Function<String, List<ContainerMetrics>> history, Instant now) {
        chart.getData().clear();
        bySandbox.clear();
        lastAt.clear();
        shown = busiest(latest);
        for (String sandboxId : shown) {
            for (ContainerMetrics m : history.apply(sandboxId)) {
                append(m);
            }
        }
        ticks = 0;
        showTitle(latest.size());
        showLegend();
        slide(now);
    }

    /**
     * Appends each shown container's newest sample (when newer than its last point); drops gone sandboxes; every
     * {@link #RANK_EVERY} ticks shows the busiest containers again (a newcomer is drawn from its history).
     */
    void tick(Map<String, ContainerMetrics> latest, Function<String, List<ContainerMetrics>> history, Instant now) {
        if (++ticks % RANK_EVERY == 0 || shown.size() < Math.min(MAX_LINES, latest.size())) {
            java.util.Set<String> next = busiest(latest);
            if (!next.equals(shown)) {
                for (String id : next) {
                    if (!shown.contains(id)) {
                        history.apply(id).forEach(this::append);
                    }
                }
                shown = next;
            }
            showTitle(latest.size());
        }
        bySandbox.keySet().removeIf(id -> {
            if (!shown.contains(id)) {
                chart.getData().remove(bySandbox.get(id));
                lastAt.remove(id);
                return true;
            }
            return false;
        });
        for (ContainerMetrics m : latest.values()) {
            if (!shown.contains(m.sandboxId())) {
                continue;
            }
            if (m.running()) {
                append(m);
            } else {
                XYChart.Series<Number, Number> s = bySandbox.get(m.sandboxId());
                if (s != null && !s.getName().endsWith(" (stopped)")) {
                    s.setName(s.getName() + " (stopped)");
                    renamed = true;
                }
            }
        }
        if (legend.getChildren().size() != chart.getData().size() || renamed) {
            showLegend();
            renamed = false;
        }
        bySandbox.forEach((id, s) -> colour(id, s));
        slide(now);
    }

    /** Key of a legend item's property holding its sandbox id. */
    static final String LEGEND_SANDBOX = Style.SANDBOX_ID;

    private boolean renamed;

    /** Gives the series' line the sandbox's colour (the chart may have re-styled it when another series left). */
    private void colour(String sandboxId, XYChart.Series<Number, Number> s) {
        if (s.getNode() != null) {
            colours.apply(sandboxId, s.getNode().getStyleClass());
        }
    }

    private void append(ContainerMetrics m) {
        Instant prev = lastAt.get(m.sandboxId());
        if (prev != null && !m.at().isAfter(prev)) {
            return;
        }
        lastAt.put(m.sandboxId(), m.at());
        XYChart.Series<Number, Number> s = bySandbox.computeIfAbsent(m.sandboxId(), id -> {
            XYChart.Series<Number, Number> n = new XYChart.Series<>();
            n.setName(id);
            chart.getData().add(n);
            colour(id, n);
            return n;
        });
        if (s.getName().endsWith(" (stopped)")) {
            s.setName(m.sandboxId()); // a new run of the sandbox
            renamed = true;
        }
        ObservableList<XYChart.Data<Number, Number>> points = s.getData();
        double x = m.at().toEpochMilli() / 1000.0;
        if (points.size() >= WINDOW_S) {
            points.remove(0, points.size() - WINDOW_S + 1);
        }
        points.add(new XYChart.Data<>(x, value.applyAsDouble(m)));
    }

    /** The {@link #MAX_LINES} sandboxes with the highest figure now (running ones first; ties by id). */
    private java.util.Set<String> busiest(Map<String, ContainerMetrics> latest) {
        return latest.values().stream()
                .sorted(java.util.Comparator.comparing((ContainerMetrics m) -> !m.running())
                        .thenComparing(m -> -value.applyAsDouble(m))
                        .thenComparing(ContainerMetrics::sandboxId))
                .limit(MAX_LINES)
                .map(ContainerMetrics::sandboxId)
                .collect(java.util.stream.Collectors.toCollection(java.util.LinkedHashSet::new));
    }

    private void showTitle(int containers) {
        chart.setTitle(containers > MAX_LINES ? title + " — the " + MAX_LINES + " highest of " + containers : title);
    }

    /** The x axis shows the last {@link #WINDOW_S} seconds up to {@code now}. */
    private void slide(Instant now) {
        double upper = Math.ceil(now.toEpochMilli() / 1000.0);
        time.setUpperBound(upper);
        time.setLowerBound(upper - WINDOW_S);
    }
}
