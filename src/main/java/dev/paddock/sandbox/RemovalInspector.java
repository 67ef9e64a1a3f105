package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Trees;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.Submodules;
import dev.paddock.worktree.WorktreeInfo;
import dev.paddock.worktree.WorktreeManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Looks at a sandbox before it is removed: whether its recorded worktree path may be deleted at all (the
 * guard), and what removing it would lose.
 */
final class RemovalInspector {
    /** Files listed at most for a folder that is not a git worktree. */
    static final int FILES_MAX = 200;

    private final WorktreeManager worktrees;
    private final java.util.function.Predicate<SandboxRecord> runs;
    private final GitCli git = new GitCli();

    /** @param runs whether the process tree a sandbox's record names still runs */
    RemovalInspector(WorktreeManager worktrees, java.util.function.Predicate<SandboxRecord> runs) {
        this.worktrees = worktrees;
        this.runs = runs;
    }

    /**
     * What removal would lose, with what the reclaimer needs besides the plan.
     *
     * @param isWorktree whether the worktree folder is a git worktree of its own
     * @param headBranch the branch checked out in it, or null (detached, or no worktree)
     * @param detachedCommits commits only its detached HEAD reaches
     * @param submodules what its submodules hold (their paths are in the plan's uncommitted ones too): work that no
     *     commit on the sandbox's branch can keep
     * @param base what the branch was compared with, or null when it has no branch (any more)
     * @param remoteOwed why the workspace on a remote engine holds work not brought back yet, or null
     */
    record Inspection(
            RemovalPlan plan,
            boolean isWorktree,
            String headBranch,
            List<String> detachedCommits,
            Submodules.Work submodules,
            BaseComparison base,
            String remoteOwed) {}

    /**
     * The worktree path of a sandbox, if Paddock may delete it: absolute, strictly inside
     * {@code <repo>/.worktrees/<id>/} ({@link SandboxLayout#isSandboxWorktree} and the sandbox's own folder).
     *
     * @throws SandboxException otherwise (empty, relative, outside {@code .worktrees/}, the repository itself,
     *     another sandbox's folder), saying that nothing was changed
     */
    static Path guardedWorktree(SandboxRecord s, Path main) throws SandboxException {
        SandboxIds.check(s.id());
        String p = s.workspace().worktreePath();
        Path root = main.toAbsolutePath().normalize().resolve(SandboxLayout.ROOT);
        String why = null;
        Path path = null;
        if (p == null || p.isBlank()) {
            why = "its record names no worktree path";
        } else {
            try {
                path = Path.of(p);
            } catch (InvalidPathException e) {
                why = "its worktree path \"" + p + "\" is not a valid path here";
            }
        }
        if (why == null && !path.isAbsolute()) {
            why = "its worktree path \"" + p + "\" is relative";
        } else if (why == null && path.normalize().equals(main.toAbsolutePath().normalize())) {
            why = "its worktree path " + p + " is the repository itself";
        } else if (why == null && !SandboxLayout.isSandboxWorktree(main, p)) {
            why = "its worktree path " + p + " is not inside " + root + "/<sandbox id>/";
        } else if (why == null && !path.normalize().startsWith(root.resolve(s.id()))) {
            why = "its worktree path " + p + " is not inside " + root.resolve(s.id()) + "/, the folder of this sandbox";
        }
        if (why != null) {
            throw new SandboxException("Paddock will not remove " + s.id() + ": " + why + ". Paddock only ever deletes"
                    + " worktrees under " + root + "/<sandbox id>/, so nothing was changed. Look at that path"
                    + " yourself; if it really is this sandbox's worktree, move or delete it by hand.");
        }
        return path.normalize();
    }

    /** Inspects the sandbox's worktree (already guarded) and branch in the repository at {@code main}. */
    Inspection inspect(SandboxRecord s, Path main, Path worktree) throws PaddockException {
        boolean present = Files.exists(worktree, LinkOption.NOFOLLOW_LINKS);
        boolean isWorktree = present && worktrees.isWorktreeRoot(worktree);
        List<String> uncommitted = new ArrayList<>();
        List<String> detached = List.of();
        String headBranch = null;
        Submodules.Work submodules = Submodules.Work.NONE;
        IgnoredFiles ignored = IgnoredFiles.NONE;
        if (isWorktree) {
            ignored = IgnoredFiles.of(git, worktree, IgnoredFiles.CAP);
            uncommitted.addAll(worktrees.uncommitted(worktree));
            submodules = worktrees.submodules().work(worktree);
            uncommitted.addAll(submodules.paths());
            headBranch = worktrees.headBranch(worktree);
            detached = worktrees.commitsOnlyInHead(worktree);
        } else if (present) {
            uncommitted.addAll(filesOf(worktree));
        }
        List<String> unmerged = new ArrayList<>();
        boolean merged = false;
        BaseComparison base = null;
        String branch = s.workspace().branch();
        if (branch != null && worktrees.branchExists(main, branch)) {
            base = BaseComparison.of(worktrees, main, s)
                    .orElseThrow(() -> new SandboxException("The base "
                            + s.workspace().baseBranch() + " of " + s.id()
                            + " is not a branch here and the commit it started"
                            + " from is not known, so Paddock cannot tell which commits of " + branch
                            + " would be unmerged;"
                            + " nothing was changed. Remove with force (the branch " + branch + " is kept)."));
            unmerged.addAll(worktrees.unmergedCommits(main, branch, base.revision()));
            merged = worktrees.isMerged(main, branch, base.revision());
        }
        detached.forEach(c -> unmerged.add(c + " (detached HEAD)"));
        boolean running = s.state().mayHaveProcess() || (s.runRef().pid() != null && runs.test(s));
        String locked = listed(main, worktree).map(WorktreeInfo::lockedReason).orElse(null);
        RemovalPlan plan = new RemovalPlan(
                s.id(),
                running,
                present,
                List.copyOf(uncommitted),
                List.copyOf(unmerged),
                merged,
                locked,
                submodules.commits(),
                base == null ? null : base.label(),
                ignored);
        return new Inspection(plan, isWorktree, headBranch, detached, submodules, base, remoteOwed(s, main));
    }

    /** What the sandbox's control directory says of work on a remote engine not brought back, or null. */
    static String remoteOwed(SandboxRecord s, Path main) throws SandboxException {
        Path f = main.resolve(SandboxLayout.ROOT)
                .resolve(s.id())
                .resolve(SandboxLayout.CONTROL)
                .resolve(dev.paddock.isolation.RunId.WORKSPACE_OWED);
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try {
            return Files.readString(f).strip();
        } catch (IOException e) {
            throw new SandboxException("Cannot read " + f + ": " + e.getMessage() + "; nothing was changed.", e);
        }
    }

    /** The entry git keeps for {@code worktree}, if it lists one. */
    Optional<WorktreeInfo> listed(Path main, Path worktree) throws GitException {
        for (WorktreeInfo w : worktrees.list(main)) {
            if (w.path().toAbsolutePath().normalize().equals(worktree)) {
                return Optional.of(w);
            }
        }
        return Optional.empty();
    }

    private static List<String> filesOf(Path folder) throws SandboxException {
        try {
            return Trees.files(folder, FILES_MAX).stream().map(f -> "?? " + f).toList();
        } catch (IOException e) {
            throw new SandboxException(
                    "Cannot list the files in " + folder + ": " + e.getMessage() + "; nothing was changed.", e);
        }
    }
}
