package dev.paddock.sandbox;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A worktree or folder under {@code <repo>/.worktrees/} that no open sandbox record owns:
 * left by a crash between creating a worktree and storing its record, by a record closed while its folder
 * stayed, or made by hand. A person adopts it (it becomes a sandbox waiting for them) or removes it.
 *
 * @param path absolute path: the worktree git lists, or the folder {@code .worktrees/<name>}
 * @param kind what it is
 * @param name the folder under {@code .worktrees/} it lives in: the sandbox id it would be adopted as
 * @param mainWorktree the repository's main worktree
 * @param branch the branch checked out in it, or null (detached, or not a worktree)
 * @param head its head commit, or null
 * @param lockedReason null when not locked; git's lock reason (possibly empty) when locked
 * @param prunableReason null when not prunable; git's reason (e.g. its folder is gone) otherwise
 * @param missing whether the folder of a worktree git lists is not on disk (prunable, or locked so git keeps it)
 */
public record Orphan(
        Path path,
        Kind kind,
        String name,
        Path mainWorktree,
        String branch,
        String head,
        String lockedReason,
        String prunableReason,
        boolean missing) {

    /** An orphan whose folder is on disk unless git says it is prunable. */
    public Orphan(
            Path path,
            Kind kind,
            String name,
            Path mainWorktree,
            String branch,
            String head,
            String lockedReason,
            String prunableReason) {
        this(path, kind, name, mainWorktree, branch, head, lockedReason, prunableReason, prunableReason != null);
    }

    /** What an orphan is. */
    public enum Kind {
        /** A worktree git lists under {@code .worktrees/} (possibly locked, or prunable when its folder is gone). */
        WORKTREE,
        /** A folder under {@code .worktrees/} with no worktree git knows of in it. */
        DIRECTORY
    }

    /** The action that makes it a sandbox record. */
    public static final String ADOPT = "adopt";
    /** The action that removes it from disk and from git's list (the branch is kept). */
    public static final String REMOVE = "remove";

    public boolean locked() {
        return lockedReason != null;
    }

    public boolean prunable() {
        return prunableReason != null;
    }

    /** What a person can do with it: {@link #ADOPT} and/or {@link #REMOVE}; empty when neither is safe. */
    public List<String> actions() {
        List<String> a = new ArrayList<>(2);
        if (whyNotAdoptable() == null) {
            a.add(ADOPT);
        }
        if (whyNotRemovable() == null) {
            a.add(REMOVE);
        }
        return List.copyOf(a);
    }

    /** Why it cannot be adopted, or null when it can. */
    public String whyNotAdoptable() {
        if (kind == Kind.DIRECTORY) {
            return path + " is not a git worktree (git lists none in it), so there is nothing to adopt; remove it.";
        }
        if (prunable() || missing || !Files.isDirectory(path)) {
            return "The folder of the worktree " + path + " is gone" + (prunable() ? " (" + prunableReason + ")" : "")
                    + "; remove it to make git forget it.";
        }
        if (branch == null) {
            return "The worktree " + path + " has a detached HEAD; check out a branch in it first (git -C " + path
                    + " switch -c NAME), then adopt it.";
        }
        try {
            SandboxIds.check(name);
            if (!new SandboxLayout(mainWorktree, name, branch).worktree().equals(path)) {
                return "The worktree " + path + " is not where Paddock puts the branch " + branch + " ("
                        + new SandboxLayout(mainWorktree, name, branch).worktree() + "); move it there (git worktree"
                        + " move) to adopt it.";
            }
        } catch (SandboxException e) {
            return "The folder name \"" + name + "\" cannot be a sandbox id: " + e.getMessage();
        }
        return null;
    }

    /** Why it cannot be removed, or null when it can. */
    public String whyNotRemovable() {
        if (kind == Kind.WORKTREE && !prunable() && !SandboxLayout.isSandboxWorktree(mainWorktree, path.toString())) {
            return "The worktree " + path + " is .worktrees/" + name + " itself, not a worktree inside a sandbox's"
                    + " folder; Paddock does not delete it. Remove it with git worktree remove yourself.";
        }
        return null;
    }

    /** One line for people: what it is and why it is an orphan. */
    public String describe() {
        String what = switch (kind) {
            case WORKTREE ->
                "worktree" + (branch == null ? " (detached HEAD)" : " on " + branch)
                        + (locked() ? ", locked" + (lockedReason.isBlank() ? "" : " (" + lockedReason + ")") : "")
                        + (missing || prunable() ? ", its folder is missing" : "");
            case DIRECTORY -> "folder with no git worktree in it";
        };
        return mainWorktree.relativize(path) + ": " + what + "; no open sandbox owns it";
    }
}
