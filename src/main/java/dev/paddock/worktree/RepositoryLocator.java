package dev.paddock.worktree;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds the git repository that contains a path: from the main worktree, a linked worktree, a
 * subdirectory, or the {@code .git} directory itself, it answers the same repository. A path in a repository's
 * sandbox folder ({@code <repo>/.worktrees/...}) is located from that repository's main worktree, never from
 * the sandbox's own {@code .git} file, which its agent could point anywhere ({@link MainWorktree}).
 */
public final class RepositoryLocator {
    private final GitCli git;

    public RepositoryLocator(GitCli git) {
        this.git = git;
    }

    /**
     * Locates the repository containing {@code path}.
     *
     * @throws GitException when the path does not exist, is not inside a git repository, or is a bare
     *     repository (Paddock needs a working tree to put sandboxes under), with a message saying what to do
     */
    public GitRepository locate(Path path) throws GitException {
        Path p = path.toAbsolutePath().normalize();
        if (!Files.exists(p)) {
            throw new GitException(p + " does not exist.");
        }
        if (!Files.isDirectory(p)) {
            p = p.getParent();
        }
        p = MainWorktree.ofSandboxArea(p).orElse(p);
        // git's worktree list is asked beside the probe; it is used only when the probe finds a repository.
        Path dir = p;
        java.util.concurrent.CompletableFuture<List<PorcelainParser.Entry>> listed =
                SideBySide.start(() -> PorcelainParser.list(git, dir));
        GitCli.Result probe =
                git.run(p, "rev-parse", "--path-format=absolute", "--is-bare-repository", "--git-common-dir");
        if (!probe.ok()) {
            if (probe.stderr().contains("not a git repository")) {
                throw new GitException(p + " is not inside a git repository. Choose the folder of a"
                        + " repository (one where `git status` works), or create one with `git init`.");
            }
            throw new GitException("git cannot read the repository at " + p + ": " + probe.errorLine());
        }
        List<String> lines = probe.stdout().lines().toList();
        if (lines.size() < 2) {
            throw new GitException("Unexpected answer from git rev-parse in " + p + ": " + probe.stdout());
        }
        Path commonDir = toPath(lines.get(1));
        if (Boolean.parseBoolean(lines.get(0).strip())) {
            throw new GitException(p + " is a bare repository (it has no working tree). Paddock puts"
                    + " sandboxes beside a working tree: clone it first (`git clone " + commonDir
                    + " my-checkout`) and open the clone.");
        }
        // The main worktree is the first record of `git worktree list`, whatever core.worktree says.
        List<PorcelainParser.Entry> entries = SideBySide.awaitGit(listed);
        if (entries.isEmpty() || entries.get(0).bare()) {
            throw new GitException(p + " belongs to a bare repository (" + commonDir + "). Paddock needs a"
                    + " repository with a main working tree: clone it and open the clone.");
        }
        // git's list names the main worktree's branch (null when detached): no second git process for it.
        WorktreeInfo first = entries.get(0).info();
        return new GitRepository(first.path(), commonDir, first.detached() ? null : first.branch());
    }

    private static Path toPath(String s) throws GitException {
        try {
            return Path.of(s.strip()).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new GitException(
                    "The path " + s.strip() + " cannot be represented in this Java process;"
                            + " start Paddock with a UTF-8 locale (e.g. LANG=C.UTF-8).",
                    e);
        }
    }
}
