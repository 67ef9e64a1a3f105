package dev.paddock.ui.sandboxes;

import dev.paddock.ui.common.UiError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.Function;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * Runs the Sandboxes tab's row actions (stop, retry, push, open the folder or a terminal) off the FX thread and
 * keeps what a person sees of them: whether one runs, what it does now, the note after it succeeded and why it
 * failed. Properties change on the FX thread.
 */
final class RowActions {
    private final Executor io;
    private final Runnable onChanged;
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper progress = new ReadOnlyStringWrapper();
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private int running;

    /**
     * @param io where the services are called
     * @param onChanged told after every action on sandboxes (the dashboard refreshes)
     */
    RowActions(Executor io, Runnable onChanged) {
        this.io = io;
        this.onChanged = onChanged;
    }

    /** A row action; what it returns (or null) is what a person is told when it was the only one. */
    @FunctionalInterface
    interface Action {
        String run(SandboxBackend backend, String id) throws Exception;
    }

    /** Opens a folder with a desktop tool; returns the tool's name. */
    @FunctionalInterface
    interface Opener {
        String open(Path dir) throws Exception;
    }

    /** True while an action runs. */
    ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** What the running action does ("Stopping x…"), or null. */
    ReadOnlyStringProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** A short note about the last action that succeeded, or null. */
    ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** Why the last action failed, or null. */
    ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** Tells a person {@code note} about something done outside these actions ("Created …"). */
    void tell(String note) {
        notice.set(note);
    }

    /** Forgets the note and the error (another repository is shown). */
    void clear() {
        error.set(null);
        notice.set(null);
    }

    /** Clears the note if it still says {@code text}. */
    void dismissNotice(String text) {
        if (Objects.equals(notice.get(), text)) {
            notice.set(null);
        }
    }

    /** Clears the last error. */
    void dismissError() {
        error.set(null);
    }

    /**
     * Opens {@code dir} with {@code opener}; {@code said} tells, from the tool and the folder, what was done.
     *
     * @param failure what the error says first when it fails ("Cannot open the folder")
     */
    CompletableFuture<Void> open(Path dir, String failure, Opener opener, BiFunction<String, Path, String> said) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        started("Opening " + dir.getFileName() + "…");
        io.execute(() -> {
            UiError e = null;
            String tool = null;
            try {
                tool = opener.open(dir);
            } catch (Exception ex) {
                e = UiError.of(failure, ex);
            }
            UiError err = e;
            String t = tool;
            Platform.runLater(() -> {
                finished(err, err == null ? said.apply(t, dir) : null);
                done.complete(null);
            });
        });
        return done;
    }

    /**
     * Runs {@code action} on each of {@code ids} in turn, then tells what failed or, from the sandbox or the count,
     * what was done ({@code said}); nothing when {@code b} is null or there are no ids.
     *
     * @param doing what the progress says first ("Stopping")
     * @param failure what the error says first ("Cannot stop")
     */
    CompletableFuture<Void> each(
            SandboxBackend b,
            List<String> ids,
            String doing,
            String failure,
            Action action,
            Function<String, String> said) {
        if (b == null || ids.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        started(doing + " " + (ids.size() == 1 ? ids.get(0) : ids.size() + " sandboxes") + "…");
        io.execute(() -> {
            List<String> failed = new ArrayList<>();
            List<String> failedIds = new ArrayList<>();
            Exception last = null;
            String told = null;
            for (String id : ids) {
                try {
                    told = action.run(b, id);
                } catch (Exception e) {
                    failed.add(id + ": " + e.getMessage());
                    failedIds.add(id);
                    last = e;
                }
            }
            Exception cause = last;
            String tell = ids.size() == 1 ? told : null;
            Platform.runLater(() -> {
                UiError err = cause == null
                        ? null
                        : failed.size() == 1
                                ? UiError.of(failure + " " + failedIds.get(0), cause)
                                : new UiError(
                                        failure + " " + failed.size() + " sandboxes: " + String.join("; ", failed),
                                        UiError.of(cause).details());
                finished(
                        err,
                        cause != null
                                ? null
                                : tell != null
                                        ? tell
                                        : said.apply(ids.size() == 1 ? ids.get(0) : ids.size() + " sandboxes"));
                onChanged.run();
                done.complete(null);
            });
        });
        return done;
    }

    private void started(String what) {
        running++;
        busy.set(true);
        progress.set(what);
        error.set(null);
        notice.set(null);
    }

    private void finished(UiError e, String note) {
        running = Math.max(0, running - 1);
        busy.set(running > 0);
        if (running == 0) {
            progress.set(null);
        }
        if (e != null) {
            error.set(e);
        }
        if (note != null) {
            notice.set(note);
        }
    }
}
