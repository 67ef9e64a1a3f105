package dev.paddock.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The environment variables an agent takes from Paddock's own environment (API keys, base URLs, proxies), by the
 * names its {@link AgentPreset} lists. Every value counts as a secret: it goes into the agent's process environment
 * and nowhere else. {@link #toString()}, {@link #names()} and {@link #describe()} show names only, so a log line,
 * an event or a stored field built from this object cannot hold a key.
 */
public final class PassThrough {
    private final Map<String, String> values;

    private PassThrough(Map<String, String> values) {
        this.values = values;
    }

    /**
     * The variables of {@code preset} that {@code source} (Paddock's environment, normally {@code System.getenv()})
     * sets to a non-empty value.
     */
    public static PassThrough from(AgentPreset preset, Map<String, String> source) {
        Map<String, String> m = new TreeMap<>();
        for (String name : preset.passThrough()) {
            String v = source.get(name);
            if (v != null && !v.isEmpty()) {
                m.put(name, v);
            }
        }
        return new PassThrough(m);
    }

    /** The names taken, sorted. */
    public List<String> names() {
        return List.copyOf(values.keySet());
    }

    /** Puts the variables into a process environment (a {@code ProcessBuilder}'s). */
    public void applyTo(Map<String, String> environment) {
        environment.putAll(values);
    }

    /** For logs and events: {@code "passes ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL"} or {@code "passes nothing"}. */
    public String describe() {
        return values.isEmpty() ? "passes nothing" : "passes " + String.join(", ", new ArrayList<>(values.keySet()));
    }

    @Override
    public String toString() {
        return "PassThrough" + values.keySet();
    }
}
