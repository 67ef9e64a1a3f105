package dev.paddock.ui.containers;

import dev.paddock.ui.theme.Style;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * One chart colour per sandbox, shared by the CPU and the memory chart, so a container keeps its colour in both
 * whatever order the charts rank it in. A sandbox keeps its colour while either chart shows it; a newcomer takes
 * the least used of the theme's {@link #COLOURS} chart colours (the lowest such), so colours repeat only when more
 * than {@link #COLOURS} containers are drawn at once. Applied as the style class {@code pd-sandbox-colorN}, which
 * {@code containers.css} maps to the theme's {@code -color-chart-(N+1)}. FX thread only.
 */
final class SandboxColours {
    /** How many chart colours the theme defines ({@code -color-chart-1} to {@code -color-chart-8}). */
    static final int COLOURS = 8;
    /** Prefix of the style class carrying a sandbox's colour. */
    static final String STYLE_PREFIX = Style.SANDBOX_COLOR_PREFIX;

    private final Map<String, Integer> bySandbox = new HashMap<>();

    /** The sandbox's colour index, 0 to {@link #COLOURS} − 1, assigning one when it has none. */
    int of(String sandboxId) {
        return bySandbox.computeIfAbsent(sandboxId, id -> {
            int[] users = new int[COLOURS];
            bySandbox.values().forEach(i -> users[i]++);
            int best = 0;
            for (int i = 1; i < COLOURS; i++) {
                if (users[i] < users[best]) {
                    best = i;
                }
            }
            return best;
        });
    }

    /** The style class of the sandbox's colour, e.g. {@code pd-sandbox-color3}. */
    String styleClass(String sandboxId) {
        return STYLE_PREFIX + of(sandboxId);
    }

    /** Frees the colours of sandboxes no chart shows any more. */
    void retain(Collection<String> shown) {
        bySandbox.keySet().retainAll(shown);
    }

    /** Puts the sandbox's colour class on {@code classes} in place of any other colour class. */
    void apply(String sandboxId, javafx.collections.ObservableList<String> classes) {
        String wanted = styleClass(sandboxId);
        if (!classes.contains(wanted)) {
            classes.removeIf(c -> c.startsWith(STYLE_PREFIX));
            classes.add(wanted);
        }
    }
}
