package dev.paddock.ui.sandboxes;

import dev.paddock.checkpoint.Checkpoint;
import dev.paddock.checkpoint.Rollback;
import dev.paddock.checkpoint.RollbackPlan;
import dev.paddock.common.CommitIds;
import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.common.UiError;
import dev.paddock.ui.common.UiExecutor;
import dev.paddock.ui.diff.DiffBackend;
import dev.paddock.ui.diff.DiffViewModel;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The Checkpoints tab as a timeline: the checkpoints chosen (one: its change against the checkpoint before it, the
 * sandbox's base for the first; two: the change from the older to the newer) shown in a {@link DiffViewModel}
 * through {@link CheckpointDiffs}, and a rollback to the one chosen: its dry run first (what the confirmation lists),
 * then the rollback. Both run on a {@code ui-io} thread; properties change on the FX thread.
 */
public final class CheckpointTimelineViewModel implements AutoCloseable {
    private final Supplier<SandboxBackend> backend;
    private final ReadOnlyObjectProperty<RepositoryStatus.Sandbox> sandbox;
    private final Runnable onRolledBack;
    private final CheckpointDiffs diffs;
    private final DiffViewModel diff;
    private final ReadOnlyObjectWrapper<List<Integer>> chosen = new ReadOnlyObjectWrapper<>(List.of());
    private final ReadOnlyStringWrapper comparing = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<Checkpoint> target = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper progress = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<UiError> problem = new ReadOnlyObjectWrapper<>();
    private final BooleanBinding canRollBack;

    /**
     * @param backend where checkpoints and rollbacks go (null while Paddock is not running)
     * @param sandbox the sandbox shown
     * @param onRolledBack told on the FX thread after a rollback (the list of checkpoints reloads)
     */
    CheckpointTimelineViewModel(
            Supplier<SandboxBackend> backend,
            ReadOnlyObjectProperty<RepositoryStatus.Sandbox> sandbox,
            Runnable onRolledBack) {
        this.backend = backend;
        this.sandbox = sandbox;
        this.onRolledBack = onRolledBack;
        this.diffs = new CheckpointDiffs(() -> {
            SandboxBackend b = backend.get();
            return b == null ? null : b.diffs();
        });
        this.diff = new DiffViewModel(diffs, "No file differs");
        this.canRollBack = Bindings.createBooleanBinding(
                () -> target.get() != null && !busy.get() && sandbox.get() != null, target, busy, sandbox);
        sandbox.addListener((o, a, b) -> {
            if (a == null || b == null || !a.id().equals(b.id())) {
                notice.set(null);
                problem.set(null);
                choose(List.of());
            }
        });
    }

    /** The diff of the checkpoints chosen. */
    public DiffViewModel diff() {
        return diff;
    }

    /**
     * Chooses checkpoints: one shows its change against the checkpoint before it, two the change from the older to
     * the newer; none or more than two show no diff. Choosing the same ones again reads nothing.
     */
    public void choose(List<Checkpoint> checkpoints) {
        List<Checkpoint> sorted = checkpoints.stream()
                .filter(Objects::nonNull)
                .sorted(Comparator.comparingInt(Checkpoint::number))
                .toList();
        List<Integer> numbers = sorted.stream().map(Checkpoint::number).toList();
        target.set(sorted.size() == 1 ? sorted.get(0) : null);
        if (numbers.equals(chosen.get())) {
            return;
        }
        chosen.set(numbers);
        RepositoryStatus.Sandbox s = sandbox.get();
        if (s == null || numbers.isEmpty() || numbers.size() > 2) {
            diffs.range(null, null);
            diff.open(null);
            comparing.set(numbers.size() > 2 ? "Choose one checkpoint, or two to compare them." : "");
            return;
        }
        Integer from = numbers.get(0);
        Integer to = numbers.size() == 2 ? numbers.get(1) : null;
        diffs.range(from, to);
        comparing.set(
                to == null
                        ? "Checkpoint " + from + " against the one before it"
                        : "Checkpoint " + from + " → checkpoint " + to);
        if (s.id().equals(diff.sandboxId())) {
            diff.reload();
        } else {
            diff.open(s.id());
        }
    }

    /** The backend of the diff of the checkpoints chosen now, kept as it is (for a window of its own). */
    DiffBackend fixedDiffs() {
        return diffs.fixed();
    }

    /**
     * Reads what rolling back to the checkpoint chosen would change (a dry run). Completes with null when there is
     * nothing to roll back to or it failed ({@link #problemProperty()} says why).
     */
    public CompletableFuture<RollbackPlan> planRollback() {
        SandboxBackend b = backend.get();
        RepositoryStatus.Sandbox s = sandbox.get();
        Checkpoint c = target.get();
        if (b == null || s == null || c == null || busy.get()) {
            return CompletableFuture.completedFuture(null);
        }
        begin("Reading what rolling back to checkpoint " + c.number() + " changes…");
        CompletableFuture<RollbackPlan> done = new CompletableFuture<>();
        UiExecutor.run(
                () -> b.planRollback(s.id(), c.number()),
                plan -> {
                    end();
                    done.complete(plan);
                },
                e -> {
                    end();
                    problem.set(UiError.of("Cannot roll " + s.id() + " back to checkpoint " + c.number(), e));
                    done.complete(null);
                });
        return done;
    }

    /**
     * Rolls the sandbox back as {@code plan} says, and its branch too with {@code resetBranch}; completes on the FX
     * thread with the rollback, or null.
     */
    public CompletableFuture<Rollback> rollback(RollbackPlan plan, boolean resetBranch) {
        SandboxBackend b = backend.get();
        RepositoryStatus.Sandbox s = sandbox.get();
        if (b == null || s == null || plan == null || busy.get() || !s.id().equals(plan.sandboxId())) {
            return CompletableFuture.completedFuture(null);
        }
        begin("Rolling " + s.id() + " back to checkpoint " + plan.to()
                + (plan.stopsAgent() ? ": stopping its agent, keeping the files as they are…" : "…"));
        CompletableFuture<Rollback> done = new CompletableFuture<>();
        UiExecutor.run(
                () -> b.rollback(s.id(), plan.to(), resetBranch),
                r -> {
                    end();
                    notice.set(said(r));
                    onRolledBack.run();
                    done.complete(r);
                },
                e -> {
                    end();
                    problem.set(UiError.of("Could not roll " + s.id() + " back to checkpoint " + plan.to(), e));
                    done.complete(null);
                });
        return done;
    }

    /** "Rolled back to checkpoint 2: 3 files written, 1 removed. Undo: roll back to checkpoint 5." */
    static String said(Rollback r) {
        int written = r.restored().size();
        return "Rolled back to checkpoint " + r.to() + ": " + written + (written == 1 ? " file" : " files")
                + " written, " + r.removed().size() + " removed"
                + (r.kept().isEmpty() ? "" : ", " + r.kept().size() + " left (folders that are not empty)")
                + (r.branchReset() ? "; the branch was reset to " + CommitIds.shortId(r.branchTo()) : "")
                + (r.stopped() ? "; its agent was stopped" : "") + ". Undo: roll back to checkpoint "
                + r.before().number() + (r.branchReset() ? " with the branch" : "") + ".";
    }

    private void begin(String doing) {
        busy.set(true);
        progress.set(doing);
        notice.set(null);
        problem.set(null);
    }

    private void end() {
        busy.set(false);
        progress.set("");
    }

    /** The numbers of the checkpoints chosen, oldest first. */
    public ReadOnlyObjectProperty<List<Integer>> chosenProperty() {
        return chosen.getReadOnlyProperty();
    }

    /** What the diff shows ("Checkpoint 3 against the one before it"), or why it shows nothing. */
    public ReadOnlyStringProperty comparingProperty() {
        return comparing.getReadOnlyProperty();
    }

    /** The checkpoint a rollback would go back to: the one chosen, when only one is. */
    public ReadOnlyObjectProperty<Checkpoint> targetProperty() {
        return target.getReadOnlyProperty();
    }

    /** Whether "Roll back to this…" can be asked now. */
    public BooleanBinding canRollBackProperty() {
        return canRollBack;
    }

    /** True while a dry run or a rollback runs. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** What runs now, or "". */
    public ReadOnlyStringProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** What the last rollback did, or null. */
    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** Why the last dry run or rollback failed, or null. */
    public ReadOnlyObjectProperty<UiError> problemProperty() {
        return problem.getReadOnlyProperty();
    }

    @Override
    public void close() {
        diff.close();
    }
}
