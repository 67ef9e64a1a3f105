package dev.paddock.ui.containers;

import dev.paddock.container.ContainerMetrics;
import dev.paddock.container.ContainerMetricsBoard;
import dev.paddock.ui.common.Columns;
import dev.paddock.ui.common.EmptyState;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.common.KeyedListSync;
import dev.paddock.ui.theme.Style;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignM;

/**
 * The containers tab: header totals (containers running, their CPU together, their
 * memory together), a table of every container sandbox with its live figures ("stopped" for a stopped one),
 * and two charts over the last five minutes, CPU in percent of each container's limit and memory in MiB, one
 * line per container. Charts are fed only while the tab shows; when it shows again they are redrawn from the
 * board's history.
 */
public final class ContainersView extends VBox {
    /** Node ids, for tests. */
    static final String TABLE_ID = "containers-table";

    static final String CPU_CHART_ID = "containers-cpu-chart";
    static final String MEMORY_CHART_ID = "containers-memory-chart";

    private final ContainersViewModel vm;
    private final ObservableList<ContainerMetrics> rows = FXCollections.observableArrayList();
    /** One colour per sandbox in both charts, whatever order each chart ranks it in. */
    private final SandboxColours colours = new SandboxColours();

    private final ContainerCharts cpu = new ContainerCharts(
            CPU_CHART_ID,
            "CPU (% of each container's limit)",
            "% of limit",
            ContainerMetrics::cpuPercentOfLimit,
            colours);
    private final ContainerCharts memory = new ContainerCharts(
            MEMORY_CHART_ID, "Memory without page cache (MiB)", "MiB", m -> m.memoryBytes() / (1024.0 * 1024), colours);
    private final BooleanProperty active = new SimpleBooleanProperty(true);

    public ContainersView(ContainersViewModel vm) {
        this.vm = vm;
        setId("containers-view");
        getStyleClass().add(Style.CONTAINERS);
        setSpacing(10);
        var css = ContainersView.class.getResource("/dev/paddock/ui/containers/containers.css");
        if (css != null) {
            getStylesheets().add(css.toExternalForm());
        }

        HBox totals = new HBox(
                12,
                tile(MaterialDesignC.CUBE_OUTLINE, "containers-running", "Running"),
                tile(MaterialDesignC.CHIP, "containers-cpu-total", "CPU, all containers"),
                tile(MaterialDesignM.MEMORY, "containers-memory-total", "Memory, all containers"));
        totals.getChildren().forEach(t -> HBox.setHgrow(t, Priority.ALWAYS));
        totals.getStyleClass().add(Style.TILES);

        TableView<ContainerMetrics> table = table();
        HBox charts = new HBox(12, cpu.node(), memory.node());
        HBox.setHgrow(cpu.node(), Priority.ALWAYS);
        HBox.setHgrow(memory.node(), Priority.ALWAYS);
        // No minimum above what the split gives: a chart taller than its pane was clipped, legend first.
        charts.setMinHeight(0);
        cpu.node().setMinSize(0, 0);
        memory.node().setMinSize(0, 0);
        cpu.node().setPrefWidth(10);
        memory.node().setPrefWidth(10); // the two charts share the width equally
        cpu.node().setMaxWidth(Double.MAX_VALUE);
        memory.node().setMaxWidth(Double.MAX_VALUE);
        SplitPane split = new SplitPane(table, charts);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.4);
        split.getStyleClass().add(Style.BODY);

        EmptyState empty = new EmptyState(
                MaterialDesignC.CUBE_OUTLINE,
                "No containers",
                "Container sandboxes show their CPU and memory here while they run: one stats stream per"
                        + " container, a sample a second.");
        StackPane body = new StackPane(split, empty);
        empty.visibleProperty().bind(javafx.beans.binding.Bindings.isEmpty(rows));
        split.visibleProperty().bind(empty.visibleProperty().not());
        VBox.setVgrow(body, Priority.ALWAYS);
        getChildren().addAll(totals, body);

        vm.metricsProperty().addListener((o, was, now) -> show(now, false));
        vm.totalsProperty().addListener((o, was, now) -> showTotals(now));
        active.addListener((o, was, now) -> {
            if (now) {
                show(vm.metricsProperty().get(), true);
            }
        });
        show(vm.metricsProperty().get(), true);
        showTotals(vm.totalsProperty().get());
    }

    /** Whether the tab shows: charts are fed only then (bind to the tab's selected property). */
    public BooleanProperty activeProperty() {
        return active;
    }

    private void show(Map<String, ContainerMetrics> latest, boolean redraw) {
        if (!active.get()) {
            if (rows.isEmpty() != latest.isEmpty()) {
                KeyedListSync.sync(rows, new ArrayList<>(latest.values()), ContainerMetrics::sandboxId);
            }
            return; // a hidden tab's table and charts catch up when it shows
        }
        KeyedListSync.sync(rows, new ArrayList<>(latest.values()), ContainerMetrics::sandboxId);
        Instant now = Instant.now();
        if (redraw) {
            cpu.reset(latest, vm::history, now);
            memory.reset(latest, vm::history, now);
        } else {
            cpu.tick(latest, vm::history, now);
            memory.tick(latest, vm::history, now);
        }
        java.util.Set<String> drawn = new java.util.HashSet<>(cpu.shownSandboxes());
        drawn.addAll(memory.shownSandboxes());
        colours.retain(drawn);
    }

    private void showTotals(ContainerMetricsBoard.Totals t) {
        // The figure alone in the big type; stopped ones in the caption, which has the room.
        value("containers-running").setText(Integer.toString(t.running()));
        caption("containers-running").setText(t.stopped() > 0 ? "Running · " + t.stopped() + " stopped" : "Running");
        value("containers-cpu-total").setText(MetricsText.percent(t.cpuPercentOfHost()) + " of host");
        caption("containers-cpu-total")
                .setText("CPU, all containers: " + MetricsText.percent(t.cpuPercentOfOneCpu()) + " of one CPU");
        value("containers-memory-total").setText(MetricsText.bytes(t.memoryBytes()));
        caption("containers-memory-total")
                .setText("Memory, all containers (limits: " + MetricsText.bytes(t.memoryLimitBytes()) + ")");
    }

    private Label value(String id) {
        return (Label) lookup("#" + id + "-value");
    }

    private Label caption(String id) {
        return (Label) lookup("#" + id + "-label");
    }

    private static HBox tile(Ikon icon, String id, String caption) {
        Label number = new Label("0");
        number.setId(id + "-value");
        number.getStyleClass().add(Style.TILE_VALUE);
        Label label = new Label(caption);
        label.setId(id + "-label");
        label.getStyleClass().add(Style.TILE_LABEL);
        var glyph = Icons.of(icon, 22);
        glyph.getStyleClass().add(Style.TILE_ICON);
        HBox tile = new HBox(12, glyph, new VBox(0, number, label));
        tile.setAlignment(Pos.CENTER_LEFT);
        tile.setId(id);
        tile.getStyleClass().addAll(Style.TILE, Style.TILE_ACCENT);
        return tile;
    }

    private TableView<ContainerMetrics> table() {
        TableView<ContainerMetrics> t = new TableView<>(rows);
        t.setId(TABLE_ID);
        t.getStyleClass().addAll(Style.TABLE, "striped");
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        t.getColumns()
                .setAll(List.of(
                        Columns.fit(
                                column("Sandbox", ContainerMetrics::sandboxId, 210),
                                "The container sandbox's id",
                                0,
                                "sandbox-00"),
                        Columns.fit(
                                column("Container", m -> MetricsText.shortId(m.containerId()), 100),
                                "The container's id",
                                0,
                                "0123456789ab"),
                        Columns.fit(
                                figure("CPU (1 CPU)", m -> MetricsText.percent(m.cpuPercentOfOneCpu()), 90),
                                "CPU in percent of one CPU (100 % is one CPU busy)",
                                0,
                                "800.0 %",
                                MetricsText.STOPPED),
                        Columns.fit(
                                figure("CPU (limit)", m -> MetricsText.percent(m.cpuPercentOfLimit()), 85),
                                "CPU in percent of the container's CPU limit",
                                0,
                                "100.0 %",
                                MetricsText.STOPPED),
                        Columns.fit(
                                figure("CPU (host)", m -> MetricsText.percent(m.cpuPercentOfHost()), 85),
                                "CPU in percent of every CPU of this machine",
                                0,
                                "100.0 %",
                                MetricsText.STOPPED),
                        Columns.fit(
                                figure("Memory", m -> MetricsText.memory(m), 150),
                                "Memory without page cache, of the container's limit",
                                0,
                                "1023.9 MiB / 4.0 GiB")));
        Columns.install(t);
        t.setFixedCellSize(30);
        return t;
    }

    private static TableColumn<ContainerMetrics, String> column(
            String title, Function<ContainerMetrics, String> text, double width) {
        TableColumn<ContainerMetrics, String> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(text.apply(f.getValue())));
        c.setPrefWidth(width);
        return c;
    }

    /** A figure column: "stopped" (muted) for a stopped container, the figure otherwise; the tooltip tells all. */
    private static TableColumn<ContainerMetrics, ContainerMetrics> figure(
            String title, Function<ContainerMetrics, String> text, double width) {
        TableColumn<ContainerMetrics, ContainerMetrics> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        c.setPrefWidth(width);
        c.setCellFactory(col -> new TableCell<>() {
            private final Tooltip tip = new Tooltip();

            @Override
            protected void updateItem(ContainerMetrics m, boolean empty) {
                super.updateItem(m, empty);
                getStyleClass().remove(Style.STOPPED);
                if (empty || m == null) {
                    setText(null);
                    setTooltip(null);
                    return;
                }
                setText(m.running() ? text.apply(m) : MetricsText.STOPPED);
                if (!m.running()) {
                    getStyleClass().add(Style.STOPPED);
                }
                tip.setText(MetricsText.details(m));
                setTooltip(tip);
            }
        });
        return c;
    }
}
