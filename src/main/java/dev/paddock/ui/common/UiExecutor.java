package dev.paddock.ui.common;

import dev.paddock.common.Threads;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import javafx.application.Platform;

/**
 * Runs user commands off the FX thread and hands their results back to it:
 * {@code supplyAsync(op, io).whenCompleteAsync(show, Platform::runLater)}.
 */
public final class UiExecutor {
    private static final ExecutorService IO = Executors.newCachedThreadPool(Threads.numbered("ui-io"));

    private UiExecutor() {}

    /** Work that may throw. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws Exception;
    }

    /**
     * Runs {@code work} on a background thread, then {@code onSuccess} or {@code onFailure} on the FX
     * thread.
     */
    public static <T> CompletableFuture<T> run(Work<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        CompletableFuture<T> f = CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return work.run();
                    } catch (RuntimeException e) {
                        throw e;
                    } catch (Exception e) {
                        throw new java.util.concurrent.CompletionException(e);
                    }
                },
                IO);
        f.whenCompleteAsync(
                (value, error) -> {
                    if (error == null) {
                        onSuccess.accept(value);
                    } else {
                        onFailure.accept(
                                error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                                        ? error.getCause()
                                        : error);
                    }
                },
                Platform::runLater);
        return f;
    }

    /** The background executor itself, for components that take an {@code Executor}. */
    public static ExecutorService io() {
        return IO;
    }
}
