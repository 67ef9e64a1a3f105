package dev.paddock.panel;

import dev.paddock.approval.ClaudeHookInstaller;
import dev.paddock.approval.HookScript;
import dev.paddock.approval.PolicyFileEditor;
import dev.paddock.common.JsonFiles;
import dev.paddock.policy.PolicyFile;
import dev.paddock.ui.policy.PolicyEditorBackend;
import dev.paddock.worktree.MainWorktree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;

/** {@link PolicyEditorBackend} over the policy files on disk, the approval package's editors and the hook script. */
public final class FilePolicyEditorBackend implements PolicyEditorBackend {
    private final Path home;
    private final LongSupplier approvalTimeoutMs;

    /**
     * @param home Paddock's home
     * @param approvalTimeoutMs reads Paddock's approval timeout (ms), for the hook's own timeout
     */
    public FilePolicyEditorBackend(Path home, LongSupplier approvalTimeoutMs) {
        this.home = home;
        this.approvalTimeoutMs = approvalTimeoutMs;
    }

    @Override
    public Path home() {
        return home;
    }

    @Override
    public Path policyRepository(Path path) {
        // Never a sandbox's worktree: its files are the agent's, and the policy is read from the main worktree.
        Path normal = path.toAbsolutePath().normalize();
        return MainWorktree.ofSandboxArea(normal).orElse(normal);
    }

    @Override
    public String read(Path file) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    @Override
    public PolicyFile.Contents readGlobal() {
        Path global = PolicyFile.globalFile(home);
        try {
            return PolicyFile.read(global);
        } catch (IOException e) {
            return new PolicyFile.Contents(global, List.of(), null, List.of("cannot read " + global + ": " + e));
        }
    }

    @Override
    public boolean write(Path file, String content) throws Exception {
        return JsonFiles.writeTextWithBackup(file, content);
    }

    @Override
    public PolicyFileEditor.Imported importClaudeSettings(Path repository, String current) throws Exception {
        return PolicyFileEditor.mergeClaudeSettings(current, ClaudeHookInstaller.settingsFile(repository));
    }

    @Override
    public String installHook(Path repository) throws Exception {
        long approvalMs = approvalTimeoutMs.getAsLong();
        Path script = HookScript.write(home, approvalMs);
        ClaudeHookInstaller.Result r =
                ClaudeHookInstaller.install(repository, script, ClaudeHookInstaller.timeoutFor(approvalMs));
        return r.changed()
                ? "Installed the PreToolUse hook in " + r.settingsFile() + " (hook command " + r.command()
                        + "; the previous file, if any, is kept as settings.json.bak)."
                : "The hook is already installed in " + r.settingsFile() + "; nothing changed.";
    }
}
