package dev.paddock.ui.shell;

import dev.paddock.settings.PaddockHome;
import java.nio.file.Path;
import javafx.application.Application;

/** Starts the JavaFX panel from the command line. */
public final class PanelLauncher {
    private PanelLauncher() {
    }

    /**
     * Runs the panel until its window closes.
     *
     * @param home Paddock's state directory
     * @param repo repository to open, or null for the one containing the current directory
     * @return the process exit code (0)
     */
    public static int run(PaddockHome home, Path repo) {
        PaddockApp.configure(home, repo == null ? null : repo.toAbsolutePath().normalize());
        Application.launch(PaddockApp.class);
        return 0;
    }
}
