package dev.paddock.ui.sandboxes;

import dev.paddock.checkpoint.RollbackPlan;
import dev.paddock.common.CommitIds;
import dev.paddock.ui.theme.Style;
import dev.paddock.ui.theme.Theme;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Window;

/**
 * Asks before a rollback, saying what it changes: the files written back, restored and removed (counted, and listed
 * in a scrolled list of at most {@value #LISTED} paths), that the agent is stopped first, that the files as they are
 * now are kept first as a checkpoint (so the rollback can be undone), and that the branch's commits are left alone
 * unless the person also asks (a check box, shown when the branch moved since the checkpoint) for the branch to go
 * back to where it was then. Cancel is the default: Enter does not roll back.
 */
final class RollbackDialog extends Dialog<ButtonType> {
    static final ButtonType ROLL_BACK = new ButtonType("Roll back", ButtonBar.ButtonData.OK_DONE);
    static final ButtonType CANCEL = new ButtonType("Cancel", ButtonBar.ButtonData.CANCEL_CLOSE);
    /** The most paths listed; the rest are counted. */
    static final int LISTED = 500;

    private final CheckBox resetBranch =
            new CheckBox("Also move the branch back to where it was at this checkpoint (its later commits are kept"
                    + " in the new checkpoint)");

    RollbackDialog(RollbackPlan plan, Window owner) {
        setTitle("Roll back " + plan.sandboxId() + " to checkpoint " + plan.to());
        if (owner != null) {
            initOwner(owner);
            initModality(Modality.WINDOW_MODAL);
        }
        setResizable(true);
        getDialogPane().setId("rollback-dialog");
        getDialogPane().setUserData(this);
        getDialogPane().getStyleClass().add(Style.DIALOG);
        Theme.adopt(getDialogPane(), owner == null ? null : owner.getScene());
        getDialogPane().setPrefWidth(620);
        setHeaderText("Roll " + plan.sandboxId() + " back to checkpoint " + plan.to() + " (“"
                + shortened(plan.message()) + "”)?");

        Label summary = wrapped(summary(plan));
        summary.setId("rollback-summary");
        ListView<String> paths = new ListView<>();
        paths.setId("rollback-paths");
        paths.getStyleClass().addAll(Style.MONO, "dense");
        paths.getItems().setAll(lines(plan));
        paths.setPrefHeight(Math.min(200, 26 + 24.0 * paths.getItems().size()));
        paths.setMinHeight(60);
        paths.setVisible(!plan.isEmpty());
        paths.setManaged(!plan.isEmpty());
        Label agent = wrapped(
                plan.stopsAgent() ? "• Its agent is stopped first." : "• Its agent is not running: nothing to stop.");
        agent.setId("rollback-agent");
        Label undo = wrapped("• The files as they are now are kept first, as checkpoint " + plan.nextCheckpoint()
                + " (“before rollback to " + plan.to() + "”): roll back to it to undo this.");
        undo.setId("rollback-undo");
        Label branch = wrapped("• The branch and its commits are left alone, and so are ignored files: only the"
                + " working files change (git status then shows them against the branch).");
        branch.setId("rollback-branch");
        resetBranch.setId("rollback-reset-branch");
        resetBranch.setWrapText(true);
        resetBranch.setMinHeight(Region.USE_PREF_SIZE);
        resetBranch.setVisible(plan.branchMoved());
        resetBranch.setManaged(plan.branchMoved());
        resetBranch
                .selectedProperty()
                .addListener((o, was, reset) -> branch.setText(
                        reset
                                ? "• The branch goes back to " + CommitIds.shortId(plan.headThen())
                                        + ", where it was at checkpoint " + plan.to()
                                        + " (as git reset --mixed); its commits since stay in checkpoint "
                                        + plan.nextCheckpoint()
                                        + ". Ignored files are left alone."
                                : "• The branch and its commits are left alone, and so are ignored files: only the working files"
                                        + " change (git status then shows them against the branch)."));
        VBox content = new VBox(8, summary, paths, agent, undo, branch, resetBranch);
        getDialogPane().setContent(content);
        getDialogPane().getButtonTypes().setAll(CANCEL, ROLL_BACK);
        Button cancel = (Button) getDialogPane().lookupButton(CANCEL);
        Button go = (Button) getDialogPane().lookupButton(ROLL_BACK);
        cancel.setDefaultButton(true);
        go.setDefaultButton(false);
        go.setId("rollback-confirm");
        go.getStyleClass().add(atlantafx.base.theme.Styles.DANGER);
        setResultConverter(b -> b);
    }

    /** Whether the person asked for the branch to be reset too. */
    boolean resetBranch() {
        return resetBranch.isSelected();
    }

    /** "6 files change: 2 written back, 2 restored, 2 removed." */
    static String summary(RollbackPlan plan) {
        if (plan.isEmpty()) {
            return "No file changes: the files are already those of checkpoint " + plan.to() + ".";
        }
        int n = plan.size();
        return n + (n == 1 ? " file changes: " : " files change: ")
                + plan.writtenBack().size() + " written back"
                + " (changed since), " + plan.restored().size() + " restored (deleted since), "
                + plan.removed().size() + " removed (added since).";
    }

    /** One line a path, "written back  a.txt", at most {@value #LISTED}, then how many more. */
    static List<String> lines(RollbackPlan plan) {
        List<String> all = new ArrayList<>();
        plan.writtenBack().forEach(p -> all.add("written back   " + p));
        plan.restored().forEach(p -> all.add("restored       " + p));
        plan.removed().forEach(p -> all.add("removed        " + p));
        if (all.size() <= LISTED) {
            return all;
        }
        List<String> some = new ArrayList<>(all.subList(0, LISTED));
        some.add("… and " + (all.size() - LISTED) + " more");
        return some;
    }

    private static String shortened(String message) {
        String m = message == null ? "" : message.strip().replace('\n', ' ');
        return m.length() > 80 ? m.substring(0, 79) + "…" : m;
    }

    private static Label wrapped(String text) {
        Label l = new Label(text);
        l.setWrapText(true);
        l.setMinHeight(Region.USE_PREF_SIZE);
        return l;
    }
}
