package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.common.Trees;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.WorktreeInfo;
import dev.paddock.worktree.WorktreeManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The steps of a removal that touch disk and git, each recorded as an event: remove the worktree, delete
 * the sandbox's folder {@code .worktrees/<id>/}, and delete the branch when merged or asked for. Each step
 * is idempotent, so a removal interrupted by a crash is finished by running them again.
 */
final class WorktreeTeardown {
    private final WorktreeManager worktrees;
    private final RemovalInspector inspector;
    private final EventLog events;

    WorktreeTeardown(WorktreeManager worktrees, RemovalInspector inspector, EventLog events) {
        this.worktrees = worktrees;
        this.inspector = inspector;
        this.events = events;
    }

    /**
     * {@code git worktree remove} ({@code --force} twice when {@code force}: also dirty or locked ones), when
     * git still lists the worktree.
     *
     * <p>Without force, git refuses every worktree with an initialised submodule ("working trees containing
     * submodules cannot be moved or removed"): it cannot tell whether the submodule's repository, which lives in
     * the worktree's admin directory and goes with it, holds work. Paddock can ({@link RemovalInspector}): when
     * the worktree and its submodules hold nothing uncommitted, no submodule commit that no remote has, and git has
     * no lock on it, it removes the worktree with force.
     *
     * @throws SandboxException when git refuses; the sandbox stays in {@code cleaning}
     */
    void removeWorktree(SandboxRecord s, Path main, Path worktree, boolean force) throws PaddockException {
        Optional<WorktreeInfo> listed = inspector.listed(main, worktree);
        if (listed.isEmpty()) {
            return;
        }
        boolean withSubmodules = false;
        try {
            worktrees.remove(main, worktree, force);
        } catch (GitException e) {
            if (force || !WorktreeManager.refusedForSubmodules(e)) {
                throw notRemoved(s, worktree, force, e.getMessage(), e);
            }
            RemovalPlan now = inspector.inspect(s, main, worktree).plan();
            if (!now.uncommitted().isEmpty() || !now.submoduleCommits().isEmpty() || now.locked()) {
                throw notRemoved(
                        s,
                        worktree,
                        false,
                        "it holds work again ("
                                + RemovalMessages.list(concat(now.uncommitted(), now.submoduleCommits()), ", ") + ")"
                                + (now.locked() ? ", or git" + " locked it" : ""),
                        e);
            }
            try {
                worktrees.remove(main, worktree, true);
            } catch (GitException again) {
                throw notRemoved(s, worktree, false, again.getMessage(), again);
            }
            withSubmodules = true;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("path", worktree.toString());
        details.put("forced", force);
        if (withSubmodules) {
            details.put("submodules", true);
        }
        event(
                s,
                "sandbox.worktree_removed",
                "Removed the worktree " + main.relativize(worktree)
                        + (force
                                ? " (forced)"
                                : withSubmodules
                                        ? " with its submodules' repositories (nothing in them was" + " lost)"
                                        : ""),
                details);
    }

    private static SandboxException notRemoved(
            SandboxRecord s, Path worktree, boolean force, String why, Exception cause) {
        return new SandboxException(
                "Could not remove the worktree " + worktree + " of " + s.id() + ": " + why + ". " + s.id()
                        + " stays in cleaning; remove it again to retry" + (force ? "." : ", or with force."),
                cause);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /**
     * Deletes {@code <repo>/.worktrees/<id>/} (the worktree's leftovers and Paddock's control files), after
     * checking once more that it is exactly that folder.
     */
    void deleteSandboxDir(SandboxRecord s, Path main, Path worktree) throws PaddockException {
        Path root = main.toAbsolutePath().normalize().resolve(SandboxLayout.ROOT);
        Path dir = root.resolve(s.id()).normalize();
        if (!dir.getParent().equals(root) || !worktree.startsWith(dir) || worktree.equals(dir)) {
            throw new SandboxException("Paddock will not delete " + dir + " for " + s.id() + ": it is not the"
                    + " sandbox's own folder under " + root + ". Nothing was deleted.");
        }
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Trees.delete(dir);
        } catch (IOException e) {
            throw new SandboxException(
                    "Could not delete " + dir + ": " + e.getMessage() + ". " + s.id()
                            + " stays in cleaning; remove it again to retry.",
                    e);
        }
        event(s, "sandbox.directory_removed", "Deleted " + main.relativize(dir), Map.of("path", dir.toString()));
    }

    /**
     * Deletes the branch when it is merged into the base branch, or when {@code deleteBranch}; never the base
     * branch, never a branch checked out in a worktree. Failures are recorded, not thrown: the worktree is
     * gone by now and the branch is merely kept.
     */
    void settleBranch(SandboxRecord s, Path main, boolean deleteBranch, String who) throws PaddockException {
        String branch = s.workspace().branch();
        try {
            if (branch == null || branch.equals(s.workspace().baseBranch()) || !worktrees.branchExists(main, branch)) {
                return;
            }
            Optional<Path> elsewhere = worktrees.checkedOutIn(main, branch);
            if (elsewhere.isPresent()) {
                kept(s, "it is checked out in " + elsewhere.get());
                return;
            }
            Optional<BaseComparison> base = BaseComparison.of(worktrees, main, s);
            boolean merged = base.isPresent()
                    && worktrees.isMerged(main, branch, base.get().revision());
            if (!merged && !deleteBranch) {
                if (base.isEmpty()) {
                    kept(
                            s,
                            "its base " + s.workspace().baseBranch() + " is not a branch and the commit it started"
                                    + " from is not known, so Paddock cannot tell whether it is merged");
                    return;
                }
                int commits = worktrees
                        .unmergedCommits(main, branch, base.get().revision())
                        .size();
                kept(
                        s,
                        "it has " + RemovalMessages.count(commits, "commit") + " that "
                                + base.get().label() + " does not have");
                return;
            }
            String tip = worktrees.resolveCommit(main, "refs/heads/" + branch);
            worktrees.deleteBranch(main, branch, true);
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("branch", branch);
            details.put("tip", tip);
            details.put("merged", merged);
            details.put("by", who);
            event(
                    s,
                    "sandbox.branch_deleted",
                    "Deleted the branch " + branch + " (at " + tip.substring(0, 8) + ")"
                            + (!merged
                                    ? " on request of " + who + ", though not merged"
                                    : base.get().isBranch()
                                            ? ": merged into " + s.workspace().baseBranch()
                                            : ": it has no commit since "
                                                    + base.get().label()),
                    details);
        } catch (GitException e) {
            kept(s, "git could not delete it: " + e.getMessage());
        }
    }

    private void kept(SandboxRecord s, String why) throws PaddockException {
        event(
                s,
                "sandbox.branch_kept",
                "Kept the branch " + s.workspace().branch() + ": " + why,
                Map.of("branch", s.workspace().branch(), "reason", why));
    }

    private void event(SandboxRecord s, String kind, String message, Map<String, ?> details) throws PaddockException {
        events.append(EventDraft.of(s.repositoryId(), s.id(), kind, s.id() + ": " + message, details));
    }
}
