package dev.paddock.ui.sandboxes;

import dev.paddock.status.RepositoryStatus;
import dev.paddock.ui.common.UiError;
import dev.paddock.ui.common.UiExecutor;
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
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * A person's decision on the change of the sandbox shown, while it is ready for review (state {@code review}):
 * Approve (its branch enters the merge queue), Request changes (its review comments, and the text written here, go
 * to its agent) or Discard (it is removed, its branch kept). Each runs on a {@code ui-io} thread; properties change
 * on the FX thread.
 */
public final class ReviewActions {
    /** The state in which the actions show. */
    static final String STATE = "review";

    private final Supplier<SandboxBackend> backend;
    private final ReadOnlyObjectProperty<RepositoryStatus.Sandbox> sandbox;
    private final Runnable onChanged;
    private final StringProperty comment = new SimpleStringProperty("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<UiError> problem = new ReadOnlyObjectWrapper<>();
    private final BooleanBinding shows;
    private final BooleanBinding canAct;

    /**
     * @param backend where the decisions go (null while Paddock is not running)
     * @param sandbox the sandbox shown
     * @param onChanged told after a decision was taken (the list reloads)
     */
    ReviewActions(
            Supplier<SandboxBackend> backend,
            ReadOnlyObjectProperty<RepositoryStatus.Sandbox> sandbox,
            Runnable onChanged) {
        this.backend = backend;
        this.sandbox = sandbox;
        this.onChanged = onChanged;
        this.shows = Bindings.createBooleanBinding(
                () -> sandbox.get() != null && STATE.equals(sandbox.get().state()), sandbox);
        this.canAct = shows.and(busy.not());
        sandbox.addListener((o, a, b) -> {
            if (a == null || b == null || !a.id().equals(b.id())) {
                comment.set("");
                notice.set(null);
                problem.set(null);
            }
        });
    }

    /** Whether the sandbox shown is ready for review (the bar shows). */
    public BooleanBinding showsProperty() {
        return shows;
    }

    /** Whether a decision may be taken now. */
    public BooleanBinding canActProperty() {
        return canAct;
    }

    /** A comment to send with Request changes or Discard (optional). */
    public StringProperty commentProperty() {
        return comment;
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** What the last decision did. */
    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** Why the last decision was refused. */
    public ReadOnlyObjectProperty<UiError> problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** Approves the change: its branch enters the merge queue. */
    public CompletableFuture<String> approve() {
        return decide("Cannot approve", (b, id, text) -> b.approve(id));
    }

    /** Sends the review comments (and the text written, if any) to the agent, which runs again. */
    public CompletableFuture<String> requestChanges() {
        return decide("Cannot request changes of", SandboxBackend::requestChanges);
    }

    /** Discards the change: the sandbox is removed, its branch kept. */
    public CompletableFuture<String> discard() {
        return decide("Cannot discard", SandboxBackend::reject);
    }

    private interface Decision {
        String run(SandboxBackend b, String id, String comment) throws Exception;
    }

    private CompletableFuture<String> decide(String refusal, Decision d) {
        SandboxBackend b = backend.get();
        RepositoryStatus.Sandbox s = sandbox.get();
        if (b == null || s == null || !canAct.get()) {
            return CompletableFuture.completedFuture(null);
        }
        String text = comment.get() == null ? "" : comment.get().strip();
        busy.set(true);
        notice.set(null);
        problem.set(null);
        return UiExecutor.run(
                () -> d.run(b, s.id(), text.isEmpty() ? null : text),
                said -> {
                    busy.set(false);
                    comment.set("");
                    notice.set(said);
                    onChanged.run();
                },
                e -> {
                    busy.set(false);
                    problem.set(UiError.of(refusal + " " + s.id(), e));
                });
    }
}
