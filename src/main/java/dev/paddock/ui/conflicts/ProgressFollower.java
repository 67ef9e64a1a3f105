package dev.paddock.ui.conflicts;

import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * Where the merge request of a three-way view stands in the merge queue, read again (off the FX thread) at every
 * change notice of the backend while the view shows it; and whether a finish that every resolved file started has
 * failed (the entry is back waiting for resolutions with other facts than before).
 */
final class ProgressFollower {
    private final ConflictBackend backend;
    private final long mergeRequestId;
    private final Executor io;
    private final ReadOnlyObjectWrapper<ConflictBackend.Progress> progress =
            new ReadOnlyObjectWrapper<>(new ConflictBackend.Progress(ConflictBackend.Stage.RESOLVING, null, null));
    /** The last progress seen while files waited for a person: a later one that differs is a failed finish. */
    private ConflictBackend.Progress waiting;

    private Runnable unsubscribe = () -> {};

    ProgressFollower(ConflictBackend backend, long mergeRequestId, Executor io) {
        this.backend = backend;
        this.mergeRequestId = mergeRequestId;
        this.io = io;
    }

    ReadOnlyObjectProperty<ConflictBackend.Progress> property() {
        return progress.getReadOnlyProperty();
    }

    ConflictBackend.Stage stage() {
        return progress.get().stage();
    }

    /**
     * Starts reading the progress at each change notice, and once at once (a change between the caller's last read
     * and the subscription would be missed otherwise); {@code shown} gets it on the FX thread.
     */
    void follow(Consumer<ConflictBackend.Progress> shown) {
        stop();
        Runnable read = () -> io.execute(() -> {
            try {
                ConflictBackend.Progress p = backend.progress(mergeRequestId);
                Platform.runLater(() -> shown.accept(p));
            } catch (Exception | LinkageError e) {
                // Gone from the store or unreadable for now: the next change notice reads it again.
            }
        });
        unsubscribe = backend.onChange(read);
        read.run();
    }

    /** Stops following. */
    void stop() {
        unsubscribe.run();
        unsubscribe = () -> {};
    }

    /**
     * Takes {@code p} as the progress now.
     *
     * @param allResolved whether every file was resolved from here (a finish was started)
     * @return whether it says that finish failed: the entry waits for resolutions again, after a finishing step or
     *     with facts other than those seen while files waited
     */
    boolean apply(ConflictBackend.Progress p, boolean allResolved) {
        ConflictBackend.Progress was = progress.get();
        progress.set(p);
        if (p.stage() != ConflictBackend.Stage.RESOLVING) {
            return false;
        }
        boolean failed = allResolved
                && (was.stage() == ConflictBackend.Stage.FINISHING || waiting != null && !p.equals(waiting));
        if (!allResolved || failed) {
            waiting = p;
        }
        return failed;
    }

    /** What {@code p} means for the person in the three-way view (finishing, merged, closed), or null. */
    static String describe(ConflictBackend.Progress p) {
        return switch (p.stage()) {
            case MERGED ->
                "Merged"
                        + (p.detail() == null
                                ? ""
                                : " as "
                                        + p.detail()
                                                .substring(
                                                        0,
                                                        Math.min(12, p.detail().length())))
                        + ": nothing is left to resolve here.";
            case CLOSED -> "This merge is no longer in the conflict queue (" + p.detail() + ").";
            case FINISHING ->
                "Every file is resolved: the merge queue is "
                        + (p.detail() == null ? "finishing the merge" : p.detail() + " it") + "…";
            case RESOLVING -> null;
        };
    }

    /** Files wait for a person again (one was reopened): the progress now is what a later failure differs from. */
    void waitingAgain() {
        waiting = progress.get();
    }
}
