package dev.paddock.ui.shell;

import dev.paddock.ui.common.LayoutMemory;
import dev.paddock.ui.theme.Theme;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Small look-and-feel preferences (theme, window size and whether it is maximized, the layout choices of
 * {@link LayoutMemory}) in {@code ui.properties} in the Paddock home. Read before the store opens, so the first frame
 * already has the right theme. A missing or damaged file gives the defaults. The theme is written when it changes; the
 * window and layout are tracked in memory as they change and written by {@link #saveIfChanged} (when the window
 * closes, and from the shutdown hook on SIGTERM, which thus never needs the FX thread). Thread-safe.
 */
final class UiPreferences implements LayoutMemory {
    // Looked up when needed: the first logger initialises Logback, which the first frame must not wait for.
    private static Logger log() {
        return LoggerFactory.getLogger(UiPreferences.class);
    }

    private final Path file;
    private final Properties props = new Properties();
    private boolean writable = true;
    /** A save was asked while not writable. */
    private boolean unsaved;
    /** Tracked values changed since the file was last written. */
    private boolean dirty;

    UiPreferences(Path file) {
        this.file = file;
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                props.load(in);
            } catch (IOException | IllegalArgumentException e) {
                log().warn("Ignoring unreadable {}: {}", file, e.getMessage());
            }
        }
    }

    /**
     * Whether changes may be written to the file (true at first). While not, they are kept and written once it is:
     * the panel allows it only once its Paddock started, so that a panel refused on a home another Paddock owns
     * writes nothing there.
     */
    synchronized void setWritable(boolean writable) {
        this.writable = writable;
        if (writable && unsaved) {
            save();
        }
    }

    synchronized Theme theme() {
        return "dark".equalsIgnoreCase(props.getProperty("theme")) ? Theme.DARK : Theme.LIGHT;
    }

    synchronized void setTheme(Theme theme) {
        props.setProperty("theme", theme.name().toLowerCase(java.util.Locale.ROOT));
        save();
    }

    /** The window's width last time, or the first width on a screen {@code screenWidth} px wide ({@link #defaultSize}). */
    synchronized double width(double screenWidth) {
        return number("window.width", defaultSize(screenWidth, 1360, 1600, 1440));
    }

    /** The window's height last time, or the first height on a screen {@code screenHeight} px high. */
    synchronized double height(double screenHeight) {
        return number("window.height", defaultSize(screenHeight, 860, 1000, 900));
    }

    synchronized double width() {
        return width(0);
    }

    synchronized double height() {
        return height(0);
    }

    /**
     * The first size of the window along one side of a screen {@code screen} px long: all of it up to {@code fullUpTo}
     * (a laptop's 1366 × 768 or 1440 × 900 is not too much for the panel), beyond that the screen less 80 px, at most
     * {@code max}; {@code unknown} when the screen is not known ({@code screen} 0).
     */
    static double defaultSize(double screen, double unknown, double max, double fullUpTo) {
        if (screen <= 0) {
            return unknown;
        }
        return Math.max(400, screen <= fullUpTo ? screen : Math.min(max, screen - 80));
    }

    synchronized void setSize(double w, double h) {
        trackSize(w, h);
        save();
    }

    /** Keeps the window's size (the scene's), to be written by {@link #saveIfChanged}. */
    synchronized void trackSize(double w, double h) {
        if (w > 0 && h > 0) {
            track("window.width", Long.toString(Math.round(w)));
            track("window.height", Long.toString(Math.round(h)));
        }
    }

    /** Whether the window was maximized when the panel last ended. */
    synchronized boolean maximized() {
        return Boolean.parseBoolean(props.getProperty("window.maximized", "false"));
    }

    /** Keeps whether the window is maximized, to be written by {@link #saveIfChanged}. */
    synchronized void trackMaximized(boolean maximized) {
        track("window.maximized", Boolean.toString(maximized));
    }

    @Override
    public synchronized double get(String key, double fallback) {
        return number("layout." + key, fallback, -1e9, 1e9);
    }

    @Override
    public synchronized void put(String key, double value) {
        if (Double.isFinite(value)) {
            track("layout." + key, Double.toString(Math.round(value * 1000) / 1000.0));
        }
    }

    /** Writes the file when a tracked value changed since it was last written (and writing is allowed). */
    synchronized void saveIfChanged() {
        if (dirty) {
            save();
        }
    }

    private void track(String key, String value) {
        if (!value.equals(props.getProperty(key))) {
            props.setProperty(key, value);
            dirty = true;
        }
    }

    private double number(String key, double fallback) {
        return number(key, fallback, 400, 10_000);
    }

    private double number(String key, double fallback, double min, double max) {
        try {
            double v = Double.parseDouble(props.getProperty(key, ""));
            return v >= min && v <= max ? v : fallback;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private void save() {
        if (!writable) {
            unsaved = true;
            return;
        }
        unsaved = false;
        dirty = false;
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            props.store(out, "Paddock panel preferences");
            dev.paddock.common.PrivateFiles.write(file, out.toByteArray(), dev.paddock.common.PrivateFiles.FILE);
        } catch (IOException e) {
            log().warn("Cannot save {}: {}", file, e.getMessage());
        }
    }
}
