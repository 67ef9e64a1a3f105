package dev.paddock.ui.sandboxes;

import dev.paddock.container.ContainerMetrics;
import dev.paddock.status.RepositoryStatus.Sandbox;
import dev.paddock.ui.containers.MetricsText;
import dev.paddock.ui.common.Columns;
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

/**
 * The sandboxes of the repository: id (a fan-out's marked with a fork and {@code 2/3}, see {@link GroupRows}), task, tier, state,
 * branch, CPU, memory, last heartbeat with progress, and lease time left. Ages re-render with every refresh.
 */
final class SandboxTable extends TableView<Sandbox> {
    /** Node id, for tests and styling. */
    static final String ID = "sandbox-table";

    private java.util.Map<String, Long> groupSizes = java.util.Map.of();

    /**
     * @param metrics live CPU and memory of container sandboxes by sandbox id: the CPU and memory cells
     *     re-render when it changes
     */
    SandboxTable(ObservableList<Sandbox> rows, ReadOnlyObjectProperty<Instant> now,
                 ReadOnlyObjectProperty<java.util.Map<String, ContainerMetrics>> metrics, javafx.scene.Node placeholder) {
        super(rows);
        setId(ID);
        getStyleClass().addAll("pd-table", "striped", "dense"); // rows of 2em: more of them at 768 px
        setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        getSelectionModel().setSelectionMode(javafx.scene.control.SelectionMode.MULTIPLE);
        setPlaceholder(placeholder);

        setTableMenuButtonVisible(true); // columns can be hidden, e.g. CPU and memory without containers
        TableColumn<Sandbox, String> id = column("Sandbox", Sandbox::id, 180);
        // Ids made from a task ("rebuild-product-search-20261205-001") are long: a narrow column keeps their start
        // (the task's words) and their end (the day and the number, which tell them apart).
        id.setCellFactory(c -> new TableCell<>() {
            {
                setTextOverrun(javafx.scene.control.OverrunStyle.CENTER_ELLIPSIS);
            }

            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty ? null : s);
                setTooltip(empty || s == null ? null : new javafx.scene.control.Tooltip(s));
                // A fan-out's sandbox: a fork and "2/3" before its id.
                Sandbox row = empty || getTableRow() == null ? null : getTableRow().getItem();
                String mark = row == null ? null : GroupRows.marker(row, getTableView().getItems());
                Label chip = mark == null ? null : new Label(mark, dev.paddock.ui.common.Icons.of(
                        org.kordamp.ikonli.materialdesign2.MaterialDesignS.SOURCE_FORK, 12));
                if (chip != null) {
                    chip.getStyleClass().addAll("pd-chip", "pd-group-mark");
                    chip.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
                    setTooltip(new javafx.scene.control.Tooltip(s + "\nOne of the sandboxes of the fan-out "
                            + row.group() + ": the same task, each on a branch of its own"));
                }
                setGraphic(chip);
            }
        });
        // The marks count the group's rows: drawn again when a group gains or loses one.
        rows.addListener((javafx.collections.ListChangeListener<Sandbox>) c -> {
            if (!GroupRows.sizes(rows).equals(groupSizes)) {
                groupSizes = GroupRows.sizes(rows);
                refresh();
            }
        });
        TableColumn<Sandbox, String> task = column("Task", Sandbox::task, 260);
        task.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty || s == null ? null : s.replaceAll("\\s+", " "));
                setTooltip(empty || s == null ? null : new javafx.scene.control.Tooltip(s));
            }
        });
        // Columns whose content is fixed (tier, state, CPU, memory, lease) prefer no more than their measured minimum
        // (Columns raises a preferred width to it): the width left goes to task and branch.
        TableColumn<Sandbox, String> tier = column("Tier", Sandbox::tier, 40);
        // An icon (the tier's name in its tooltip): the width goes to task and branch.
        tier.setCellFactory(c -> new TierCell());
        TableColumn<Sandbox, Sandbox> state = column("State", s -> s, 40);
        state.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(Sandbox s, boolean empty) {
                super.updateItem(s, empty);
                setText(null);
                if (empty || s == null) {
                    setGraphic(null);
                    setTooltip(null);
                    return;
                }
                // Waiting for you stands in for its state (done, mostly): the row a person acts on next.
                Label shown = s.waitingForYou() && !s.engineUnreachable() ? waitingChip() : stateChip(s.shownState());
                if (s.worktreeMissing()) {
                    Label gone = new Label("folder missing");
                    gone.getStyleClass().addAll("pd-chip", "pd-chip-danger");
                    gone.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
                    gone.setTooltip(new javafx.scene.control.Tooltip("The worktree " + s.worktreePath()
                            + " is not on disk"));
                    javafx.scene.layout.HBox box = new javafx.scene.layout.HBox(4, shown, gone);
                    box.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
                    setGraphic(box);
                } else {
                    setGraphic(shown);
                }
                setTooltip(s.waitingForYou() && !s.engineUnreachable() ? new javafx.scene.control.Tooltip(
                        waitingText(s)) : s.engineUnreachable() ? new javafx.scene.control.Tooltip("The Docker engine does not"
                        + " answer, so this container's state is unknown (last known: " + s.state().replace('_', ' ')
                        + "). It is not failed or stopped; Paddock checks again when the engine is back.")
                        : s.lastError() == null ? null : new javafx.scene.control.Tooltip(describeError(s)
                        + (s.retryCount() > 0 ? "\nRetries used: " + s.retryCount() : "")));
            }
        });
        TableColumn<Sandbox, String> branch = column("Branch", Sandbox::branch, 240);
        // Branches share their first part ("agent/"): a narrow column keeps the end, which tells them apart, and
        // the start (the ellipsis is in the middle).
        branch.setCellFactory(c -> new TableCell<>() {
            {
                setTextOverrun(javafx.scene.control.OverrunStyle.CENTER_ELLIPSIS);
            }

            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty ? null : s);
                setTooltip(empty || s == null ? null : new javafx.scene.control.Tooltip(s));
            }
        });
        TableColumn<Sandbox, Sandbox> cpu = column("CPU", s -> s, 40); // percent of the container's CPU limit
        cpu.setId("sandbox-cpu");
        cpu.setCellFactory(c -> new MetricsCell(metrics, MetricsText::cpu));
        TableColumn<Sandbox, Sandbox> mem = column("Memory", s -> s, 40);
        mem.setId("sandbox-memory");
        mem.setCellFactory(c -> new MetricsCell(metrics, MetricsText::memoryUsed));
        TableColumn<Sandbox, Sandbox> heartbeat = column("Heartbeat", s -> s, 120);
        heartbeat.setCellFactory(c -> new LiveCell(now, (sb, at) -> {
            String ago = sb.lastHeartbeatAt() != null ? Formats.ago(sb.lastHeartbeatAt(), at)
                    : "running".equals(sb.state()) || "pending".equals(sb.state()) ? "none yet" : "—";
            return sb.progress() == null || sb.progress().isBlank() ? ago : ago + " · " + sb.progress();
        }));
        TableColumn<Sandbox, Sandbox> lease = column("Lease", s -> s, 40);
        // What must show whole, measured in the table's fonts once it is styled (Columns); the rest gives way.
        Columns.fit(id, "The sandbox's id", 0, ids(rows));
        // Ids are shown whole up to 24 characters (longer ones lose their middle, whole in the tooltip): measured
        // again when the set of ids changes.
        // The branch column is as wide as its longest branch (up to 260 px; a longer one loses its middle): the rest
        // goes to the task.
        Columns.fitContent(branch, 260, () -> rows.stream().map(Sandbox::branch).filter(java.util.Objects::nonNull)
                .toList());
        rows.addListener((javafx.collections.ListChangeListener<Sandbox>) c -> {
            String[] current = ids(rows);
            List<String> branches = rows.stream().map(Sandbox::branch).toList();
            if (!java.util.Arrays.equals(current, measuredIds) || !branches.equals(measuredBranches)) {
                measuredIds = current;
                measuredBranches = branches;
                Columns.fit(id, "The sandbox's id", 0, current);
                javafx.application.Platform.runLater(() -> Columns.apply(this));
            }
        });
        Columns.fit(task, "What the agent was asked to do (whole in the tooltip)", 0, "Fix the");
        Columns.fit(tier, "Isolation: worktree (a host process), namespace (bubblewrap) or container (Docker);"
                + " hover a row's icon for its tier", 0);
        Columns.fitChips(state, "The sandbox's state (or \"waiting for you\": its agent's turn ended, send it a"
                + " follow-up); hover a failed one for its error", "awaiting human", "retrying", WAITING);
        Columns.fit(branch, "The sandbox's branch (its end shows when narrow; whole in the tooltip)", 0,
                "…/fix-log");
        Columns.fit(cpu, "CPU of a container sandbox, in percent of its CPU limit", 0, "100.0 %", "stopped");
        Columns.fit(mem, "Memory of a container sandbox without page cache", 0, "999.9 MiB", "stopped");
        Columns.fit(heartbeat, "When the agent last sent a heartbeat, and its progress text", 0, "59 min ago…");
        Columns.fit(lease, "Time left before an agent without heartbeats is stopped", 0, "14:52 left");
        // Fixed content: on a wide screen the width goes to task, id and heartbeat.
        List.of(tier, state, cpu, mem, lease).forEach(Columns::fixed);
        Columns.install(this);
        // A lease only means something while the agent runs (the record may keep the last expiry).
        lease.setCellFactory(c -> new LiveCell(now, (sb, at) -> "running".equals(sb.state())
                ? Formats.left(sb.leaseExpiresAt(), at) : "—"));
        getColumns().setAll(List.of(id, task, tier, state, branch, cpu, mem, heartbeat, lease));
        // CPU and memory are measured for containers only: their columns show while the repository has
        // container sandboxes (switched when that changes, so a person's own choice in the menu stands).
        containerColumns = javafx.beans.binding.Bindings.createBooleanBinding(
                () -> getItems().stream().anyMatch(s -> "container".equals(s.tier())), getItems());
        cpu.setVisible(containerColumns.get());
        mem.setVisible(containerColumns.get());
        containerColumns.addListener((o, was, any) -> {
            cpu.setVisible(any);
            mem.setVisible(any);
        });
    }

    /** Whether some row is a container sandbox (kept in a field: a binding only its listener holds may be collected). */
    private final javafx.beans.binding.BooleanBinding containerColumns;

    /** The last error, with the exit code unless the error already says it. */
    static String describeError(Sandbox s) {
        String e = s.lastError() == null ? "" : s.lastError();
        return s.exitCode() == null || e.contains("exited with " + s.exitCode()) ? e : e + " (exit " + s.exitCode() + ")";
    }

    /** The flag of a sandbox whose agent waits for a person. */
    static final String WAITING = "waiting for you";

    /** The "waiting for you" chip: unlike a state's, filled, so it stands out in the column. */
    static Label waitingChip() {
        Label chip = new Label(WAITING);
        chip.getStyleClass().addAll("pd-chip", "pd-waiting");
        chip.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        return chip;
    }

    /** What "waiting for you" means for this row, for its tooltip and the details pane. */
    static String waitingText(Sandbox s) {
        String said = s.waitingDetail() == null || s.waitingDetail().isBlank() ? ""
                : "\nIts last words: " + (s.waitingDetail().length() > 300 ? s.waitingDetail().substring(0, 300) + "…"
                : s.waitingDetail());
        boolean custom = "custom".equals(s.agent());
        return "Its agent's turn ended (state: " + s.state().replace('_', ' ') + "): " + (custom
                ? "merge, retry or remove it (a custom command takes no follow-up)."
                : "send a follow-up in the details below, or merge or remove it.") + said;
    }

    /** A coloured chip for a state ("awaiting human"). */
    static Label stateChip(String state) {
        Label chip = new Label(state.replace('_', ' '));
        chip.getStyleClass().addAll("pd-chip", "pd-state-" + state);
        chip.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        return chip;
    }

    /** A tier as an icon, its name and what it means in the tooltip. */
    private static final class TierCell extends TableCell<Sandbox, String> {
        @Override
        protected void updateItem(String tier, boolean empty) {
            super.updateItem(tier, empty);
            setText(null);
            getStyleClass().removeIf(c -> c.startsWith("pd-tier-"));
            if (empty || tier == null) {
                setGraphic(null);
                setTooltip(null);
                setAccessibleText(null);
                return;
            }
            org.kordamp.ikonli.Ikon icon = switch (tier) {
                case "container" -> org.kordamp.ikonli.materialdesign2.MaterialDesignD.DOCKER;
                case "namespace" -> org.kordamp.ikonli.materialdesign2.MaterialDesignL.LOCK_OUTLINE;
                default -> org.kordamp.ikonli.materialdesign2.MaterialDesignM.MONITOR;
            };
            setGraphic(dev.paddock.ui.common.Icons.of(icon, 16));
            getStyleClass().add("pd-tier-" + tier);
            setAlignment(javafx.geometry.Pos.CENTER);
            setAccessibleText(tier);
            setTooltip(new javafx.scene.control.Tooltip(tierText(tier)));
        }
    }

    /** What a tier means, for its icon's tooltip. */
    static String tierText(String tier) {
        return switch (tier) {
            case "container" -> "container: runs in a Docker container with limits";
            case "namespace" -> "namespace: runs inside bubblewrap; only its worktree is writable";
            case "worktree" -> "worktree: runs as a host process in its worktree";
            default -> tier;
        };
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

        private final javafx.scene.control.Tooltip tip = new javafx.scene.control.Tooltip();

        private void render() {
            Sandbox s = getItem();
            String t = isEmpty() || s == null ? null : text.apply(s, now.get());
            setText(t);
            // the whole text (a long progress line is cut by the column)
            tip.setText(t);
            setTooltip(t == null || t.isEmpty() || t.equals("—") ? null : tip);
        }
    }

    /**
     * A container sandbox's CPU or memory, live from the metrics snapshot: the figure while its container runs,
     * "stopped" once it stopped, "—" for other tiers and containers not measured (yet).
     */
    private static final class MetricsCell extends TableCell<Sandbox, Sandbox> {
        private final ReadOnlyObjectProperty<java.util.Map<String, ContainerMetrics>> metrics;
        private final Function<ContainerMetrics, String> text;
        private final javafx.scene.control.Tooltip tip = new javafx.scene.control.Tooltip();
        private final javafx.beans.value.ChangeListener<java.util.Map<String, ContainerMetrics>> onSample =
                (o, a, b) -> render();

        MetricsCell(ReadOnlyObjectProperty<java.util.Map<String, ContainerMetrics>> metrics,
                    Function<ContainerMetrics, String> text) {
            this.metrics = metrics;
            this.text = text;
            metrics.addListener(new javafx.beans.value.WeakChangeListener<>(onSample));
        }

        @Override
        protected void updateItem(Sandbox s, boolean empty) {
            super.updateItem(s, empty);
            render();
        }

        private void render() {
            Sandbox s = getItem();
            ContainerMetrics m = isEmpty() || s == null ? null : metrics.get().get(s.id());
            getStyleClass().remove("pd-stopped");
            if (m == null) {
                setText(isEmpty() || s == null ? null : "—");
                setTooltip(null);
                return;
            }
            setText(text.apply(m));
            if (!m.running()) {
                getStyleClass().add("pd-stopped");
            }
            tip.setText(MetricsText.details(m));
            setTooltip(tip);
        }
    }

    /** The ids and branches measured last for the id and branch columns' widths. */
    private String[] measuredIds = new String[0];
    private List<String> measuredBranches = List.of();

    /** The rows' ids (their first 24 characters), sorted, with a short one for an empty table: samples to measure. */
    private static String[] ids(ObservableList<Sandbox> rows) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of("sandbox-00"), rows.stream().map(Sandbox::id)
                .filter(java.util.Objects::nonNull).map(v -> v.length() > 24 ? v.substring(0, 24) : v)).distinct()
                .sorted().toArray(String[]::new);
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
