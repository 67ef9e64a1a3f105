package dev.paddock.worktree;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs short, independent git calls side by side (each one is mostly a process start and a wait, so two
 * cores run several at once). Up to 8 daemon threads, idle ones end after 60 s; when all are busy the
 * caller runs the call itself. A call's {@link PaddockException} comes back unchanged from {@link #await}.
 */
public final class SideBySide {
    private static final ExecutorService THREADS = new ThreadPoolExecutor(
            0,
            8,
            60,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            Threads.daemon("git-side-by-side"),
            new ThreadPoolExecutor.CallerRunsPolicy());

    private SideBySide() {}

    /** A call that may fail with a {@link PaddockException}. */
    @FunctionalInterface
    public interface Call<T> {
        T call() throws PaddockException;
    }

    /** Starts {@code call} on another thread. */
    public static <T> CompletableFuture<T> start(Call<T> call) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return call.call();
                    } catch (PaddockException e) {
                        throw new CompletionException(e);
                    }
                },
                THREADS);
    }

    /**
     * Waits for a call started with {@link #start}.
     *
     * @throws PaddockException the call's own, unchanged (a {@link GitException} stays one)
     */
    public static <T> T await(CompletableFuture<T> f) throws PaddockException {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof PaddockException p) {
                throw p;
            }
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** {@link #await} for git calls: a {@link GitException} as it was thrown, anything else wrapped in one. */
    public static <T> T awaitGit(CompletableFuture<T> f) throws GitException {
        try {
            return await(f);
        } catch (GitException e) {
            throw e;
        } catch (PaddockException e) {
            throw new GitException(e.getMessage(), e);
        }
    }
}
