package dev.paddock.cli;

import dev.paddock.settings.SettingsStore;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Checks option values on the command line, so that a bad one is bad usage (exit 2, picocli's "Invalid value for
 * option" line) wherever the command would have sent it, and says what the option takes in the option's own unit.
 */
final class OptionValues {
    private OptionValues() {}

    /** A value out of a fixed list, kept as typed (lower case). */
    abstract static class OneOf implements ITypeConverter<String> {
        private final List<String> choices;

        OneOf(String... choices) {
            this.choices = Arrays.asList(choices);
        }

        @Override
        public String convert(String value) {
            String v = value.strip().toLowerCase(Locale.ROOT);
            if (!choices.contains(v)) {
                throw new TypeConversionException("'" + value + "' is not one of " + String.join(", ", choices));
            }
            return v;
        }
    }

    /** {@code --tier}. */
    static final class TierName extends OneOf {
        TierName() {
            super("worktree", "namespace", "container");
        }
    }

    /** {@code --agent}: the presets of {@code dev.paddock.agent.AgentPreset}. */
    static final class AgentName extends OneOf {
        static final String LIST = String.join(
                "|",
                dev.paddock.agent.AgentPreset.ALL.stream()
                        .map(dev.paddock.agent.AgentPreset::id)
                        .toList());

        AgentName() {
            super(dev.paddock.agent.AgentPreset.ALL.stream()
                    .map(dev.paddock.agent.AgentPreset::id)
                    .toArray(String[]::new));
        }
    }

    /**
     * {@code --agents}: a fan-out's agents and counts ({@code claude:2,codex:1}), each a preset of
     * {@code dev.paddock.agent.AgentPreset}, each count 1 to 20.
     */
    static final class AgentCountsSpec implements ITypeConverter<dev.paddock.sandbox.AgentCounts> {
        @Override
        public dev.paddock.sandbox.AgentCounts convert(String value) {
            dev.paddock.sandbox.AgentCounts counts;
            try {
                counts = dev.paddock.sandbox.AgentCounts.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
            List<String> known = dev.paddock.agent.AgentPreset.ALL.stream()
                    .map(dev.paddock.agent.AgentPreset::id)
                    .toList();
            for (String agent : counts.agents()) {
                if (!known.contains(agent)) {
                    throw new TypeConversionException("'" + agent + "' is not one of " + String.join(", ", known));
                }
            }
            return counts;
        }
    }

    /** {@code --strategy}. */
    static final class Strategy extends OneOf {
        Strategy() {
            super("merge", "rebase");
        }
    }

    /** {@code --auto-resolve}. */
    static final class AutoResolve extends OneOf {
        AutoResolve() {
            super("propose", "apply");
        }
    }

    /** {@code --review}. */
    static final class Review extends OneOf {
        Review() {
            super("required", "auto");
        }
    }

    /** {@code --unmatched}. */
    static final class Unmatched extends OneOf {
        Unmatched() {
            super("ask", "deny");
        }
    }

    /** A whole number within bounds, in the unit the option names. */
    abstract static class Within implements ITypeConverter<Integer> {
        private final long min;
        private final long max;
        private final String unit;

        Within(long min, long max, String unit) {
            this.min = min;
            this.max = max;
            this.unit = unit;
        }

        @Override
        public Integer convert(String value) {
            String v = value.strip();
            if (!v.matches("-?[0-9]{1,10}") || Long.parseLong(v) < min || Long.parseLong(v) > max) {
                throw new TypeConversionException("'" + value + "' is not a whole number from " + min + " to " + max
                        + (unit.isEmpty() ? "" : " (" + unit + ")"));
            }
            return Integer.valueOf(v);
        }
    }

    /** {@code --lease-minutes}: the lease setting's range, in minutes (1 minute to 24 hours). */
    static final class LeaseMinutes extends Within {
        LeaseMinutes() {
            super(1, SettingsStore.SANDBOX_LEASE_MS.max() / 60_000, "minutes; 1440 is 24 h");
        }
    }

    /** {@code --retries}: the retries setting's range. */
    static final class Retries extends Within {
        Retries() {
            super(SettingsStore.SANDBOX_MAX_RETRIES.min(), SettingsStore.SANDBOX_MAX_RETRIES.max(), "retries");
        }
    }
}
