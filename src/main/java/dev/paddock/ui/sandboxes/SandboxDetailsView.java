package dev.paddock.ui.sandboxes;

import atlantafx.base.theme.Styles;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.common.EmptyState;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import java.util.List;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.IndexRange;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The details of the selected sandbox: a header (id, state, branch, the task whole, last error, "waiting for you" and the
 * follow-up field with its Send button for agents that can resume) over five tabs ({@link DetailsTabs}) — the agent's
 * transcript ({@link TranscriptPane}, first for an agent preset) and its log (first for a custom command), both
 * followed live and kept at the bottom unless the person scrolled up, the state history, the worktree's change list
 * against its base, and its checkpoints.
 */
final class SandboxDetailsView extends VBox {
    static final String ID = "sandbox-details";
    /** How many lines of the task the header shows (the tooltip has it all). */
    private static final double TASK_LINES = 2;

    private final SandboxDetailsViewModel vm;
    private final TextArea log = new TextArea();
    private final Label title = new Label();
    private final HBox stateBox = new HBox();
    private final Label subtitle = new Label();
    private final HBox firstLine = new HBox();
    private final Label lastError = new Label();
    /** What the agent was asked, whole (the table's Task column gives way first on a small screen). */
    private final Label task = new Label();

    private final TextField followUp = new TextField();
    private final DetailsTabs tabs;
    private final WaitingLineClock waitingClock;

    SandboxDetailsView(SandboxDetailsViewModel vm) {
        this.vm = vm;
        setId(ID);
        getStyleClass().add(Style.DETAILS);

        title.setId("sandbox-details-title");
        title.getStyleClass().add(Style.DETAILS_TITLE);
        subtitle.getStyleClass().add(Style.MUTED);
        subtitle.setMinWidth(0);
        lastError.setId("sandbox-details-error");
        lastError.getStyleClass().add(Style.DETAILS_ERROR);
        lastError.setMinWidth(0);
        lastError.managedProperty().bind(lastError.visibleProperty());
        title.setMinWidth(Region.USE_PREF_SIZE);
        stateBox.setMinWidth(Region.USE_PREF_SIZE);
        lastError.setWrapText(true);
        lastError.setMaxHeight(40);
        firstLine.getChildren().setAll(title, stateBox, subtitle);
        firstLine.setSpacing(10);
        subtitle.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(subtitle, javafx.scene.layout.Priority.ALWAYS);
        firstLine.setAlignment(Pos.CENTER_LEFT);
        task.setId("sandbox-details-task");
        task.setMinWidth(0);
        task.setWrapText(true);
        // At most two lines (a long task keeps its start and says so with an ellipsis; whole in the tooltip):
        // two lines of its font and half a line to spare (a text needing a hair more than its room shows one line
        // less): a third line would not fit, and the text ends with an ellipsis instead.
        task.maxHeightProperty().bind(task.fontProperty().map(f -> Math.ceil(f.getSize() * 1.4 * (TASK_LINES + 0.5))));
        // The header's boxes ask a label its height before its width is known (one line): once it has a width, it
        // keeps the height of its wrapped lines. The width arrives during a layout pass, which may clear the request
        // a new height makes: the header is asked again after it.
        javafx.beans.InvalidationListener fit = o -> {
            double w = task.getWidth();
            if (w > 0) {
                double h = Math.min(task.getMaxHeight(), Math.ceil(task.prefHeight(w)) + 2);
                if (h != task.getMinHeight()) {
                    task.setMinHeight(h);
                    javafx.application.Platform.runLater(task::requestLayout);
                }
            }
        };
        task.widthProperty().addListener(fit);
        task.textProperty().addListener(fit);
        task.fontProperty().addListener(fit);
        VBox header = new VBox(2, firstLine, task, lastError, followUpBar(), new ReviewBar(vm.review()));
        header.getStyleClass().add(Style.DETAILS_HEADER);

        log.setId("sandbox-log");
        log.setEditable(false);
        log.setWrapText(false);
        log.getStyleClass().addAll(Style.MONO, Style.LOG);
        log.setPromptText("The agent's output appears here as it runs.");
        vm.logTextProperty().addListener((o, old, text) -> showLog(old, text));

        DetailsLists lists = new DetailsLists(vm);
        tabs = new DetailsTabs(
                vm,
                new TranscriptPane(vm.transcript()),
                log,
                lists.history(),
                new ChangesPane(vm),
                lists.checkpoints());
        VBox.setVgrow(tabs, Priority.ALWAYS);

        ErrorBox error = new ErrorBox(null).bindTo(vm.errorProperty());
        error.setId("sandbox-details-problem");

        VBox content = new VBox(6, header, error, tabs);
        VBox.setVgrow(content, Priority.ALWAYS);
        EmptyState none = new EmptyState(
                MaterialDesignR.ROBOT_OUTLINE,
                "No sandbox selected",
                "Select a sandbox above to follow its agent's log, see its state history and what it changed.");
        StackPane stack = new StackPane(content, none);
        VBox.setVgrow(stack, Priority.ALWAYS);
        content.visibleProperty().bind(vm.sandboxProperty().isNotNull());
        none.visibleProperty().bind(vm.sandboxProperty().isNull());
        getChildren().add(stack);

        // "Its turn ended 7 s ago" counts on while it shows.
        waitingClock = new WaitingLineClock(this, followUp, vm.sandboxProperty()::get);
        vm.sandboxProperty().addListener((o, a, s) -> showHeader(s));
        showHeader(vm.sandboxProperty().get());
    }

    /** Shows the tab of {@code section} (the Compare view opens a sandbox on its Changes). */
    void showSection(SandboxDetailsViewModel.Section section) {
        tabs.select(section);
    }

    /** Puts {@code action} at the end of the header's first line (the sandboxes' view adds Compare there). */
    void addHeaderAction(javafx.scene.Node action) {
        firstLine.getChildren().add(action);
    }

    private void showHeader(RepositoryStatus.Sandbox s) {
        tabs.show(s);
        waitingClock.update();
        if (s == null) {
            title.setText(null);
            stateBox.getChildren().clear();
            subtitle.setText(null);
            task.setText(null);
            task.setTooltip(null);
            lastError.setVisible(false);
            return;
        }
        title.setText(s.id());
        showState(s);
        // The agent's last words are the field's prompt while it waits: one line less above the log at 768 px.
        followUp.setPromptText(s.waitingForYou() ? WaitingLineClock.line(s) : followUpPrompt(s.state()));
        followUp.setTooltip(s.waitingForYou() ? new Tooltip(StateChips.waitingText(s)) : null);
        subtitle.setText(
                s.tier() + " · " + s.branch() + (s.retryCount() > 0 ? " · retries used: " + s.retryCount() : ""));
        subtitle.setTooltip(new Tooltip(s.worktreePath()));
        String asked = s.task() == null ? "" : s.task().strip().replaceAll("\\s+", " ");
        task.setText(asked);
        task.setTooltip(asked.isEmpty() ? null : wrapped(s.task()));
        boolean failed = s.lastError() != null && !s.lastError().isBlank();
        // While it runs again (or waits to), the error is the previous run's: said so, and not in red.
        boolean again = List.of("running", "pending", "retrying").contains(s.state());
        lastError.setVisible(failed);
        lastError.setText(failed ? (again ? "Previous run: " : "") + StateChips.describeError(s) : null);
        if (again) {
            lastError.getStyleClass().remove(Style.DETAILS_ERROR);
        } else if (!lastError.getStyleClass().contains(Style.DETAILS_ERROR)) {
            lastError.getStyleClass().add(Style.DETAILS_ERROR);
        }
        lastError.setTooltip(failed ? new Tooltip(lastError.getText()) : null);
    }

    /** What the follow-up field says while it takes no follow-up, or how to send one. */
    static String followUpPrompt(String state) {
        return switch (state) {
            case "pending", "running", "retrying" -> "Its agent is at work: a follow-up goes once its turn ends.";
            case "merging", "conflict" -> "Its branch is in the merge queue: it takes no follow-up there.";
            case "merged", "cleaning", "closed" -> "Its run is over for good: it takes no follow-up.";
            default ->
                SandboxDetailsViewModel.FOLLOW_UP_STATES.contains(state)
                        ? "A follow-up for the agent: it resumes its session with it (Enter sends)"
                        : "It takes no follow-up now (" + state.replace('_', ' ') + ").";
        };
    }

    /** A tooltip that wraps at a readable width (a long task is one line of several hundred characters). */
    private static Tooltip wrapped(String text) {
        Tooltip t = new Tooltip(text);
        t.setWrapText(true);
        t.setMaxWidth(600);
        return t;
    }

    /**
     * Shows {@code asking} (pending approval requests by sandbox id) in the header as the table does: "waiting for
     * approval" beside the state while the selected sandbox's agent is blocked on a request.
     */
    void followAsking(javafx.beans.value.ObservableValue<java.util.Map<String, List<String>>> asking) {
        this.asking = asking;
        asking.addListener((o, was, is) -> showState(vm.sandboxProperty().get()));
        showState(vm.sandboxProperty().get());
    }

    private javafx.beans.value.ObservableValue<java.util.Map<String, List<String>>> asking;

    /** The header's chips: the state, and "waiting for approval" or "waiting for you" when they hold. */
    private void showState(RepositoryStatus.Sandbox s) {
        if (s == null) {
            stateBox.getChildren().clear();
            return;
        }
        stateBox.getChildren().setAll(StateChips.stateChip(s.state()));
        List<String> asks = asking == null || asking.getValue() == null
                ? null
                : asking.getValue().get(s.id());
        if (asks != null && !s.engineUnreachable()) {
            Label flag = StateChips.askingChip(s);
            flag.setId("sandbox-details-asking");
            flag.setTooltip(new Tooltip(StateChips.askingText(s, asks)));
            stateBox.getChildren().add(flag);
        }
        if (s.waitingForYou()) {
            Label flag = StateChips.waitingChip();
            flag.setId("sandbox-details-waiting");
            flag.setTooltip(new Tooltip(StateChips.waitingText(s)));
            stateBox.getChildren().add(flag);
        }
        stateBox.setSpacing(4);
    }

    // Follow-up -------------------------------------------------------------------------------------

    /** The follow-up field and its Send button (Enter in the field, or Alt+S), for agents that can resume. */
    private VBox followUpBar() {
        followUp.setId("sandbox-follow-up");
        followUp.textProperty().bindBidirectional(vm.followUpTextProperty());
        followUp.setOnAction(e -> {
            if (vm.canSendProperty().get()) {
                vm.sendFollowUp();
            }
        });
        followUp.disableProperty().bind(vm.sendingProperty());
        HBox.setHgrow(followUp, Priority.ALWAYS);
        Button send = new Button("_Send", Icons.of(MaterialDesignS.SEND, 14));
        send.setId("sandbox-follow-up-send");
        send.setMnemonicParsing(true);
        send.getStyleClass().add(Styles.ACCENT);
        send.setMinWidth(Region.USE_PREF_SIZE);
        send.setTooltip(new Tooltip("Send the follow-up: the agent resumes its session in the same worktree and tier"
                + " (Enter in the field, or Alt+S)"));
        send.disableProperty().bind(vm.canSendProperty().not());
        send.setOnAction(e -> vm.sendFollowUp());
        HBox bar = new HBox(6, followUp, send);
        bar.setAlignment(Pos.CENTER_LEFT);
        Label notice = new Label();
        notice.setId("sandbox-follow-up-notice");
        notice.getStyleClass().add(Style.MUTED);
        notice.setMinWidth(0);
        notice.textProperty().bind(vm.followUpNoticeProperty());
        notice.visibleProperty().bind(vm.followUpNoticeProperty().isNotNull());
        notice.managedProperty().bind(notice.visibleProperty());
        ErrorBox problem = new ErrorBox(null).bindTo(vm.followUpProblemProperty());
        problem.setId("sandbox-follow-up-problem");
        VBox box = new VBox(4, bar, notice, problem);
        box.setId("sandbox-follow-up-bar");
        box.setPadding(new javafx.geometry.Insets(4, 0, 0, 0));
        box.visibleProperty().bind(vm.canFollowUpProperty());
        box.managedProperty().bind(box.visibleProperty());
        return box;
    }

    // Log -----------------------------------------------------------------------------------------

    /**
     * Brings the text area to the new log text: appends when the text grew, replaces it otherwise. The
     * view stays at the bottom if it was there; else the scroll position and the selection are kept.
     */
    private void showLog(String old, String text) {
        boolean atBottom = isAtBottom();
        double top = log.getScrollTop();
        IndexRange sel = log.getSelection();
        int anchor = log.getAnchor();
        int caret = log.getCaretPosition();
        String shown = log.getText();
        if (text.length() >= shown.length() && text.startsWith(shown)) {
            log.appendText(text.substring(shown.length()));
            if (sel.getLength() > 0) {
                log.selectRange(anchor, caret);
            }
        } else {
            log.setText(text);
        }
        if (atBottom) {
            log.positionCaret(log.getLength());
            scrollToBottom();
        } else {
            if (sel.getLength() == 0) {
                log.positionCaret(Math.min(caret, log.getLength()));
            }
            log.setScrollTop(top);
        }
    }

    private void scrollToBottom() {
        log.applyCss();
        log.layout();
        ScrollPane sp = (ScrollPane) log.lookup(".scroll-pane");
        if (sp != null) {
            sp.setVvalue(sp.getVmax());
        }
    }

    /** Whether the log shows its last line (or all of it fits). */
    boolean isAtBottom() {
        ScrollPane sp = (ScrollPane) log.lookup(".scroll-pane");
        if (sp == null || sp.getContent() == null) {
            return true;
        }
        double content = sp.getContent().getLayoutBounds().getHeight();
        double viewport = sp.getViewportBounds().getHeight();
        return content <= viewport + 1 || sp.getVvalue() >= sp.getVmax() - 0.001;
    }
}
