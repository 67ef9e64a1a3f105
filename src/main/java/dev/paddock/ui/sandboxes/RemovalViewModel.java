package dev.paddock.ui.sandboxes;

import dev.paddock.sandbox.RemovalPlan;
import dev.paddock.sandbox.RemoveMode;
import dev.paddock.ui.common.UiError;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Removing one or more sandboxes (strict by default): first what each removal would
 * lose (its {@link RemovalPlan}), then the person's choice — keep, remove (only what loses nothing),
 * commit and remove, or force — and whether to delete the branches too. Plans and removals run off the
 * FX thread; a sandbox that could not be removed stays listed with the reason.
 */
public final class RemovalViewModel {
    private final SandboxBackend backend;
    private final List<String> ids;
    private final Executor io;

    private final ObservableList<RemovalPlan> plans = FXCollections.observableArrayList();
    private final ObservableList<RemovalPlan> plansView = FXCollections.unmodifiableObservableList(plans);
    private final BooleanProperty deleteBranch = new SimpleBooleanProperty(false);
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper progress = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper done = new ReadOnlyBooleanWrapper();
    private final BooleanBinding anyLoses;
    private final BooleanBinding anyClean;
    private final BooleanBinding anyUncommitted;
    private final BooleanBinding allBranchesMerged;

    /** Removal of the sandboxes {@code ids}; call {@link #load()} to compute their plans. */
    public RemovalViewModel(SandboxBackend backend, List<String> ids, Executor io) {
        this.backend = backend;
        this.ids = List.copyOf(ids);
        this.io = io;
        anyLoses = Bindings.createBooleanBinding(() -> plans.stream().anyMatch(p -> !removableStrictly(p)), plans);
        anyClean = Bindings.createBooleanBinding(
                () -> plans.stream().anyMatch(RemovalViewModel::removableStrictly), plans);
        anyUncommitted = Bindings.createBooleanBinding(
                () -> plans.stream().anyMatch(p -> !p.uncommitted().isEmpty()), plans);
        allBranchesMerged = Bindings.createBooleanBinding(
                () -> !plans.isEmpty() && plans.stream().allMatch(RemovalPlan::branchMerged), plans);
    }

    /** Removal of sandboxes whose plans are known already (no {@link #load()} needed). */
    public static RemovalViewModel withPlans(SandboxBackend backend, List<RemovalPlan> known, Executor io) {
        RemovalViewModel vm = new RemovalViewModel(
                backend, known.stream().map(RemovalPlan::sandboxId).toList(), io);
        vm.plans.setAll(known);
        return vm;
    }

    /** Whether a strict removal takes this sandbox: it loses nothing and git has not locked its worktree. */
    public static boolean removableStrictly(RemovalPlan p) {
        return p.losesNothing() && !p.locked();
    }

    // Properties --------------------------------------------------------------------------------

    /** The sandboxes to remove and what removing each would lose. */
    public ObservableList<RemovalPlan> plans() {
        return plansView;
    }

    /** Also delete the branches (a merged branch is deleted anyway). */
    public BooleanProperty deleteBranchProperty() {
        return deleteBranch;
    }

    /** True while the plans are computed. */
    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** True while sandboxes are being removed. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** What is being done right now ("Removing x (2 of 3)…"). */
    public ReadOnlyStringProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** Why planning or removing failed, or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** True once every sandbox asked for was removed. */
    public ReadOnlyBooleanProperty doneProperty() {
        return done.getReadOnlyProperty();
    }

    /** Whether some sandbox cannot be removed strictly (it would lose work, or its worktree is locked). */
    public BooleanBinding anyLosesProperty() {
        return anyLoses;
    }

    /** Whether some sandbox can be removed strictly (nothing lost, not locked). */
    public BooleanBinding anyCleanProperty() {
        return anyClean;
    }

    /** Whether some sandbox has uncommitted files (commit-and-remove makes sense). */
    public BooleanBinding anyUncommittedProperty() {
        return anyUncommitted;
    }

    /** Whether every branch is merged already (then it is deleted anyway). */
    public BooleanBinding allBranchesMergedProperty() {
        return allBranchesMerged;
    }

    /** The ids asked for. */
    public List<String> ids() {
        return ids;
    }

    // Commands ----------------------------------------------------------------------------------

    /** Computes what removing each sandbox would lose, off the FX thread. */
    public CompletableFuture<Void> load() {
        CompletableFuture<Void> finished = new CompletableFuture<>();
        loading.set(true);
        io.execute(() -> {
            List<RemovalPlan> found = new ArrayList<>();
            Exception failure = null;
            for (String id : ids) {
                try {
                    found.add(backend.plan(id));
                } catch (Exception e) {
                    failure = e;
                    break;
                }
            }
            Exception f = failure;
            Platform.runLater(() -> {
                loading.set(false);
                if (f != null) {
                    error.set(UiError.of("Cannot tell what removing would lose", f));
                } else {
                    plans.setAll(found);
                }
                finished.complete(null);
            });
        });
        return finished;
    }

    /**
     * Removes the sandboxes listed: with {@link RemoveMode#STRICT} only those that lose nothing (the others
     * stay listed), else all of them in that mode. Completes on the FX thread.
     */
    public CompletableFuture<Void> remove(RemoveMode mode) {
        CompletableFuture<Void> finished = new CompletableFuture<>();
        List<RemovalPlan> targets = plans.stream()
                .filter(p -> mode != RemoveMode.STRICT || removableStrictly(p))
                .toList();
        if (targets.isEmpty() || busy.get()) {
            finished.complete(null);
            return finished;
        }
        boolean branches = deleteBranch.get();
        busy.set(true);
        error.set(null);
        io.execute(() -> {
            List<String> removed = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            Exception last = null;
            int n = 0;
            for (RemovalPlan p : targets) {
                n++;
                String step = verb(mode) + " " + p.sandboxId()
                        + (targets.size() > 1 ? " (" + n + " of " + targets.size() + ")" : "") + "…";
                Platform.runLater(() -> progress.set(step));
                try {
                    backend.remove(p.sandboxId(), mode, branches);
                    removed.add(p.sandboxId());
                } catch (Exception e) {
                    failures.add(p.sandboxId() + ": " + e.getMessage());
                    last = e;
                }
            }
            Exception cause = last;
            Platform.runLater(() -> {
                busy.set(false);
                progress.set(null);
                plans.removeIf(p -> removed.contains(p.sandboxId()));
                if (cause != null) {
                    error.set(new UiError(
                            (failures.size() == 1
                                            ? "Could not remove "
                                            : "Could not remove " + failures.size() + " sandboxes: ")
                                    + String.join("; ", failures),
                            UiError.of(cause).details()));
                }
                if (plans.isEmpty()) {
                    done.set(true);
                }
                finished.complete(null);
            });
        });
        return finished;
    }

    private static String verb(RemoveMode mode) {
        return switch (mode) {
            case STRICT -> "Removing";
            case COMMIT -> "Committing and removing";
            case FORCE -> "Force-removing";
        };
    }
}
