package dev.paddock.ui.sandboxes;

import dev.paddock.container.ContainerMetrics;
import dev.paddock.status.RepositoryStatus.Sandbox;
import dev.paddock.ui.common.Columns;
import dev.paddock.ui.common.Formats;
import dev.paddock.ui.containers.MetricsText;
import dev.paddock.ui.theme.Style;
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
    SandboxTable(
            ObservableList<Sandbox> rows,
            ReadOnlyObjectProperty<Instant> now,
            ReadOnlyObjectProperty<java.util.Map<String, ContainerMetrics>> metrics,
            javafx.scene.Node placeholder) {
        this(rows, now, metrics, new javafx.beans.property.SimpleObjectProperty<>(java.util.Map.of()), placeholder);
    }

    /**
     * @param asking the commands of pending approval requests by sandbox id: those sandboxes' state cells say they
     *     wait for an approval (drawn again when it changes)
     */
    SandboxTable(
            ObservableList<Sandbox> rows,
            ReadOnlyObjectProperty<Instant> now,
            ReadOnlyObjectProperty<java.util.Map<String, ContainerMetrics>> metrics,
            ReadOnlyObjectProperty<java.util.Map<String, List<String>>> asking,
            javafx.scene.Node placeholder) {
        this(rows, new ReadOnlyObjectWrapper<>(java.util.Map.of()), now, metrics, asking, placeholder);
    }

    /**
     * @param latest the newest rows by sandbox id: the heartbeat and lease cells show their figures (a row whose
     *     heartbeat alone moved is kept in {@code rows}, see {@link LiveRows}), drawn again when it changes
     */
    SandboxTable(
            ObservableList<Sandbox> rows,
            ReadOnlyObjectProperty<java.util.Map<String, Sandbox>> latest,
            ReadOnlyObjectProperty<Instant> now,
            ReadOnlyObjectProperty<java.util.Map<String, ContainerMetrics>> metrics,
            ReadOnlyObjectProperty<java.util.Map<String, List<String>>> asking,
            javafx.scene.Node placeholder) {
        super(rows);
        setId(ID);
        getStyleClass().addAll(Style.TABLE, "striped", "dense"); // rows of 2em: more of them at 768 px
        setColumnResizePolicy(dev.paddock.ui.common.FitColumnsPolicy.INSTANCE);
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
                Sandbox row =
                        empty || getTableRow() == null ? null : getTableRow().getItem();
                String mark = row == null
                        ? null
                        : GroupRows.marker(row, getTableView().getItems());
                Label chip = mark == null
                        ? null
                        : new Label(
                                mark,
                                dev.paddock.ui.common.Icons.of(
                                        org.kordamp.ikonli.materialdesign2.MaterialDesignS.SOURCE_FORK, 12));
                if (chip != null) {
                    chip.getStyleClass().addAll(Style.CHIP, Style.GROUP_MARK);
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
                // Waiting for you stands in for its state (done, mostly): the row a person acts on next. So does a
                // pending approval request: its agent is blocked until someone decides.
                List<String> asks = asking.get().get(s.id());
                Label shown = asks != null && !s.engineUnreachable()
                        ? StateChips.askingChip(s)
                        : s.waitingForYou() && !s.engineUnreachable()
                                ? StateChips.waitingChip()
                                : StateChips.stateChip(s.shownState());
                if (s.worktreeMissing()) {
                    Label gone = new Label("folder missing");
                    gone.getStyleClass().addAll(Style.CHIP, Style.CHIP_DANGER);
                    gone.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
                    gone.setTooltip(
                            new javafx.scene.control.Tooltip("The worktree " + s.worktreePath() + " is not on disk"));
                    javafx.scene.layout.HBox box = new javafx.scene.layout.HBox(4, shown, gone);
                    box.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
                    setGraphic(box);
                } else {
                    setGraphic(shown);
                }
                if (asks != null && !s.engineUnreachable()) {
                    setTooltip(new javafx.scene.control.Tooltip(StateChips.askingText(s, asks)));
                    return;
                }
                setTooltip(
                        s.waitingForYou() && !s.engineUnreachable()
                                ? new javafx.scene.control.Tooltip(StateChips.waitingText(s))
                                : s.engineUnreachable()
                                        ? new javafx.scene.control.Tooltip(
                                                "The Docker engine does not"
                                                        + " answer, so this container's state is unknown (last known: "
                                                        + s.state().replace('_', ' ')
                                                        + "). It is not failed or stopped; Paddock checks again when the engine is back.")
                                        : s.lastError() == null
                                                ? null
                                                : new javafx.scene.control.Tooltip(StateChips.describeError(s)
                                                        + (s.retryCount() > 0
                                                                ? "\nRetries used: " + s.retryCount()
                                                                : "")));
            }
        });
        // The cells say "waiting for approval" as soon as a request arrives, and no longer once it is decided.
        asking.addListener((o, was, is) -> {
            boolean any = !is.isEmpty();
            if (any != !was.isEmpty()) {
                fitState(state, any);
                javafx.application.Platform.runLater(() -> Columns.apply(this));
            }
            refresh();
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
        heartbeat.setCellFactory(c -> new LiveCell(now, latest, (sb, at) -> {
            String ago = sb.lastHeartbeatAt() != null
                    ? Formats.agoInSteps(sb.lastHeartbeatAt(), at)
                    : "running".equals(sb.state()) || "pending".equals(sb.state()) ? "none yet" : "—";
            return sb.progress() == null || sb.progress().isBlank() ? ago : ago + " · " + sb.progress();
        }));
        TableColumn<Sandbox, Sandbox> lease = column("Lease", s -> s, 40);
        // What must show whole, measured in the table's fonts once it is styled (Columns); the rest gives way.
        Columns.fit(id, ID_TIP, idExtra(rows), ids(rows));
        // Ids keep at least 24 characters (besides a fan-out's mark; longer ones lose their middle, whole in the
        // tooltip); where the table is wide the column is as wide as its longest id (up to ID_UP_TO px): measured
        // again when the set of ids changes.
        Columns.fitContent(id, ID_UP_TO, () -> content(rows, Sandbox::id));
        // The branch column is as wide as its longest branch (up to BRANCH_UP_TO px; a longer one loses its middle):
        // the rest goes to the task.
        Columns.fitContent(branch, BRANCH_UP_TO, () -> content(rows, Sandbox::branch));
        // Cut in their middle, ids and branches still tell the rows apart: where room is short they give way
        // before the task.
        Columns.givesWay(id, 2);
        Columns.givesWay(branch, 2);
        rows.addListener((javafx.collections.ListChangeListener<Sandbox>) c -> {
            String[] current = ids(rows);
            // Whole ids and groups: the id column's widest content and a fan-out's mark count too.
            List<String> branches = rows.stream()
                    .map(r -> r.id() + "\0" + r.group() + "\0" + r.branch())
                    .toList();
            if (!java.util.Arrays.equals(current, measuredIds) || !branches.equals(measuredBranches)) {
                measuredIds = current;
                measuredBranches = branches;
                Columns.fit(id, ID_TIP, idExtra(rows), current);
                javafx.application.Platform.runLater(() -> Columns.apply(this));
            }
        });
        Columns.fit(task, "What the agent was asked to do (whole in the tooltip)", 0, "Fix the");
        Columns.fit(
                tier,
                "Isolation: worktree (a host process), namespace (bubblewrap) or container (Docker);"
                        + " hover a row's icon for its tier",
                0);
        fitState(state, !asking.get().isEmpty());
        Columns.fit(branch, "The sandbox's branch (its end shows when narrow; whole in the tooltip)", 0, "…/fix-log");
        Columns.fit(cpu, "CPU of a container sandbox, in percent of its CPU limit", 0, "100.0 %", "stopped");
        Columns.fit(mem, "Memory of a container sandbox without page cache", 0, "999.9 MiB", "stopped");
        Columns.fit(heartbeat, "When the agent last sent a heartbeat, and its progress text", 0, "59 min ago…");
        Columns.fit(lease, "Time left before an agent without heartbeats is stopped", 0, "99 min left");
        // Fixed content: on a wide screen the width goes to task, id and heartbeat.
        List.of(tier, state, cpu, mem, lease).forEach(Columns::fixed);
        Columns.install(this);
        // A lease only means something while the agent runs (the record may keep the last expiry).
        lease.setCellFactory(c -> new LiveCell(
                now,
                latest,
                (sb, at) -> "running".equals(sb.state()) ? Formats.leftInSteps(sb.leaseExpiresAt(), at) : "—"));
        getColumns().setAll(List.of(id, task, tier, state, branch, cpu, mem, heartbeat, lease));
        // CPU and memory are measured for containers only: their columns show while the repository has
        // container sandboxes (switched when that changes, so a person's own choice in the menu stands).
        // ... and while the table has the room: beside the open approval and conflict queues on a 1366 px screen
        // the task and branch need it more (the Containers tab shows both figures).
        containerColumns = javafx.beans.binding.Bindings.createBooleanBinding(
                () -> getWidth() >= CONTAINER_COLUMNS_FROM
                        && getItems().stream().anyMatch(s -> "container".equals(s.tier())),
                getItems(),
                widthProperty());
        cpu.setVisible(containerColumns.get());
        mem.setVisible(containerColumns.get());
        containerColumns.addListener((o, was, any) -> {
            cpu.setVisible(any);
            mem.setVisible(any);
        });
    }

    /** The table's width from which the CPU and memory columns show, in pixels. */
    static final double CONTAINER_COLUMNS_FROM = 1000;

    /** Whether some row is a container sandbox (kept in a field: a binding only its listener holds may be collected). */
    private final javafx.beans.binding.BooleanBinding containerColumns;

    /** The state column's widest chips: "waiting for approval" only while some sandbox asks. */
    private static void fitState(TableColumn<Sandbox, Sandbox> state, boolean asking) {
        List<String> samples = new java.util.ArrayList<>(List.of("awaiting human", "retrying", StateChips.WAITING));
        if (asking) {
            samples.add(StateChips.ASKING);
        }
        Columns.fitChips(
                state,
                "The sandbox's state (or \"waiting for you\": its agent's turn ended, send it a"
                        + " follow-up; \"waiting for approval\": it is blocked on a request in the Approvals queue); hover a"
                        + " failed one for its error",
                samples.toArray(String[]::new));
    }

    /** A tier as an icon, its name and what it means in the tooltip. */
    private static final class TierCell extends TableCell<Sandbox, String> {
        @Override
        protected void updateItem(String tier, boolean empty) {
            super.updateItem(tier, empty);
            setText(null);
            getStyleClass().removeIf(c -> c.startsWith(Style.TIER_PREFIX));
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
            getStyleClass().add(Style.TIER_PREFIX + tier);
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

    /**
     * A cell whose text depends on the time and the row's heartbeat (its newest version): drawn again at every tick
     * of the clock and with every snapshot.
     */
    private static final class LiveCell extends TableCell<Sandbox, Sandbox> {
        private final ReadOnlyObjectProperty<Instant> now;
        private final ReadOnlyObjectProperty<java.util.Map<String, Sandbox>> latest;
        private final java.util.function.BiFunction<Sandbox, Instant, String> text;

        LiveCell(
                ReadOnlyObjectProperty<Instant> now,
                ReadOnlyObjectProperty<java.util.Map<String, Sandbox>> latest,
                java.util.function.BiFunction<Sandbox, Instant, String> text) {
            this.now = now;
            this.latest = latest;
            this.text = text;
            now.addListener(new javafx.beans.value.WeakChangeListener<>(onTick));
            latest.addListener(new javafx.beans.value.WeakChangeListener<>(onLatest));
        }

        private final javafx.beans.value.ChangeListener<Instant> onTick = (o, a, b) -> render();
        private final javafx.beans.value.ChangeListener<java.util.Map<String, Sandbox>> onLatest =
                (o, a, b) -> render();

        @Override
        protected void updateItem(Sandbox s, boolean empty) {
            super.updateItem(s, empty);
            render();
        }

        private final javafx.scene.control.Tooltip tip = new javafx.scene.control.Tooltip();

        private void render() {
            Sandbox s = LiveRows.latest(getItem(), latest.get());
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

        MetricsCell(
                ReadOnlyObjectProperty<java.util.Map<String, ContainerMetrics>> metrics,
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
            getStyleClass().remove(Style.STOPPED);
            if (m == null) {
                setText(isEmpty() || s == null ? null : "—");
                setTooltip(null);
                return;
            }
            setText(text.apply(m));
            if (!m.running()) {
                getStyleClass().add(Style.STOPPED);
            }
            tip.setText(MetricsText.details(m));
            setTooltip(tip);
        }
    }

    private static final String ID_TIP = "The sandbox's id (its middle gives way when narrow; whole in the tooltip)";
    /** Widest the id and branch columns grow to show their longest content whole, in pixels. */
    static final double ID_UP_TO = 420;

    static final double BRANCH_UP_TO = 380;
    /** The texts of the rows' {@code field} (none for an empty table: its columns keep their minimum). */
    private static List<String> content(ObservableList<Sandbox> rows, Function<Sandbox, String> field) {
        return rows.stream().map(field).filter(java.util.Objects::nonNull).toList();
    }

    /** Room a fan-out's mark (a fork and "2/3", a chip) takes before the id, and the gap after it. */
    private static final double GROUP_MARK = 56;

    /** Room the id column's cells need beside the text: a fan-out's mark when some row has one. */
    private static double idExtra(ObservableList<Sandbox> rows) {
        return rows.stream().anyMatch(r -> r.group() != null) ? GROUP_MARK : 0;
    }

    /** The ids and branches measured last for the id and branch columns' widths. */
    private String[] measuredIds = new String[0];

    private List<String> measuredBranches = List.of();

    /** The rows' ids (their first 24 characters), sorted, with a short one for an empty table: samples to measure. */
    private static String[] ids(ObservableList<Sandbox> rows) {
        return java.util.stream.Stream.concat(
                        java.util.stream.Stream.of("sandbox-00"),
                        rows.stream()
                                .map(Sandbox::id)
                                .filter(java.util.Objects::nonNull)
                                .map(v -> v.length() > 24 ? v.substring(0, 24) : v))
                .distinct()
                .sorted()
                .toArray(String[]::new);
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
