package dev.paddock.ui.dashboard;

import dev.paddock.status.RepositoryStatus.Sandbox;
import dev.paddock.ui.common.EmptyState;
import dev.paddock.ui.common.Formats;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ObservableList;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;

/**
 * The sandboxes of the repository (BRIEF "Dashboard"): id, task, tier, state, branch, CPU, memory,
 * last heartbeat with progress, and lease time left. Ages re-render with every refresh.
 */
final class SandboxTable extends TableView<Sandbox> {
    /** Node id, for tests and styling. */
    static final String ID = "sandbox-table";

    SandboxTable(ObservableList<Sandbox> rows, ReadOnlyObjectProperty<Instant> now) {
        super(rows);
        setId(ID);
        getStyleClass().addAll("pd-table", "striped");
        setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        setPlaceholder(new EmptyState(MaterialDesignR.ROBOT_OUTLINE, "No sandboxes yet",
                "Each agent you start gets a sandbox here: its own worktree and branch, with its state,"
                        + " heartbeat, lease and resource use. Sandboxes that are closed leave this list."));

        TableColumn<Sandbox, String> id = column("Sandbox", Sandbox::id, 190);
        TableColumn<Sandbox, String> task = column("Task", Sandbox::task, 180);
        TableColumn<Sandbox, String> tier = column("Tier", Sandbox::tier, 80);
        TableColumn<Sandbox, String> state = column("State", Sandbox::state, 110);
        state.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(null);
                if (empty || s == null) {
                    setGraphic(null);
                    return;
                }
                Label chip = new Label(s.replace('_', ' '));
                chip.getStyleClass().addAll("pd-chip", "pd-state-" + s);
                setGraphic(chip);
            }
        });
        TableColumn<Sandbox, String> branch = column("Branch", Sandbox::branch, 150);
        TableColumn<Sandbox, String> cpu = column("CPU", s -> "—", 60);
        TableColumn<Sandbox, String> mem = column("Memory", s -> "—", 80);
        TableColumn<Sandbox, Sandbox> heartbeat = column("Heartbeat", s -> s, 200);
        heartbeat.setCellFactory(c -> new LiveCell(now, (sb, at) -> {
            String ago = sb.lastHeartbeatAt() == null ? "none yet" : Formats.ago(sb.lastHeartbeatAt(), at);
            return sb.progress() == null || sb.progress().isBlank() ? ago : ago + " · " + sb.progress();
        }));
        TableColumn<Sandbox, Sandbox> lease = column("Lease", s -> s, 80);
        lease.setCellFactory(c -> new LiveCell(now, (sb, at) -> Formats.left(sb.leaseExpiresAt(), at)));
        getColumns().setAll(List.of(id, task, tier, state, branch, cpu, mem, heartbeat, lease));
    }

    /** A cell whose text depends on the time as well as the row: re-rendered at every refresh. */
    private static final class LiveCell extends TableCell<Sandbox, Sandbox> {
        private final ReadOnlyObjectProperty<Instant> now;
        private final java.util.function.BiFunction<Sandbox, Instant, String> text;

        LiveCell(ReadOnlyObjectProperty<Instant> now, java.util.function.BiFunction<Sandbox, Instant, String> text) {
            this.now = now;
            this.text = text;
            now.addListener(new javafx.beans.value.WeakChangeListener<>(onTick));
        }

        private final javafx.beans.value.ChangeListener<Instant> onTick = (o, a, b) -> render();

        @Override
        protected void updateItem(Sandbox s, boolean empty) {
            super.updateItem(s, empty);
            render();
        }

        private void render() {
            Sandbox s = getItem();
            setText(isEmpty() || s == null ? null : text.apply(s, now.get()));
        }
    }

    private static <T> TableColumn<Sandbox, T> column(String title, Function<Sandbox, T> value, double width) {
        TableColumn<Sandbox, T> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(value.apply(f.getValue())));
        c.setPrefWidth(width);
        // Columns shrink with the window, but never below what their header needs.
        c.setMinWidth(Math.min(width, 12 + 8.5 * title.length()));
        return c;
    }
}
