package dev.paddock.layer;

import java.util.List;

/**
 * What a repository shares with its namespace sandboxes.
 *
 * @param folders the shared folders ({@link LayerFolders}), none when it shares nothing
 * @param setupCommand the shell command that builds them in a fresh checkout of the base branch, or null to copy them
 *     from the main checkout
 */
public record LayerConfig(List<String> folders, String setupCommand) {
    /** Nothing shared. */
    public static final LayerConfig NONE = new LayerConfig(List.of(), null);

    public LayerConfig {
        folders = List.copyOf(folders);
        setupCommand = setupCommand == null || setupCommand.isBlank() ? null : setupCommand.strip();
    }
}
