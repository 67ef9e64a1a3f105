package dev.paddock.ui.policy;

import dev.paddock.approval.PolicyFileEditor;
import dev.paddock.policy.PolicyFile;
import java.nio.file.Path;

/**
 * What the Policy dialog needs from Paddock: where the policy files are, reading and writing them, importing Claude
 * Code's rules and installing the hook. Every method but {@link #home} and {@link #policyRepository} may block on
 * the disk or the store: the panel calls them off the FX thread.
 */
public interface PolicyEditorBackend {
    /** Paddock's home (the global policy file, the hook script). */
    Path home();

    /** The repository whose policy applies to {@code path}: its main worktree, never a sandbox's worktree. */
    Path policyRepository(Path path);

    /** The text of {@code file}, or null when it does not exist. */
    String read(Path file) throws Exception;

    /** The global policy file, parsed; a file that cannot be read is one with that error. */
    PolicyFile.Contents readGlobal();

    /**
     * Writes {@code content} to {@code file} through a temporary file and an atomic move, the previous file kept as
     * {@code .bak}.
     *
     * @return whether a previous file was kept
     */
    boolean write(Path file, String content) throws Exception;

    /** Merges the rules of {@code repository}'s {@code .claude/settings.json} into {@code current}; writes nothing. */
    PolicyFileEditor.Imported importClaudeSettings(Path repository, String current) throws Exception;

    /**
     * Writes the hook script to Paddock's home and merges its PreToolUse entry into {@code repository}'s
     * {@code .claude/settings.json}.
     *
     * @return what was done, for people
     */
    String installHook(Path repository) throws Exception;
}
