package dev.paddock;

import dev.paddock.common.PaddockException;
import dev.paddock.settings.HomePermissions;
import dev.paddock.settings.PaddockHome;
import java.nio.file.Path;

/** What {@code Wiring} does with a Paddock home before it builds the services: its permissions and its id. */
final class HomeStart {
    private HomeStart() {}

    /**
     * Makes a home an older Paddock left readable by others owner-only before its store is opened, and says in
     * the log what changed (nothing is logged for a home that is owner-only already).
     */
    static void tighten(PaddockHome home) {
        java.util.List<String> changes = HomePermissions.tighten(home.dir(), Path.of(System.getProperty("user.home")));
        if (!changes.isEmpty()) {
            org.slf4j.LoggerFactory.getLogger(HomeStart.class)
                    .info(
                            "Made the Paddock home {} owner-only ({} {}): {}",
                            home.dir(),
                            changes.size(),
                            changes.size() == 1 ? "entry" : "entries",
                            String.join("; ", changes));
        }
    }

    /** The home's id, or null (logged) when its file cannot be made: containers then carry no home label. */
    static String idOf(PaddockHome home) {
        try {
            return home.id();
        } catch (PaddockException e) {
            org.slf4j.LoggerFactory.getLogger(HomeStart.class).warn("{}", e.getMessage());
            return null;
        }
    }
}
