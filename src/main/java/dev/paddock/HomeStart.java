package dev.paddock;

import dev.paddock.common.PaddockException;
import dev.paddock.settings.HomePermissions;
import dev.paddock.settings.PaddockHome;
import dev.paddock.store.Database;
import java.nio.file.Path;

/**
 * What {@code Wiring} does with a Paddock home before it builds the services: its permissions, its id and its store
 * (the home's H2 file, or the server of {@code --store}).
 */
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

    /**
     * Opens the home's store: the PostgreSQL database of {@link PaddockHome#store} when there is one, else the H2
     * file of {@link PaddockHome#databaseBase}.
     */
    static Database openStore(PaddockHome home) throws PaddockException {
        return home.store() != null ? Database.openServer(home.store()) : Database.open(home.databaseBase());
    }

    /**
     * This machine's name for a store's owner row ({@code /etc/hostname}, else Java's, else "unknown"); read without
     * a DNS lookup where the file is there.
     */
    static String hostName() {
        try {
            Path etc = Path.of("/etc/hostname");
            if (java.nio.file.Files.isReadable(etc)) {
                String name = java.nio.file.Files.readString(etc).strip();
                if (!name.isEmpty()) {
                    return name;
                }
            }
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
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
