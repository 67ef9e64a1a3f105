package dev.paddock.agent;

import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.SandboxLayout;
import dev.paddock.sandbox.SandboxRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * Codex's home ({@code CODEX_HOME}) in a namespace sandbox: {@code <control dir>/codex-home}. The namespace tier
 * mounts no home directory (HOME is a folder in its private {@code /tmp}, gone when the run ends), and Codex keeps
 * its sessions in its home, so a follow-up could not resume the thread of the run before. The control directory is
 * writable inside and stays between runs. Before each run the user's {@code config.toml} (from Paddock's
 * {@code CODEX_HOME}, else {@code ~/.codex}) is copied there, so the model provider and model the user set apply;
 * nothing else is copied: a login kept in {@code auth.json} stays where it is, so a namespace sandbox's Codex needs
 * its key in the environment ({@code OPENAI_API_KEY} or {@code CODEX_API_KEY}, passed through).
 */
final class CodexHome {
    /** The variable Codex reads its home from. */
    static final String VARIABLE = "CODEX_HOME";
    /** The folder's name in the control directory. */
    static final String DIR = "codex-home";

    private CodexHome() {}

    /**
     * Makes the sandbox's Codex home and copies the user's {@code config.toml} into it (a missing one removes a copy
     * made before).
     *
     * @param own Paddock's environment ({@code CODEX_HOME}, {@code HOME})
     * @return the folder
     * @throws SandboxException when it cannot be made or the file cannot be copied
     */
    static Path prepare(SandboxRecord s, SandboxLayout layout, Map<String, String> own) throws SandboxException {
        return prepare(s, layout, own, null, 0);
    }

    /**
     * {@link #prepare(SandboxRecord, SandboxLayout, Map)}, with Paddock's {@code PreToolUse} hook added to the copy of
     * the user's {@code config.toml} when {@code hookCommand} is given. A {@code hooks.json} a run left in the home is
     * removed: only hooks of the user's configuration and Paddock's run.
     *
     * @param hookTimeoutSeconds the hook's timeout (Codex's is in seconds)
     */
    static Path prepare(
            SandboxRecord s, SandboxLayout layout, Map<String, String> own, String hookCommand, int hookTimeoutSeconds)
            throws SandboxException {
        Path home = layout.controlDir().resolve(DIR);
        try {
            // The control directory is writable inside the sandbox: a link left here is removed, never written through.
            if (Files.exists(home, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(home, LinkOption.NOFOLLOW_LINKS)) {
                Files.delete(home);
            }
            Files.createDirectories(home);
            Path config = userConfig(own);
            Path copy = home.resolve("config.toml");
            if (config != null && Files.isRegularFile(config)) {
                Files.copy(config, copy, StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.deleteIfExists(copy);
            }
            Files.deleteIfExists(home.resolve("hooks.json"));
            if (hookCommand != null) {
                String text = Files.exists(copy) ? Files.readString(copy) : "";
                Files.writeString(
                        copy,
                        text
                                + (text.isEmpty() || text.endsWith("\n") ? "" : "\n")
                                + hookTable(hookCommand, hookTimeoutSeconds));
            }
            return home;
        } catch (IOException e) {
            throw new SandboxException(
                    "Cannot prepare the Codex home of " + s.id() + " (" + home + "): " + e.getMessage(), e);
        }
    }

    /** Paddock's PreToolUse hook as TOML tables (Codex runs it for every tool; the command as a basic string). */
    static String hookTable(String command, int timeoutSeconds) {
        String quoted = "\"" + command.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        return "\n# Paddock's hook: each tool call is decided by Paddock (rewritten before each run)\n"
                + "[[hooks.PreToolUse]]\nmatcher = \".*\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = "
                + quoted + "\ntimeout = " + timeoutSeconds + "\n";
    }

    private static Path userConfig(Map<String, String> own) {
        String codexHome = own.get(VARIABLE);
        if (codexHome != null && !codexHome.isBlank()) {
            return Path.of(codexHome).resolve("config.toml");
        }
        String home = own.get("HOME");
        return home == null || home.isBlank() ? null : Path.of(home, ".codex", "config.toml");
    }
}
