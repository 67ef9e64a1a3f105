package dev.paddock.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --repo PATH}, mixed into every command that works on one repository. A command whose {@code --repo} means
 * something narrower says so in {@code OptionTexts.properties} (key: the command's full name, then {@code .repo}).
 */
public final class RepoOption {
    @Option(
            names = "--repo",
            paramLabel = "PATH",
            descriptionKey = "repo",
            description = "Repository (default: the one containing the current directory).")
    Path path;

    /** {@code --repo} as given, or null when it is absent. */
    Path given() {
        return path;
    }

    /** {@code --repo} made absolute, or the current directory when it is absent. */
    Path orCurrentDirectory() {
        return (path == null ? Path.of("") : path).toAbsolutePath().normalize();
    }
}
