package dev.paddock.ui.conflicts;

import dev.paddock.ui.common.UiError;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * The backend calls of the three-way view, one at a time: each runs on the {@code io} executor while {@link #busy}
 * is set; its failure becomes {@link #error}. Properties change on the FX thread only.
 */
final class BackendCalls {
    /** A backend call. */
    @FunctionalInterface
    interface Call {
        void run() throws Exception;
    }

    final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private final Executor io;

    BackendCalls(Executor io) {
        this.io = io;
    }

    /**
     * Runs {@code call} off the FX thread, then {@code after} on it with whether it succeeded; refused (after gets
     * false at once) while another call runs.
     *
     * @param failed the start of the error message ("Cannot mark x resolved")
     */
    void run(String failed, Call call, Consumer<Boolean> after) {
        if (busy.get()) {
            after.accept(false);
            return;
        }
        busy.set(true);
        error.set(null);
        io.execute(() -> {
            Exception failure = null;
            try {
                call.run();
            } catch (Exception e) {
                failure = e;
            }
            Exception f = failure;
            Platform.runLater(() -> {
                busy.set(false);
                if (f != null) {
                    error.set(UiError.of(failed, f));
                }
                after.accept(f == null);
            });
        });
    }
}
