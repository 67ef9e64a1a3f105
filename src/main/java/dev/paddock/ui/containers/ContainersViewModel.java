package dev.paddock.ui.containers;

import dev.paddock.container.ContainerMetrics;
import dev.paddock.container.ContainerMetricsBoard;
import dev.paddock.ui.common.FxCoalescer;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * Live CPU and memory of Paddock's containers for the panel: the newest snapshot of the
 * {@link ContainerMetricsBoard} (sandbox id → metrics) and its totals, as read-only properties changed on the FX
 * thread at most once per pulse (the board publishes once a second from its own thread).
 */
public final class ContainersViewModel implements AutoCloseable {
    // Properties
    private final ReadOnlyObjectWrapper<Map<String, ContainerMetrics>> metrics = new ReadOnlyObjectWrapper<>(Map.of());
    private final ReadOnlyObjectWrapper<ContainerMetricsBoard.Totals> totals =
            new ReadOnlyObjectWrapper<>(ContainerMetricsBoard.totals(Map.of()));
    private final FxCoalescer<Map<String, ContainerMetrics>> toFx = new FxCoalescer<>(this::apply);
    private volatile ContainerMetricsBoard board;
    private Runnable unsubscribe = () -> {};

    // Properties --------------------------------------------------------------------------------

    /** Sandbox id → newest metrics of its container (running or stopped), sorted by sandbox id; immutable. */
    public ReadOnlyObjectProperty<Map<String, ContainerMetrics>> metricsProperty() {
        return metrics.getReadOnlyProperty();
    }

    /** Totals over the running containers of {@link #metricsProperty()}. */
    public ReadOnlyObjectProperty<ContainerMetricsBoard.Totals> totalsProperty() {
        return totals.getReadOnlyProperty();
    }

    /** The points of the last minutes of one sandbox's container, oldest first (empty without a board). */
    public List<ContainerMetrics> history(String sandboxId) {
        ContainerMetricsBoard b = board;
        return b == null ? List.of() : b.history(sandboxId);
    }

    // Commands ----------------------------------------------------------------------------------

    /** Listens to {@code newBoard} (null: none) instead of the board before. Call on the FX thread. */
    public void connect(ContainerMetricsBoard newBoard) {
        unsubscribe.run();
        board = newBoard;
        if (newBoard == null) {
            unsubscribe = () -> {};
            apply(Map.of());
            return;
        }
        unsubscribe = newBoard.addListener(toFx::publish);
        apply(newBoard.latest());
    }

    private void apply(Map<String, ContainerMetrics> snapshot) {
        metrics.set(snapshot);
        totals.set(ContainerMetricsBoard.totals(snapshot));
    }

    /** Stops listening. */
    @Override
    public void close() {
        unsubscribe.run();
        unsubscribe = () -> {};
    }
}
