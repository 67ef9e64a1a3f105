package dev.paddock.ui.approvals;

import dev.paddock.approval.Approval;
import dev.paddock.ui.common.EmptyState;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import javafx.animation.PauseTransition;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextInputControl;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.Duration;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignI;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * The approval queue: pending requests of the repository shown, oldest first, each with its buttons.
 * Keys, while the list has the focus (never while typing in a text field): A approves the selected
 * request, D denies it, Shift+D asks for a reason first. A transient note says what the last decision
 * did; a desktop notification announces each new request. Binds to an {@link ApprovalsViewModel}.
 */
public final class ApprovalsView extends VBox {
    /** Node ids, for tests and styling. */
    public static final String LIST_ID = "approval-list";

    static final String NOTE_ID = "approval-note";
    static final String ELSEWHERE_ID = "approval-elsewhere";
    /** Style classes of the note, by the severity of the decision it tells of. */
    static final String NOTE_SUCCESS = Style.APPROVAL_NOTE_SUCCESS;

    static final String NOTE_WARNING = Style.APPROVAL_NOTE_WARNING;
    static final String NOTE_ERROR = Style.APPROVAL_NOTE_ERROR;
    /** How long the note about the last decision shows. */
    static final Duration NOTE_SHOWN = Duration.seconds(12);

    private final ApprovalsViewModel vm;
    private final ListView<Approval> list;
    /** Who asks, by sandbox id (its fan-out's mark, agent and branch), or null. */
    private java.util.function.Function<String, Asker> askers = id -> null;
    /** The request whose Shift+D is down: its reason field opens when D is released. */
    private Approval reasonAsked;

    /** The queue of {@code vm}; notifications are shown over this view's window. */
    public ApprovalsView(ApprovalsViewModel vm) {
        this.vm = vm;
        getStyleClass().add(Style.APPROVALS);
        setSpacing(6);

        Label note = new Label();
        note.setId(NOTE_ID);
        note.setWrapText(true);
        note.setMaxWidth(Double.MAX_VALUE);
        note.setMinHeight(USE_PREF_SIZE);
        note.getStyleClass().add(Style.APPROVAL_NOTE);
        vm.noteProperty().addListener((o, before, n) -> showNote(note, n));
        showNote(note, null);
        PauseTransition fade = new PauseTransition(NOTE_SHOWN);
        fade.setOnFinished(e -> vm.dismissNote());
        vm.noteProperty().addListener((o, before, n) -> {
            if (n != null) {
                fade.playFromStart();
            }
        });
        note.setOnMouseClicked(e -> vm.dismissNote());

        ErrorBox error = new ErrorBox(vm::dismissError).bindTo(vm.errorProperty());
        error.setId("approval-error");

        Label problem = new Label(null, Icons.of(MaterialDesignA.ALERT_CIRCLE_OUTLINE));
        problem.getStyleClass().add(Style.PROBLEM);
        problem.setWrapText(true);
        problem.textProperty().bind(vm.problemProperty());
        problem.visibleProperty().bind(vm.problemProperty().isNotNull());
        problem.managedProperty().bind(problem.visibleProperty());

        list = new ListView<>(vm.rows());
        list.setId(LIST_ID);
        list.getStyleClass().add(Style.APPROVAL_LIST);
        list.setPlaceholder(new EmptyState(
                MaterialDesignS.SHIELD_CHECK_OUTLINE,
                "Nothing to approve",
                "When an agent asks to run a command your policy marks as risky (say, git push), it"
                        + " waits here until you approve (A) or deny (D)."));
        list.setCellFactory(v ->
                new ApprovalCell(vm.nowProperty(), vm.deciding(), id -> askers.apply(id), new ApprovalCell.Actions() {
                    @Override
                    public void approve(Approval a) {
                        vm.approve(a);
                    }

                    @Override
                    public void deny(Approval a) {
                        vm.deny(a, null);
                    }

                    @Override
                    public void denyWithReason(Approval a, Node anchor) {
                        askReason(a, anchor);
                    }

                    @Override
                    public void approveAndAllow(Approval a) {
                        vm.approveAndAllow(a);
                    }
                }));
        list.addEventHandler(KeyEvent.KEY_PRESSED, this::onKey);
        // Shift+D opens the reason field on release: opened on press, the field would get the key's "D".
        list.addEventHandler(KeyEvent.KEY_RELEASED, e -> {
            if (e.getCode() == KeyCode.D && reasonAsked != null) {
                Approval a = reasonAsked;
                reasonAsked = null;
                e.consume();
                askReason(a, selectedCell());
            }
        });
        // A click anywhere in a request but its command text selects it and gives the list the keys.
        list.addEventFilter(MouseEvent.MOUSE_PRESSED, e -> {
            if (!(insideTextInput(e.getTarget()))) {
                list.requestFocus();
            }
        });
        vm.rows().addListener((ListChangeListener<Approval>) c -> keepASelection());
        VBox.setVgrow(list, Priority.ALWAYS);

        Label elsewhere = new Label(null, Icons.of(MaterialDesignI.INFORMATION_OUTLINE, 14));
        elsewhere.setId(ELSEWHERE_ID);
        elsewhere.getStyleClass().add(Style.MUTED);
        elsewhere.setWrapText(true);
        elsewhere.textProperty().bind(vm.elsewhereTextProperty());
        Tooltip elsewhereTip = new Tooltip("Open that repository (the box at the top of the window) to decide them");
        elsewhere.setTooltip(elsewhereTip);
        elsewhere.visibleProperty().bind(vm.elsewhereProperty().greaterThan(0));
        elsewhere.managedProperty().bind(elsewhere.visibleProperty());

        // The note goes below the list: appearing above it, it would move the buttons under the pointer.
        getChildren().addAll(error, problem, list, note, elsewhere);

        ApprovalNotifier notifier = new ApprovalNotifier(() -> anchor, this::reveal);
        vm.setOnArrived(notifier::announce);
        vm.setOnPending(notifier::pending);
    }

    /** A node of the window notifications go to: this view, unless it is placed in a pane that folds. */
    private Node anchor = this;
    /** Shows this view (unfolds the pane it is in) before a notification's request is revealed. */
    private Runnable show = () -> {};

    /**
     * For a view in a pane that folds (and leaves the scene): {@code anchor} stays in the window and is where
     * notifications go, and {@code show} unfolds the pane when a notification is clicked.
     */
    public void placeIn(Node anchor, Runnable show) {
        this.anchor = anchor;
        this.show = show;
    }

    /** Tells the cards who asks, by sandbox id (null when not known): a fan-out's requests can be told apart. */
    public void setAskers(java.util.function.Function<String, Asker> f) {
        askers = f == null ? id -> null : f;
        list.refresh();
    }

    /** The list of requests (to focus it, or for tests). */
    public ListView<Approval> list() {
        return list;
    }

    private void onKey(KeyEvent e) {
        if (insideTextInput(e.getTarget()) || e.isShortcutDown() || e.isAltDown()) {
            return;
        }
        Approval a = list.getSelectionModel().getSelectedItem();
        if (a == null) {
            return;
        }
        if (e.getCode() == KeyCode.A && !e.isShiftDown()) {
            vm.approve(a);
            e.consume();
        } else if (e.getCode() == KeyCode.D) {
            if (e.isShiftDown()) {
                reasonAsked = a;
            } else {
                vm.deny(a, null);
            }
            e.consume();
        }
    }

    private Node selectedCell() {
        return list.lookupAll(".pd-approval-cell").stream()
                .filter(n -> n instanceof ApprovalCell c && c.isSelected() && c.getItem() != null)
                .findFirst()
                .orElse(list);
    }

    private void askReason(Approval a, Node anchor) {
        if (a == null) {
            return;
        }
        DenyReasonPopOver pop = new DenyReasonPopOver("denied by " + vm.who(), reason -> vm.deny(a, reason));
        pop.showAt(anchor);
    }

    /** Keeps one request selected while there are any: the keys act on it. */
    private void keepASelection() {
        if (!vm.rows().isEmpty() && list.getSelectionModel().getSelectedItem() == null) {
            javafx.application.Platform.runLater(() -> {
                if (!vm.rows().isEmpty() && list.getSelectionModel().getSelectedItem() == null) {
                    list.getSelectionModel().selectFirst();
                }
            });
        }
    }

    /** Shows a request (its notification was clicked): brings the window up and selects it. */
    private void reveal(Approval a) {
        show.run();
        if (anchor.getScene() != null && anchor.getScene().getWindow() instanceof javafx.stage.Stage s) {
            s.toFront();
        }
        int i = vm.rows().stream().map(Approval::id).toList().indexOf(a.id());
        if (i >= 0) {
            list.getSelectionModel().select(i);
            list.scrollTo(i);
        }
        list.requestFocus();
    }

    private static boolean insideTextInput(Object target) {
        for (Node n = target instanceof Node node ? node : null; n != null; n = n.getParent()) {
            if (n instanceof TextInputControl) {
                return true;
            }
        }
        return false;
    }

    private static void showNote(Label note, ApprovalsViewModel.Note n) {
        note.setText(n == null ? null : n.text());
        note.getStyleClass().removeAll(NOTE_SUCCESS, NOTE_WARNING, NOTE_ERROR);
        if (n == null) {
            note.setGraphic(null);
        } else {
            switch (n.severity()) {
                case SUCCESS -> {
                    note.setGraphic(Icons.of(MaterialDesignC.CHECK_CIRCLE_OUTLINE, 14));
                    note.getStyleClass().add(NOTE_SUCCESS);
                }
                case ERROR -> {
                    note.setGraphic(Icons.of(MaterialDesignC.CANCEL, 14));
                    note.getStyleClass().add(NOTE_ERROR);
                }
                case WARNING -> {
                    note.setGraphic(Icons.of(MaterialDesignA.ALERT_OUTLINE, 14));
                    note.getStyleClass().add(NOTE_WARNING);
                }
                default -> note.setGraphic(Icons.of(MaterialDesignI.INFORMATION_OUTLINE, 14));
            }
        }
        note.setVisible(n != null);
        note.setManaged(n != null);
    }
}
