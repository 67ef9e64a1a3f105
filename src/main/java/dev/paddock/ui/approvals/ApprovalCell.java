package dev.paddock.ui.approvals;

import atlantafx.base.theme.Styles;
import dev.paddock.approval.Approval;
import dev.paddock.ui.common.Formats;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import java.time.Duration;
import java.time.Instant;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.collections.SetChangeListener;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.Ikon;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;
import org.kordamp.ikonli.materialdesign2.MaterialDesignM;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;
import org.kordamp.ikonli.materialdesign2.MaterialDesignW;

/**
 * One pending request: tool and sandbox (a fan-out's sandbox marked with the end of its id, "claude-2"; its agent and
 * branch below), time left before it is denied, the full command (selectable),
 * its working directory, the rule that asked, its age, and the buttons that decide it. Ages and the
 * countdown follow the view model's clock.
 */
final class ApprovalCell extends ListCell<Approval> {
    /** Node ids inside a cell (unique per cell, not per scene), for tests. */
    static final String APPROVE = "approval-approve";

    static final String DENY = "approval-deny";
    static final String DENY_REASON = "approval-deny-reason-open";
    static final String ALLOW = "approval-allow";
    /** Below this much time left, the countdown turns red. */
    private static final Duration SOON = Duration.ofMinutes(1);

    /** What the buttons of a cell do. */
    interface Actions {
        void approve(Approval a);

        void deny(Approval a);

        void denyWithReason(Approval a, javafx.scene.Node anchor);

        void approveAndAllow(Approval a);
    }

    private final ReadOnlyObjectProperty<Instant> now;
    private final javafx.collections.ObservableSet<Long> deciding;
    private final java.util.function.Function<String, Asker> askers;
    /** The end of a fan-out sandbox's id ("claude-2"), before the id: what tells its cards apart. */
    private final Label member = new Label();
    /** Its agent and branch. */
    private final Label who = new Label();

    private final Label tool = new Label();
    private final Label sandbox = new Label();
    private final Label left = new Label();
    private final CommandText command = new CommandText();
    private final Label cwd = new Label();
    private final Label rule = new Label();
    private final Label age = new Label();
    private final Button approve;
    private final Button deny;
    private final Button denyReason;
    private final Button allow;
    private final VBox box;

    /** @param askers who asks, by sandbox id (null when not known): shown beside the sandbox's id */
    ApprovalCell(
            ReadOnlyObjectProperty<Instant> now,
            javafx.collections.ObservableSet<Long> deciding,
            java.util.function.Function<String, Asker> askers,
            Actions actions) {
        this.now = now;
        this.deciding = deciding;
        this.askers = askers;
        getStyleClass().add(Style.APPROVAL_CELL);
        tool.getStyleClass().addAll(Style.CHIP, Style.CHIP_WARNING);
        tool.setMinWidth(Region.USE_PREF_SIZE);
        sandbox.getStyleClass().add(Style.APPROVAL_SANDBOX);
        sandbox.setMinWidth(0);
        // A long id loses its middle: its end ("-claude-2") tells a fan-out's sandboxes apart.
        sandbox.setTextOverrun(javafx.scene.control.OverrunStyle.CENTER_ELLIPSIS);
        member.getStyleClass().addAll(Style.CHIP, Style.CHIP_ACCENT, Style.APPROVAL_MEMBER);
        member.setGraphic(Icons.of(MaterialDesignS.SOURCE_FORK, 12));
        member.setMinWidth(Region.USE_PREF_SIZE);
        member.managedProperty().bind(member.visibleProperty());
        who.getStyleClass().addAll(Style.MUTED, Style.APPROVAL_DETAIL, Style.APPROVAL_WHO);
        who.setGraphic(Icons.of(MaterialDesignS.SOURCE_BRANCH, 14));
        who.setMinWidth(0);
        who.setMaxWidth(Double.MAX_VALUE);
        who.setTextOverrun(javafx.scene.control.OverrunStyle.CENTER_ELLIPSIS);
        who.managedProperty().bind(who.visibleProperty());
        left.getStyleClass().add(Style.APPROVAL_LEFT);
        left.setMinWidth(Region.USE_PREF_SIZE);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox head = new HBox(8, tool, member, sandbox);
        head.setAlignment(Pos.CENTER_LEFT);

        cwd.setGraphic(Icons.of(MaterialDesignF.FOLDER_OUTLINE, 14));
        rule.setGraphic(Icons.of(MaterialDesignS.SHIELD_OUTLINE, 14));
        age.setGraphic(Icons.of(MaterialDesignC.CLOCK_OUTLINE, 14));
        for (Label l : new Label[] {cwd, rule, age}) {
            l.getStyleClass().addAll(Style.MUTED, Style.APPROVAL_DETAIL);
            l.setMinWidth(0);
            l.setMaxWidth(Double.MAX_VALUE);
        }
        // Long paths keep their end (the interesting part) and the tooltip has them whole.
        cwd.setTextOverrun(javafx.scene.control.OverrunStyle.LEADING_ELLIPSIS);

        approve = button(
                APPROVE,
                "Approve",
                MaterialDesignC.CHECK,
                "success",
                "Let the agent run this once (A)",
                () -> actions.approve(getItem()));
        deny = button(
                DENY,
                "Deny",
                MaterialDesignC.CLOSE,
                "danger",
                "Refuse; the agent is told \"denied by you in the panel\" (D)",
                () -> actions.deny(getItem()));
        denyReason = button(
                DENY_REASON,
                null,
                MaterialDesignM.MESSAGE_TEXT_OUTLINE,
                null,
                "Deny with a reason for the agent (Shift+D)",
                null);
        denyReason.setOnAction(e -> actions.denyWithReason(getItem(), denyReason));
        allow = button(
                ALLOW,
                "Approve & always allow",
                MaterialDesignS.SHIELD_CHECK_OUTLINE,
                null,
                "Approve, and write an allow rule for commands like this one to the repository's"
                        + " .paddock/policy.json, so they no longer ask",
                () -> actions.approveAndAllow(getItem()));
        HBox decide = new HBox(0, deny, denyReason);
        decide.getStyleClass().add(Style.APPROVAL_DENY_GROUP);
        FlowPane buttons = new FlowPane(6, 6, approve, decide, allow);
        buttons.setAlignment(Pos.CENTER_LEFT);

        age.setMinWidth(Region.USE_PREF_SIZE);
        HBox times = new HBox(6, age, spacer, left);
        times.setAlignment(Pos.CENTER_LEFT);
        box = new VBox(6, head, who, command, rule, cwd, times, buttons);
        box.getStyleClass().add(Style.APPROVAL);
        // Cells take the list's width: long text wraps or is cut instead of growing a horizontal bar.
        setPrefWidth(0);
        now.addListener((o, a, b) -> {
            showTimes();
            showAsker(); // the sandbox's row may arrive after its request
        });
        deciding.addListener((SetChangeListener<Long>) c -> showDeciding());
    }

    private Button button(String id, String text, Ikon icon, String style, String tip, Runnable action) {
        Button b = new Button(text, Icons.of(icon, 14));
        b.setId(id);
        b.getStyleClass().add(Styles.SMALL);
        if (style != null) {
            b.getStyleClass().add(style);
        }
        if (text == null) {
            b.getStyleClass().add(Styles.BUTTON_ICON);
        }
        b.setTooltip(new Tooltip(tip));
        b.setMinWidth(Region.USE_PREF_SIZE);
        if (action != null) {
            b.setOnAction(e -> {
                if (getItem() != null) {
                    action.run();
                }
            });
        }
        return b;
    }

    @Override
    protected void updateItem(Approval a, boolean empty) {
        super.updateItem(a, empty);
        if (empty || a == null) {
            setGraphic(null);
            return;
        }
        tool.setText(a.tool());
        tool.setGraphic(Icons.of(toolIcon(a.tool()), 14));
        sandbox.setText(a.sandboxId());
        sandbox.setTooltip(new Tooltip(
                "Sandbox " + a.sandboxId() + (a.sessionId() == null ? "" : "\nClaude Code session " + a.sessionId())));
        String what = a.request() == null || a.request().isEmpty()
                ? "(" + a.tool() + " with no command or path)"
                : a.request();
        if (!what.equals(command.getText())) {
            command.setText(what);
        }
        cwd.setText(a.cwd());
        cwd.setTooltip(new Tooltip("Working directory: " + a.cwd()));
        rule.setText(
                a.matchedRule() == null ? "no rule matched: unlisted commands ask" : "asked by " + a.matchedRule());
        rule.setTooltip(new Tooltip(a.reason() == null ? rule.getText() : a.reason()));
        showAsker();
        showTimes();
        showDeciding();
        setGraphic(box);
    }

    /** The sandbox's place in its fan-out, its agent and its branch, as far as they are known. */
    private void showAsker() {
        Approval a = getItem();
        if (a == null) {
            return;
        }
        Asker asker = a.sandboxId() == null ? null : askers.apply(a.sandboxId());
        String m = asker == null ? null : asker.member();
        member.setText(m);
        member.setVisible(m != null);
        String d = asker == null ? null : asker.detail();
        who.setText(d);
        who.setVisible(d != null);
        who.setTooltip(d == null ? null : new Tooltip("Asked by the agent of sandbox " + a.sandboxId() + ": " + d));
        member.setTooltip(m == null ? null : new Tooltip("One of the sandboxes of a fan-out: " + a.sandboxId()));
    }

    /*
     * A cell lays its graphic out at the graphic's preferred width, but asks its height at the cell's whole width:
     * where the box prefers less than the list gives, its buttons wrap to a second row the height has no room for,
     * and the next card covers them. The box takes the cell's whole width here, and its height is asked at that
     * same width.
     */
    @Override
    protected double computePrefHeight(double width) {
        if (getGraphic() != box) {
            return super.computePrefHeight(width);
        }
        double w = width > 0 ? width : getWidth();
        return snappedTopInset()
                + box.prefHeight(Math.max(0, w - snappedLeftInset() - snappedRightInset()))
                + snappedBottomInset();
    }

    @Override
    protected void layoutChildren() {
        super.layoutChildren();
        if (getGraphic() == box) {
            double w = Math.max(0, getWidth() - snappedLeftInset() - snappedRightInset());
            box.resizeRelocate(snappedLeftInset(), snappedTopInset(), w, box.prefHeight(w));
        }
    }

    private void showTimes() {
        Approval a = getItem();
        if (a == null) {
            return;
        }
        Instant t = now.get();
        age.setText("asked " + Formats.ago(a.requestedAt(), t));
        age.setTooltip(new Tooltip("Asked at " + Formats.clock(a.requestedAt(), t)));
        if (a.expiresAt() == null) {
            left.setText("");
            return;
        }
        String l = Formats.left(a.expiresAt(), t);
        left.setText(l.equals("expired") ? "denied now" : "denied in " + l.replace(" left", ""));
        left.setTooltip(new Tooltip("Denied automatically at " + Formats.clock(a.expiresAt(), t)
                + " unless someone decides (setting approval.timeoutMs)"));
        boolean soon = Duration.between(t, a.expiresAt()).compareTo(SOON) < 0;
        left.getStyleClass().removeAll(Style.APPROVAL_LEFT_SOON);
        if (soon) {
            left.getStyleClass().add(Style.APPROVAL_LEFT_SOON);
        }
    }

    private void showDeciding() {
        Approval a = getItem();
        boolean busy = a != null && deciding.contains(a.id());
        approve.setDisable(busy);
        deny.setDisable(busy);
        denyReason.setDisable(busy);
        allow.setDisable(busy);
    }

    private static Ikon toolIcon(String tool) {
        return switch (tool) {
            case "Bash" -> MaterialDesignC.CONSOLE;
            case "Read" -> MaterialDesignF.FILE_EYE_OUTLINE;
            case "Edit", "Write", "MultiEdit", "NotebookEdit" -> MaterialDesignF.FILE_EDIT_OUTLINE;
            case "WebFetch", "WebSearch" -> MaterialDesignW.WEB;
            default -> MaterialDesignS.SHIELD_ACCOUNT_OUTLINE;
        };
    }
}
