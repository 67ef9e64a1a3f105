package dev.paddock.agent;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Where an agent's program is: the path a setting gives, else the first match on PATH. */
public final class ExecutableLocator {
    private ExecutableLocator() {}

    /**
     * The program of {@code preset}.
     *
     * @param configured the setting's value (an absolute path to an executable file), or null / blank for none
     * @param path the PATH to search (directories separated by {@code :})
     * @return the program; empty when the setting names no executable file or PATH holds none
     */
    public static Optional<Path> locate(AgentPreset preset, String configured, String path) {
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured.strip());
            return p.isAbsolute() && Files.isRegularFile(p) && Files.isExecutable(p)
                    ? Optional.of(p)
                    : Optional.empty();
        }
        String name = preset.executable();
        if (name.contains("/")) {
            Path p = Path.of(name);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty() || !Path.of(dir).isAbsolute()) {
                // An empty or relative PATH entry names the current directory: never an agent's program.
                continue;
            }
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
