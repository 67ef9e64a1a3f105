package dev.paddock.ui.common;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where views keep small layout choices a person made (a divider's position) from one run of the panel to the next.
 * Values are kept as they change and written when the panel ends (see {@code UiPreferences}); any thread.
 */
public interface LayoutMemory {
    /** The value kept under {@code key}, or {@code fallback}. */
    double get(String key, double fallback);

    /** Keeps {@code value} under {@code key}. */
    void put(String key, double value);

    /** A memory of this run only (tests, a panel without a home). */
    static LayoutMemory inMemory() {
        Map<String, Double> values = new ConcurrentHashMap<>();
        return new LayoutMemory() {
            @Override
            public double get(String key, double fallback) {
                return values.getOrDefault(key, fallback);
            }

            @Override
            public void put(String key, double value) {
                values.put(key, value);
            }
        };
    }
}
