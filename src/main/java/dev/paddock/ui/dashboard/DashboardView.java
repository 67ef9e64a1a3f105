package dev.paddock.ui.dashboard;

import atlantafx.base.theme.Styles;
import dev.paddock.ui.approvals.ApprovalsView;
import dev.paddock.ui.common.Card;
import dev.paddock.ui.conflicts.ConflictQueueView;
import dev.paddock.ui.containers.ContainersView;
import dev.paddock.ui.sandboxes.SandboxesView;
import dev.paddock.ui.theme.Style;
import javafx.beans.binding.Bindings;
import javafx.geometry.Orientation;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignE;
import org.kordamp.ikonli.materialdesign2.MaterialDesignH;
import org.kordamp.ikonli.materialdesign2.MaterialDesignM;
import org.kordamp.ikonli.materialdesign2.MaterialDesignP;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The dashboard of one repository: header tiles, the sandboxes
 * and worktrees tables, the containers and the merge queue tabs, the approval and conflict queues, and the recent events. Binds to a
 * {@link DashboardViewModel}; never calls services.
 */
public final class DashboardView extends VBox {
    /** Where the dividers a person moved are kept ({@link dev.paddock.ui.common.LayoutMemory}). */
    static final String SIDE_DIVIDER = "dashboard.sideDivider";

    static final String EVENTS_DIVIDER = "dashboard.eventsDivider";
    /** The side (approvals, conflicts) never narrower than a request's buttons need. */
    static final double SIDE_MIN_WIDTH = 380;
    /** The events pane keeps its title and about three events. */
    static final double EVENTS_MIN_HEIGHT = 120;
    /** Style class of the dashboard while it is shorter than {@link #COMPACT_BELOW} px. */
    static final String COMPACT = Style.COMPACT;

    static final double COMPACT_BELOW = 760;
    /** Height of one entry of the conflict queue (two lines). */
    private static final double CONFLICT_ROW = 52;

    private final TabPane tabs;
    private final SandboxesView sandboxes;
    private final SideFold upper;

    public DashboardView(DashboardViewModel vm) {
        this(vm, dev.paddock.ui.common.LayoutMemory.inMemory());
    }

    /** @param layout where the dividers a person moves are kept from one run to the next */
    public DashboardView(DashboardViewModel vm, dev.paddock.ui.common.LayoutMemory layout) {
        getStyleClass().add(Style.DASHBOARD);

        HBox tiles = new HBox(
                12,
                new TileView(
                        MaterialDesignP.PLAY_CIRCLE_OUTLINE,
                        "Active",
                        "accent",
                        vm.activeProperty(),
                        "Sandboxes running, retrying, merging or cleaning up"),
                new TileView(
                        MaterialDesignC.CLOCK_OUTLINE,
                        "Pending",
                        "neutral",
                        vm.pendingProperty(),
                        "Sandboxes created and waiting to start"),
                new TileView(
                        MaterialDesignA.ALERT_CIRCLE_OUTLINE,
                        "Failed (24 h)",
                        "danger",
                        vm.failed24hProperty(),
                        "Sandboxes that failed or timed out in the last 24 hours"),
                new TileView(
                        MaterialDesignS.SOURCE_MERGE,
                        "Merged (24 h)",
                        "success",
                        vm.merged24hProperty(),
                        "Branches the merge queue brought home in the last 24 hours"),
                new TileView(
                        MaterialDesignA.ACCOUNT_CLOCK_OUTLINE,
                        "Awaiting human",
                        "warning",
                        vm.awaitingHumanProperty(),
                        "Sandboxes, conflicts and approvals waiting for you"),
                new TileView(
                        MaterialDesignM.MESSAGE_REPLY_TEXT_OUTLINE,
                        "Waiting for you",
                        "waiting",
                        vm.waitingForYouProperty(),
                        "Sandboxes whose agent's turn ended: send a follow-up, merge or" + " remove them"),
                new TileView(
                        MaterialDesignE.EYE_CHECK_OUTLINE,
                        "Ready for review",
                        "warning",
                        vm.readyForReviewProperty(),
                        "Finished sandboxes whose change waits for your review: approve it, request changes or"
                                + " discard it"));
        tiles.getStyleClass().add(Style.TILES);
        tiles.getChildren().forEach(t -> HBox.setHgrow(t, Priority.ALWAYS));

        sandboxes = new SandboxesView(vm.sandboxPanel(), vm.nowProperty(), layout);
        WorktreeTable worktrees = new WorktreeTable(vm.worktrees());
        Tab sandboxTab = new Tab(null, sandboxes);
        sandboxTab.textProperty().bind(Bindings.size(vm.sandboxes()).asString("Sandboxes (%d)"));
        sandboxTab.setId("tab-sandboxes");
        Tab worktreeTab = new Tab(null, worktrees);
        worktreeTab.textProperty().bind(Bindings.size(vm.worktrees()).asString("Worktrees (%d)"));
        worktreeTab.setId("tab-worktrees");
        Tab containerTab = new Tab();
        containerTab
                .textProperty()
                .bind(Bindings.createStringBinding(
                        () -> "Containers ("
                                + vm.containers().totalsProperty().get().running() + ")",
                        vm.containers().totalsProperty()));
        containerTab.setId("tab-containers");
        // Built when first shown: the charts and tables of these two tabs are not needed for the first frame.
        buildWhenSelected(containerTab, () -> {
            ContainersView containerView = new ContainersView(vm.containers());
            containerView.activeProperty().bind(containerTab.selectedProperty());
            return containerView;
        });
        Tab mergeTab = new Tab();
        buildWhenSelected(mergeTab, () -> new dev.paddock.ui.mergequeue.MergeQueueView(vm.mergeQueue()));
        mergeTab.textProperty().bind(vm.mergeQueue().activeProperty().asString("Merge queue (%d)"));
        mergeTab.setId("tab-merge-queue");
        tabs = new TabPane(sandboxTab, worktreeTab, containerTab, mergeTab);
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        tabs.getStyleClass().add(Style.TABS);
        // Opens on the sandboxes (Paddock's reason to be; with none yet, its empty state offers New sandbox).
        tabs.getSelectionModel().select(sandboxTab);
        sandboxes.activeProperty().bind(sandboxTab.selectedProperty());
        sandboxes.setOnNewSandbox(() -> tabs.getSelectionModel().select(sandboxTab));

        Label problem = new Label();
        problem.getStyleClass().add(Style.PROBLEM);
        problem.textProperty().bind(vm.problemProperty());
        problem.visibleProperty().bind(vm.problemProperty().isNotEmpty());
        problem.managedProperty().bind(problem.visibleProperty());
        problem.setWrapText(true);

        VBox main = new VBox(8, problem, tabs);
        VBox.setVgrow(tabs, Priority.ALWAYS);

        ApprovalsView approvalsView = new ApprovalsView(vm.approvals());
        // Each card says which sandbox asks: a fan-out's sandboxes ask the same command for the same task.
        approvalsView.setAskers(id -> vm.sandboxes().stream()
                .filter(s -> s.id().equals(id))
                .findFirst()
                .map(s -> new dev.paddock.ui.approvals.Asker(
                        s.group() != null && id.startsWith(s.group() + "-")
                                ? id.substring(s.group().length() + 1)
                                : null,
                        s.agent(),
                        s.branch()))
                .orElse(null));
        Card approvals = new Card(MaterialDesignS.SHIELD_ACCOUNT_OUTLINE, "Approvals", approvalsView)
                .withBadge(Bindings.size(vm.approvals().rows()));
        approvals.setId("approvals-pane");
        ConflictQueueView conflictQueue = new ConflictQueueView(vm.conflicts());
        // As tall as its entries (up to three; it scrolls past that), or its empty state: the approval queue above
        // needs the height for a request's command, rule and buttons.
        conflictQueue
                .prefHeightProperty()
                .bind(Bindings.createDoubleBinding(
                        () -> vm.conflicts().rows().isEmpty()
                                ? 170
                                : Math.min(3, vm.conflicts().rows().size()) * CONFLICT_ROW + 10,
                        vm.conflicts().rows()));
        // While requests wait and no conflict does, the approval queue needs the height more than the
        // conflict queue's empty state: the card shrinks to its header.
        conflictQueue
                .visibleProperty()
                .bind(Bindings.isNotEmpty(vm.conflicts().rows())
                        .or(Bindings.isEmpty(vm.approvals().rows())));
        conflictQueue.managedProperty().bind(conflictQueue.visibleProperty());
        Card conflicts = new Card(MaterialDesignS.SOURCE_MERGE, "Conflicts", conflictQueue)
                .withBadge(Bindings.size(vm.conflicts().rows()));
        conflicts.setId("conflicts-pane");
        // While conflicts wait and no request does (nor a note about one), the conflict queue needs the height: the
        // approval card shrinks to its header, and the conflict card takes the rest.
        // Something besides requests in the approval queue a person must read: requests waiting in other
        // repositories, the note about a decision, an error.
        javafx.beans.binding.BooleanBinding approvalsSaySomething = vm.approvals()
                .elsewhereProperty()
                .greaterThan(0)
                .or(vm.approvals().noteProperty().isNotNull())
                .or(vm.approvals().errorProperty().isNotNull());
        javafx.beans.binding.BooleanBinding approvalsShown = Bindings.isNotEmpty(
                        vm.approvals().rows())
                .or(Bindings.isEmpty(vm.conflicts().rows()))
                .or(approvalsSaySomething);
        approvalsView.visibleProperty().bind(approvalsShown);
        approvalsView.managedProperty().bind(approvalsView.visibleProperty());
        VBox side = new VBox(12, approvals, conflicts);
        side.getStyleClass().add(Style.SIDE);
        // The approval queue gets the height; the conflict queue keeps what its entries need.
        VBox.setVgrow(approvals, Priority.ALWAYS);
        VBox.setVgrow(conflicts, Priority.NEVER);
        Runnable growTheShown = () -> {
            VBox.setVgrow(approvals, approvalsShown.get() ? Priority.ALWAYS : Priority.NEVER);
            VBox.setVgrow(conflicts, approvalsShown.get() ? Priority.NEVER : Priority.ALWAYS);
            side.requestLayout();
        };
        approvalsShown.addListener((o, was, shown) -> growTheShown.run());
        growTheShown.run();
        conflicts.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);

        side.setMinWidth(SIDE_MIN_WIDTH);
        // While both queues are empty they fold to a rail: the tables get the width (a 1366 px screen needs it).
        upper = new SideFold(
                main,
                side,
                Bindings.size(vm.approvals().rows()),
                Bindings.size(vm.conflicts().rows()),
                approvalsSaySomething,
                layout);
        approvals.withActions(foldButton(upper));
        // The queues leave the scene while folded: their notifications belong to the dashboard's window.
        approvalsView.placeIn(this, upper::unfold);
        conflictQueue.placeIn(this);

        Card events = new Card(MaterialDesignH.HISTORY, "Recent events", new EventList(vm.events(), vm.nowProperty()))
                .withBadge(Bindings.size(vm.events()));
        events.setId("events-pane");
        events.getStyleClass().add(Style.EVENTS_CARD);

        SplitPane body = new SplitPane(upper, events);
        body.setOrientation(Orientation.VERTICAL);
        body.setDividerPositions(layout.get(EVENTS_DIVIDER, 0.78));
        SplitPane.setResizableWithParent(events, false);
        events.setMinHeight(EVENTS_MIN_HEIGHT);
        remember(body, layout, EVENTS_DIVIDER);
        body.getStyleClass().add(Style.BODY);
        VBox.setVgrow(body, Priority.ALWAYS);

        getChildren().addAll(tiles, body);
        // On a short screen (1366×768) the tiles and gaps get smaller: the tables keep the height.
        heightProperty().addListener((o, was, h) -> {
            boolean compact = h.doubleValue() > 0 && h.doubleValue() < COMPACT_BELOW;
            if (compact != getStyleClass().contains(COMPACT)) {
                if (compact) {
                    getStyleClass().add(COMPACT);
                } else {
                    getStyleClass().remove(COMPACT);
                }
            }
        });
    }

    /** Keeps where a person drags {@code split}'s first divider under {@code key}. */
    private static void remember(SplitPane split, dev.paddock.ui.common.LayoutMemory layout, String key) {
        split.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_RELEASED, e -> {
            if (split.getDividerPositions().length > 0) {
                layout.put(key, split.getDividerPositions()[0]);
            }
        });
    }

    /** Gives {@code tab} the content {@code build} makes, the first time the tab is selected. */
    private static void buildWhenSelected(Tab tab, java.util.function.Supplier<javafx.scene.Node> build) {
        javafx.beans.value.ChangeListener<Boolean> once = new javafx.beans.value.ChangeListener<>() {
            @Override
            public void changed(
                    javafx.beans.value.ObservableValue<? extends Boolean> o, Boolean was, Boolean selected) {
                if (selected && tab.getContent() == null) {
                    tab.selectedProperty().removeListener(this);
                    tab.setContent(build.get());
                }
            }
        };
        tab.selectedProperty().addListener(once);
    }

    /** Folds the approval and conflict queues to a rail, or unfolds them (Ctrl+B). */
    public void toggleSide() {
        upper.toggle();
    }

    /** The side's button that folds the queues to a rail. */
    private static javafx.scene.control.Button foldButton(SideFold fold) {
        javafx.scene.control.Button b = new javafx.scene.control.Button(
                null, dev.paddock.ui.common.Icons.of(MaterialDesignC.CHEVRON_DOUBLE_RIGHT, 16));
        b.setId("side-fold");
        b.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        b.setTooltip(new javafx.scene.control.Tooltip("Fold approvals and conflicts to a narrow rail (Ctrl+B); they"
                + " open again when a request or a conflict arrives"));
        b.setOnAction(e -> fold.fold());
        return b;
    }

    /** Shows the sandboxes tab and opens the New Sandbox dialog (Ctrl+N). */
    public void newSandbox() {
        sandboxes.newSandbox();
    }

    /**
     * Selects the sandboxes tab (0, Ctrl+1), the worktrees tab (1, Ctrl+2), the containers tab (2, Ctrl+3) or the
     * merge queue tab (3, Ctrl+4).
     */
    public void selectTab(int index) {
        tabs.getSelectionModel().select(index);
    }
}
