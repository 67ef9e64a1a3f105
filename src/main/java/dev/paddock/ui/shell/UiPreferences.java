package dev.paddock.ui.shell;

import dev.paddock.ui.theme.Theme;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Small look-and-feel preferences (theme, window size) in {@code ui.properties} in the Paddock home.
 * Read before the store opens, so the first frame already has the right theme. A missing or damaged
 * file gives the defaults.
 */
final class UiPreferences {
    // Looked up when needed: the first logger initialises Logback, which the first frame must not wait for.
    private static Logger log() {
        return LoggerFactory.getLogger(UiPreferences.class);
    }

    private final Path file;
    private final Properties props = new Properties();
    private boolean writable = true;
    private boolean unsaved;

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
    void setWritable(boolean writable) {
        this.writable = writable;
        if (writable && unsaved) {
            save();
        }
    }

    Theme theme() {
        return "dark".equalsIgnoreCase(props.getProperty("theme")) ? Theme.DARK : Theme.LIGHT;
    }

    void setTheme(Theme theme) {
        props.setProperty("theme", theme.name().toLowerCase(java.util.Locale.ROOT));
        save();
    }

    double width() {
        return number("window.width", 1360);
    }

    double height() {
        return number("window.height", 860);
    }

    void setSize(double w, double h) {
        props.setProperty("window.width", Long.toString(Math.round(w)));
        props.setProperty("window.height", Long.toString(Math.round(h)));
        save();
    }

    private double number(String key, double fallback) {
        try {
            double v = Double.parseDouble(props.getProperty(key, ""));
            return v >= 400 && v <= 10_000 ? v : fallback;
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
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            props.store(out, "Paddock panel preferences");
            dev.paddock.common.PrivateFiles.write(file, out.toByteArray(), dev.paddock.common.PrivateFiles.FILE);
        } catch (IOException e) {
            log().warn("Cannot save {}: {}", file, e.getMessage());
        }
    }
}
