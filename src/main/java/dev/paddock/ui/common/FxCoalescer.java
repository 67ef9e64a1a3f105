package dev.paddock.ui.common;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import javafx.application.Platform;

/**
 * Hands the latest value from a producer thread to the FX thread, at most once per pulse: producers
 * call {@link #publish} as often as they like; the FX thread sees only the newest value.
 */
public final class FxCoalescer<T> {
    private final AtomicReference<T> latest = new AtomicReference<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Consumer<T> apply;

    /** @param apply called on the FX thread with the newest value */
    public FxCoalescer(Consumer<T> apply) {
        this.apply = apply;
    }

    /** Publishes a value from any thread. */
    public void publish(T value) {
        latest.set(value);
        if (scheduled.compareAndSet(false, true)) {
            Platform.runLater(() -> {
                scheduled.set(false);
                T v = latest.get();
                if (v != null) {
                    apply.accept(v);
                }
            });
        }
    }
}
