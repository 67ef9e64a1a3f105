package dev.paddock.cli;

import dev.paddock.approval.ClaudeHookInstaller;
import dev.paddock.approval.HookScript;
import dev.paddock.common.PaddockException;
import dev.paddock.settings.SettingsStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code paddock hook install [--repo PATH] [--timeout SECONDS]}: writes the light hook script
 * ({@code <home>/bin/paddock-hook-claude}, see {@link HookScript}) and merges its PreToolUse entry into
 * {@code <repo>/.claude/settings.json} (see {@link ClaudeHookInstaller}: other content kept, idempotent,
 * {@code .bak} backup, a corrupt file refused untouched). Needs no running Paddock.
 */
@Command(
        name = "install",
        mixinStandardHelpOptions = true,
        description = "Install Paddock's PreToolUse hook in a repository's .claude/settings.json.")
public final class HookInstallCommand implements Callable<Integer> {
    @ParentCommand
    HookCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repo;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            description = "Claude Code's timeout for the hook, in seconds; must exceed Paddock's approval timeout"
                    + " (default: approval.timeoutMs + " + ClaudeHookInstaller.SPARE_S + " s).")
    Integer timeout;

    @Override
    public Integer call() throws PaddockException {
        Path dir = repo.orCurrentDirectory();
        if (!Files.isDirectory(dir)) {
            throw new PaddockException(dir + " is not a directory.");
        }
        long approvalMs = approvalTimeoutMs();
        Path script;
        try {
            script = HookScript.write(parent.root.resolveHome().dir(), approvalMs);
        } catch (IOException e) {
            throw new PaddockException("Cannot write the hook script: " + e.getMessage(), e);
        }
        int seconds = timeout != null ? timeout : ClaudeHookInstaller.timeoutFor(approvalMs);
        ClaudeHookInstaller.Result r = ClaudeHookInstaller.install(dir, script, seconds);
        PrintWriter out = spec.commandLine().getOut();
        out.println(
                r.changed()
                        ? "Installed the PreToolUse hook in " + r.settingsFile() + " (previous file kept as"
                                + " settings.json.bak if there was one)."
                        : "The PreToolUse hook is already installed in " + r.settingsFile() + "; nothing changed.");
        out.println("Hook command: " + r.command() + " (timeout " + seconds + " s)");
        out.flush();
        return 0;
    }

    /** Paddock's approval timeout, ms: from the running Paddock, else from the store of the home. */
    private long approvalTimeoutMs() throws PaddockException {
        String name = SettingsStore.APPROVAL_TIMEOUT_MS.name();
        return SettingsAccess.run(
                parent.root.resolveHome(),
                c -> Long.parseLong(c.get(name).value()),
                s -> s.get(SettingsStore.APPROVAL_TIMEOUT_MS));
    }
}
