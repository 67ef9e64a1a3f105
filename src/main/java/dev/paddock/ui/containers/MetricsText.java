package dev.paddock.ui.containers;

import dev.paddock.container.ContainerMetrics;
import java.util.Locale;

/**
 * How container figures read in the panel: "48 %" (percent, no decimals from 10 up), "212 MiB" / "1.5 GiB"
 * (binary units, as {@code docker stats} prints them), and "stopped" for a container that stopped.
 */
public final class MetricsText {
    /** What a stopped container shows instead of figures. */
    public static final String STOPPED = "stopped";

    private MetricsText() {}

    /** "0.4 %", "48 %", "180 %". */
    public static String percent(double p) {
        return p < 10 ? String.format(Locale.ROOT, "%.1f %%", p) : String.format(Locale.ROOT, "%.0f %%", p);
    }

    /** "812 KiB", "212 MiB", "1.5 GiB"; bytes in binary units. */
    public static String bytes(long b) {
        if (b < 1024L * 1024) {
            return String.format(Locale.ROOT, "%.0f KiB", b / 1024.0);
        }
        if (b < 1024L * 1024 * 1024) {
            double mib = b / (1024.0 * 1024);
            return mib < 10 ? String.format(Locale.ROOT, "%.1f MiB", mib) : String.format(Locale.ROOT, "%.0f MiB", mib);
        }
        return String.format(Locale.ROOT, "%.1f GiB", b / (1024.0 * 1024 * 1024));
    }

    /**
     * The CPU cell of the sandboxes table: percent of the container's CPU limit ("96 %"; its tooltip, see
     * {@link #details}, gives one CPU and the host too), or "stopped".
     */
    public static String cpu(ContainerMetrics m) {
        return m.running() ? percent(m.cpuPercentOfLimit()) : STOPPED;
    }

    /** The memory cell of the sandboxes table: "212 MiB" (the limit is in the tooltip), or "stopped". */
    public static String memoryUsed(ContainerMetrics m) {
        return m.running() ? bytes(m.memoryBytes()) : STOPPED;
    }

    /** Memory with its limit: "212 MiB / 4.0 GiB", or "stopped". */
    public static String memory(ContainerMetrics m) {
        return m.running() ? bytes(m.memoryBytes()) + " / " + bytes(m.memoryLimitBytes()) : STOPPED;
    }

    /** The tooltip: every figure with its meaning. */
    public static String details(ContainerMetrics m) {
        if (!m.running()) {
            return "Container " + shortId(m.containerId()) + " stopped";
        }
        return "Container " + shortId(m.containerId()) + "\nCPU: " + percent(m.cpuPercentOfOneCpu())
                + " of one CPU (docker stats), " + percent(m.cpuPercentOfLimit()) + " of its limit, "
                + percent(m.cpuPercentOfHost()) + " of the host\nMemory (without page cache): " + bytes(m.memoryBytes())
                + " of " + bytes(m.memoryLimitBytes()) + " (" + percent(m.memoryPercentOfLimit()) + ")";
    }

    static String shortId(String id) {
        return id == null ? "" : id.substring(0, Math.min(12, id.length()));
    }
}
