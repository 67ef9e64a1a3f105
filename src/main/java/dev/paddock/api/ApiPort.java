package dev.paddock.api;

import dev.paddock.common.PrivateFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code api-port} in the Paddock home: the loopback port the API had at the last start. The next start binds it
 * again when it is free, so an agent that outlived a restart (even a {@code kill -9}) still reaches Paddock at its
 * {@code PADDOCK_API}; a port taken meanwhile gives way to a free one, which {@code instance.json} names.
 */
public final class ApiPort {
    private static final Logger LOG = LoggerFactory.getLogger(ApiPort.class);

    private ApiPort() {}

    /** The port in the file, or 0 when there is none (missing, unreadable, not a port). */
    public static int read(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
            if (text.matches("[0-9]{1,5}")) {
                int port = Integer.parseInt(text);
                return port >= 1 && port <= 65535 ? port : 0;
            }
            return 0;
        } catch (IOException e) {
            return 0;
        }
    }

    /** Writes the port (owner-only); a failure is logged: the next start then takes any free port. */
    public static void write(Path file, int port) {
        try {
            PrivateFiles.writeString(file, port + "\n");
        } catch (IOException e) {
            LOG.warn("Cannot remember the API's port in {}: {}", file, e.getMessage());
        }
    }
}
