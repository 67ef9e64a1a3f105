package dev.paddock.ui.sandboxes;

import atlantafx.base.theme.Styles;
import dev.paddock.sandbox.RemovalPlan;
import dev.paddock.sandbox.RemoveMode;
import dev.paddock.ui.common.ErrorBox;
import dev.paddock.ui.common.Icons;
import dev.paddock.ui.theme.Style;
import dev.paddock.ui.theme.Theme;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.event.ActionEvent;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tooltip;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Window;
import org.kordamp.ikonli.materialdesign2.MaterialDesignA;
import org.kordamp.ikonli.materialdesign2.MaterialDesignC;
import org.kordamp.ikonli.materialdesign2.MaterialDesignF;
import org.kordamp.ikonli.materialdesign2.MaterialDesignR;
import org.kordamp.ikonli.materialdesign2.MaterialDesignS;

/**
 * Asks before removing sandboxes, showing what would be lost (uncommitted files, commits the base
 * branch lacks). Strict by default: Enter keeps everything unless nothing would be lost. The choices:
 * Keep, Remove (only what loses nothing), Commit and remove, Force remove, and whether to delete the
 * branches too. Removal runs off the FX thread with progress; failures are shown here.
 */
public final class RemovalDialog extends Dialog<Boolean> {
    public static final ButtonType KEEP = new ButtonType("Keep", ButtonBar.ButtonData.CANCEL_CLOSE);
    public static final ButtonType REMOVE = new ButtonType("Remove", ButtonBar.ButtonData.OK_DONE);
    public static final ButtonType COMMIT = new ButtonType("Commit and remove", ButtonBar.ButtonData.OTHER);
    public static final ButtonType FORCE = new ButtonType("Force remove", ButtonBar.ButtonData.OTHER);

    /** The most room a failure takes, in px, and the least (a few lines; the rest scrolls). */
    private static final double ERROR_HEIGHT = 160;

    private static final double ERROR_MIN_HEIGHT = 64;

    private final RemovalViewModel vm;
    private final Label summary = new Label();
    private final TreeView<String> tree = new TreeView<>(new TreeItem<>());

    public RemovalDialog(RemovalViewModel vm, Window owner) {
        this.vm = vm;
        setTitle(
                vm.ids().size() == 1
                        ? "Remove " + vm.ids().get(0)
                        : "Remove " + vm.ids().size() + " sandboxes");
        if (owner != null) {
            initOwner(owner);
            initModality(Modality.WINDOW_MODAL);
        }
        setResizable(true);
        getDialogPane().setId("removal-dialog");
        getDialogPane().setUserData(this); // the dialog of a pane found in the scene graph (tests, tools)
        getDialogPane().getStyleClass().add(Style.DIALOG);
        Theme.adopt(getDialogPane(), owner == null ? null : owner.getScene());
        getDialogPane().setPrefWidth(640);

        summary.setId("removal-summary");
        summary.setWrapText(true);
        // Wrapped labels in a VBox keep their full height (else they are cut to one line with "..."); the tree
        // gives up the room.
        summary.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        tree.setId("removal-plan");
        tree.setShowRoot(false);
        tree.setPrefHeight(220);
        tree.setMinHeight(80);

        CheckBox deleteBranch = new CheckBox();
        deleteBranch.setId("removal-delete-branch");
        deleteBranch
                .textProperty()
                .bind(Bindings.createStringBinding(
                        () -> vm.allBranchesMergedProperty().get()
                                ? (vm.ids().size() == 1
                                        ? "The branch is merged: it is deleted with the worktree"
                                        : "The branches are merged: they are deleted with the worktrees")
                                : vm.ids().size() == 1 ? "Delete the branch too" : "Delete the branches too",
                        vm.allBranchesMergedProperty()));
        deleteBranch.selectedProperty().bindBidirectional(vm.deleteBranchProperty());
        // Merged branches go anyway: nothing to choose then.
        deleteBranch.disableProperty().bind(vm.allBranchesMergedProperty());
        deleteBranch.setTooltip(new Tooltip("Unchecked, a branch that is not merged is kept, with its commits."));
        Label branchWarning = new Label(
                "Commits that are on no other branch are lost with the branch.",
                Icons.of(MaterialDesignA.ALERT_OUTLINE, 14));
        branchWarning.setId("removal-branch-warning");
        branchWarning.getStyleClass().addAll(Style.FIELD_MESSAGE, Style.FIELD_ERROR);
        branchWarning
                .visibleProperty()
                .bind(vm.deleteBranchProperty()
                        .and(Bindings.createBooleanBinding(
                                () -> vm.plans().stream()
                                        .anyMatch(p -> !p.unmergedCommits().isEmpty()),
                                vm.plans())));
        branchWarning.managedProperty().bind(branchWarning.visibleProperty());

        Label modes = new Label();
        // Commit is offered only where there are uncommitted files: the text names only the buttons shown.
        modes.textProperty()
                .bind(Bindings.createStringBinding(
                        () -> vm.anyUncommittedProperty().get()
                                ? "Commit and remove commits the uncommitted files on the sandbox's branch and keeps the branch."
                                        + " Force remove deletes the worktree with whatever it holds."
                                : "Force remove deletes the worktree; the branch keeps its commits unless you also delete it.",
                        vm.anyUncommittedProperty()));
        modes.setId("removal-modes");
        modes.setWrapText(true);
        modes.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        modes.getStyleClass().add(Style.FIELD_MESSAGE);
        modes.visibleProperty().bind(vm.anyLosesProperty());
        modes.managedProperty().bind(modes.visibleProperty());

        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(18, 18);
        Label working = new Label(null, spinner);
        working.setId("removal-progress");
        working.getStyleClass().add(Style.MUTED);
        working.textProperty()
                .bind(Bindings.when(vm.loadingProperty())
                        .then("Looking at what would be lost…")
                        .otherwise(vm.progressProperty()));
        working.visibleProperty().bind(vm.loadingProperty().or(vm.busyProperty()));
        working.managedProperty().bind(working.visibleProperty());

        ErrorBox error = new ErrorBox(null).bindTo(vm.errorProperty());
        error.setId("removal-error");
        ScrollPane errorArea = errorArea(error);

        VBox content = new VBox(10, summary, tree, deleteBranch, branchWarning, modes, working, errorArea);
        content.disableProperty().bind(vm.busyProperty());
        getDialogPane().setContent(content);

        vm.plans().addListener((ListChangeListener<RemovalPlan>) c -> showPlans());
        vm.loadingProperty().addListener((o, a, b) -> showPlans());
        vm.errorProperty().addListener((o, a, b) -> showPlans());
        // Shown while the plans load too: the window is sized once, when it opens (a window manager may not
        // follow a dialog that grows), so it must have its full size from the start. Only a failed look hides it.
        tree.visibleProperty().bind(vm.loadingProperty().or(Bindings.isNotEmpty(vm.plans())));
        tree.managedProperty().bind(tree.visibleProperty());
        deleteBranch.visibleProperty().bind(tree.visibleProperty());
        deleteBranch.managedProperty().bind(tree.visibleProperty());
        vm.doneProperty().addListener((o, a, d) -> {
            if (d) {
                setResult(Boolean.TRUE);
                close();
            }
        });
        setOnCloseRequest(e -> {
            if (vm.busyProperty().get()) {
                e.consume();
            }
        });
        setResultConverter(b -> vm.doneProperty().get());
        showPlans();
    }

    /**
     * The error box in an area of at most {@link #ERROR_HEIGHT} px that scrolls: the window is sized when it opens,
     * so a long failure (a commit refused for several sandboxes, say) must neither push the buttons out of it nor be
     * cut. The message wraps to the area's width and is always whole, scrolled to if need be.
     */
    private static ScrollPane errorArea(ErrorBox error) {
        ScrollPane area = new ScrollPane(error);
        area.setId("removal-error-area");
        area.getStyleClass().add(Style.ERROR_SCROLL);
        area.setFitToWidth(true);
        area.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        area.setMinHeight(ERROR_MIN_HEIGHT);
        area.setMaxHeight(ERROR_HEIGHT);
        Runnable fit = () -> {
            double w = area.getViewportBounds().getWidth();
            error.applyCss();
            area.setPrefViewportHeight(Math.min(ERROR_HEIGHT, error.prefHeight(w > 0 ? w : 560)));
        };
        error.errorProperty().addListener((o, a, b) -> fit.run());
        area.viewportBoundsProperty().addListener((o, a, b) -> {
            if (a.getWidth() != b.getWidth()) {
                fit.run();
            }
        });
        error.detailsShownProperty().addListener((o, a, b) -> fit.run());
        area.visibleProperty().bind(error.visibleProperty());
        area.managedProperty().bind(area.visibleProperty());
        return area;
    }

    /** The dialog's ViewModel. */
    public RemovalViewModel viewModel() {
        return vm;
    }

    private void showPlans() {
        List<RemovalPlan> plans = List.copyOf(vm.plans());
        tree.getRoot()
                .getChildren()
                .setAll(plans.stream().map(RemovalDialog::item).toList());
        // What would be lost is shown unfolded; a clean sandbox among several stays folded.
        for (int i = 0; i < plans.size(); i++) {
            expandAll(
                    tree.getRoot().getChildren().get(i),
                    plans.size() == 1 || !RemovalViewModel.removableStrictly(plans.get(i)));
        }
        summary.setText(summaryText(plans));
        buttons(plans);
    }

    private String summaryText(List<RemovalPlan> plans) {
        if (vm.loadingProperty().get()) {
            return "Looking at what removing " + String.join(", ", vm.ids()) + " would lose…";
        }
        if (plans.isEmpty()) {
            return vm.errorProperty().get() != null
                    ? "Paddock could not look at what removing would lose, so" + " nothing will be removed."
                    : "Nothing left to remove.";
        }
        long losing = plans.stream()
                .filter(p -> !RemovalViewModel.removableStrictly(p))
                .count();
        if (losing == 0) {
            return plans.size() == 1
                    ? "Nothing would be lost: the worktree is clean and every commit of its branch"
                            + " is in the base branch. Its record is kept (closed) with its history."
                            + ignored(plans.get(0))
                    : "Nothing would be lost in any of the " + plans.size() + " sandboxes.";
        }
        if (plans.size() == 1) {
            RemovalPlan p = plans.get(0);
            if (p.losesNothing()) {
                return p.sandboxId() + " loses nothing, but git has its worktree locked" + lockReason(p)
                        + ": only Force remove takes it.";
            }
            return "Removing " + p.sandboxId() + " would lose work. Keep it, commit the files first, or force the"
                    + " removal.";
        }
        return losing + " of the " + plans.size() + " sandboxes hold work that removing would lose (or are locked)."
                + " \"Remove\" takes only the others.";
    }

    /** " Removing also deletes 1,204 ignored files in build/ (git ignores them).", or "". */
    private static String ignored(RemovalPlan p) {
        return p.ignored().files() == 0
                ? ""
                : " Removing also deletes " + p.ignored().summary() + " (git ignores them: build output and the like).";
    }

    private static String lockReason(RemovalPlan p) {
        return p.lockedReason() == null || p.lockedReason().isBlank() ? "" : " (\"" + p.lockedReason() + "\")";
    }

    private void buttons(List<RemovalPlan> plans) {
        long clean = plans.stream().filter(RemovalViewModel::removableStrictly).count();
        boolean uncommitted = plans.stream().anyMatch(p -> !p.uncommitted().isEmpty());
        List<ButtonType> types = new ArrayList<>();
        if (!vm.loadingProperty().get() && !plans.isEmpty()) {
            if (clean < plans.size()) {
                types.add(FORCE);
                if (uncommitted) {
                    types.add(COMMIT);
                }
            }
            if (clean > 0) {
                types.add(REMOVE);
            }
        }
        types.add(KEEP);
        if (getDialogPane().getButtonTypes().equals(types)) {
            return;
        }
        getDialogPane().getButtonTypes().setAll(types);
        wire(
                REMOVE,
                RemoveMode.STRICT,
                clean == plans.size() ? "Remove" : "Remove the clean ones (" + clean + ")",
                clean == plans.size(),
                "Remove what would lose nothing (strict)");
        wire(
                COMMIT,
                RemoveMode.COMMIT,
                null,
                false,
                "Commit the uncommitted files on the sandbox's branch, keep the"
                        + " branch, then remove the worktree (not with \"delete the branch\": that would throw the commit away)");
        Button commit = (Button) getDialogPane().lookupButton(COMMIT);
        if (commit != null) {
            commit.disableProperty().bind(vm.busyProperty().or(vm.deleteBranchProperty()));
        }
        wire(FORCE, RemoveMode.FORCE, null, false, "Remove the worktree with whatever it holds");
        Button keep = (Button) getDialogPane().lookupButton(KEEP);
        keep.setId("removal-keep");
        keep.setDefaultButton(clean < plans.size() || plans.isEmpty());
        keep.disableProperty().bind(vm.busyProperty());
        Button force = (Button) getDialogPane().lookupButton(FORCE);
        if (force != null) {
            force.getStyleClass().add(Styles.DANGER);
        }
    }

    private void wire(ButtonType type, RemoveMode mode, String text, boolean isDefault, String tip) {
        Button b = (Button) getDialogPane().lookupButton(type);
        if (b == null) {
            return;
        }
        b.setId("removal-" + mode.name().toLowerCase(java.util.Locale.ROOT));
        if (text != null) {
            b.setText(text);
        }
        b.setDefaultButton(isDefault);
        b.setTooltip(new Tooltip(tip));
        b.disableProperty().bind(vm.busyProperty());
        b.addEventFilter(ActionEvent.ACTION, e -> {
            e.consume(); // the dialog closes once the removal is done; failures are shown here
            vm.remove(mode);
        });
    }

    private static TreeItem<String> item(RemovalPlan p) {
        List<String> notes = new ArrayList<>();
        if (p.losesNothing()) {
            notes.add("nothing would be lost");
        }
        if (p.locked()) {
            notes.add("locked by git");
        }
        if (!p.uncommitted().isEmpty()) {
            notes.add(count(p.uncommitted().size(), "uncommitted file"));
        }
        if (!p.unmergedCommits().isEmpty()) {
            notes.add(count(p.unmergedCommits().size(), "commit") + " not in the base branch");
        }
        if (!p.submoduleCommits().isEmpty()) {
            notes.add(count(p.submoduleCommits().size(), "submodule commit") + " no remote has");
        }
        if (p.running()) {
            notes.add("its agent runs: it is stopped first");
        }
        if (!p.worktreePresent()) {
            notes.add("its worktree is gone already");
        }
        TreeItem<String> root = new TreeItem<>(
                p.sandboxId() + "  —  " + String.join(", ", notes),
                Icons.of(
                        RemovalViewModel.removableStrictly(p)
                                ? MaterialDesignC.CHECK_CIRCLE_OUTLINE
                                : MaterialDesignA.ALERT_OUTLINE,
                        14));
        if (p.locked()) {
            root.getChildren()
                    .add(new TreeItem<>(
                            "Locked (git worktree lock)" + lockReason(p) + ": a strict removal refuses it",
                            Icons.of(org.kordamp.ikonli.materialdesign2.MaterialDesignL.LOCK_OUTLINE, 14)));
        }
        if (!p.uncommitted().isEmpty()) {
            TreeItem<String> files = new TreeItem<>(
                    "Uncommitted files (" + p.uncommitted().size() + ")",
                    Icons.of(MaterialDesignF.FILE_DOCUMENT_EDIT_OUTLINE, 14));
            p.uncommitted().forEach(line -> files.getChildren().add(new TreeItem<>(describeStatus(line))));
            root.getChildren().add(files);
        }
        if (!p.unmergedCommits().isEmpty()) {
            TreeItem<String> commits = new TreeItem<>(
                    "Commits not in the base branch (" + p.unmergedCommits().size() + ")",
                    Icons.of(MaterialDesignS.SOURCE_COMMIT, 14));
            p.unmergedCommits().forEach(c -> commits.getChildren().add(new TreeItem<>(c)));
            root.getChildren().add(commits);
        }
        if (!p.submoduleCommits().isEmpty()) {
            TreeItem<String> commits = new TreeItem<>(
                    "Commits in submodules that no remote has ("
                            + p.submoduleCommits().size() + "): their repositories go with the worktree",
                    Icons.of(MaterialDesignS.SOURCE_COMMIT, 14));
            p.submoduleCommits().forEach(c -> commits.getChildren().add(new TreeItem<>(c)));
            root.getChildren().add(commits);
        }
        if (p.ignored().files() > 0) {
            root.getChildren()
                    .add(new TreeItem<>(
                            "Also deletes " + p.ignored().summary() + ": git ignores them (build"
                                    + " output), so they are not counted as work",
                            Icons.of(MaterialDesignF.FOLDER_OUTLINE, 14)));
        }
        if (p.running()) {
            root.getChildren()
                    .add(new TreeItem<>(
                            "The agent is still running; removing stops it first.", Icons.of(MaterialDesignR.RUN, 14)));
        }
        return root;
    }

    /** A {@code git status --porcelain} line ("XY path") as "path  (untracked)". */
    static String describeStatus(String line) {
        if (line.length() < 4) {
            return line;
        }
        String xy = line.substring(0, 2);
        String path = line.substring(3);
        String what;
        if (xy.equals("??")) {
            what = "untracked";
        } else if (xy.contains("U") || xy.equals("AA") || xy.equals("DD")) {
            what = "conflicted";
        } else if (xy.contains("R")) {
            what = "renamed";
        } else if (xy.contains("A")) {
            what = "added";
        } else if (xy.contains("D")) {
            what = "deleted";
        } else if (xy.contains("M") || xy.contains("T")) {
            what = "modified";
        } else {
            return line;
        }
        return path + "  (" + what + ")";
    }

    private static void expandAll(TreeItem<String> item, boolean expand) {
        item.setExpanded(expand);
        item.getChildren().forEach(c -> expandAll(c, expand));
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
