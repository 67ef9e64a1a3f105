package dev.paddock.ui.shell;

import dev.paddock.settings.PaddockHome;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import javafx.application.Application;

/** Starts the JavaFX panel from the command line. */
public final class PanelLauncher {
    /**
     * JavaFX's own logger. At start it warns on stderr "Unsupported JavaFX configuration: classes were
     * loaded from 'unnamed module'", which is how Paddock ships (class path, like jpackage apps); stderr
     * stays for Paddock's own messages. Held here: java.util.logging keeps loggers only weakly.
     */
    private static final Logger JAVAFX_LOG = Logger.getLogger("javafx");

    private PanelLauncher() {}

    /**
     * Runs the panel until its window closes.
     *
     * @param home Paddock's state directory
     * @param repo repository to open, or null for the one containing the current directory
     * @param starter starts Paddock (store, API, probes) once the window's first frame is drawn
     * @return the process exit code: 0, or 1 when Paddock could not start (the window said why, and so
     *     did a line on stderr) or there is no display to open a window on (stderr says so)
     */
    public static int run(PaddockHome home, Path repo, PanelBackends.Starter starter) {
        JAVAFX_LOG.setLevel(Level.SEVERE);
        PaddockApp.configure(home, repo == null ? null : repo.toAbsolutePath().normalize(), starter);
        try {
            Application.launch(PaddockApp.class);
        } catch (UnsupportedOperationException e) {
            // GTK's answer when there is no X display ("Unable to open DISPLAY").
            System.err.println("paddock: cannot open the panel: " + e.getMessage() + ". Run it in a desktop session"
                    + " (or set DISPLAY), or run Paddock without a window: paddock serve");
            return 1;
        }
        return PaddockApp.startupFailed() ? 1 : 0;
    }
}
