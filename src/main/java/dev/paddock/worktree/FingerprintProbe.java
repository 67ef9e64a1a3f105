package dev.paddock.worktree;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A worktree's health fingerprint being taken ({@link WorktreeManager#startFingerprint}): {@code status} and
 * {@code rev-parse --show-toplevel} run side by side while the caller sets the identity; {@link #finish} reads the
 * identity and waits for the rest.
 */
public final class FingerprintProbe {
    private final GitCli git;
    private final Path worktree;
    private final CompletableFuture<GitCli.Result> top;
    private final CompletableFuture<StatusV2> status;

    private FingerprintProbe(
            GitCli git, Path worktree, CompletableFuture<GitCli.Result> top, CompletableFuture<StatusV2> status) {
        this.git = git;
        this.worktree = worktree;
        this.top = top;
        this.status = status;
    }

    /**
     * Reads the identity the worktree commits with (as git resolves it now) and waits for the status and
     * the top level.
     *
     * @throws GitException when git cannot read the worktree
     */
    public WorktreeManager.Fingerprint finish() throws GitException {
        GitCli.Result ident = git.run(worktree, "config", "--get-regexp", "^user\\.(name|email)$");
        GitCli.Result toplevel = SideBySide.awaitGit(top);
        StatusV2 st = SideBySide.awaitGit(status);
        if (!toplevel.ok()) {
            throw new GitException("git rev-parse --show-toplevel failed in " + worktree + ": " + toplevel.errorLine());
        }
        String name = null;
        String email = null;
        for (String line : ident.stdout().split("\n")) { // several scopes: the last one wins, as in git
            int sp = line.indexOf(' ');
            if (sp > 0 && line.substring(0, sp).equalsIgnoreCase("user.name")) {
                name = line.substring(sp + 1);
            } else if (sp > 0 && line.substring(0, sp).equalsIgnoreCase("user.email")) {
                email = line.substring(sp + 1);
            }
        }
        return new WorktreeManager.Fingerprint(
                toplevel.stdout().strip(), st.branch(), st.head(), st.changedFiles(), name, email);
    }

    /** Starts the fingerprint of {@code worktree}: see {@link WorktreeManager#startFingerprint}. */
    static FingerprintProbe start(GitCli git, Path worktree, boolean freshCheckout) {
        List<String> status =
                new ArrayList<>(List.of("--no-optional-locks", "status", "--porcelain=v2", "--branch", "-z"));
        if (freshCheckout) {
            status.addAll(0, List.of("-c", "core.preloadIndex=false"));
        }
        return new FingerprintProbe(
                git,
                worktree,
                SideBySide.start(() -> git.run(worktree, "rev-parse", "--show-toplevel")),
                SideBySide.start(() -> StatusV2.parse(git.runOk(worktree, status.toArray(String[]::new)))));
    }
}
