package dev.paddock.worktree;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One worktree of a repository as git reports it, plus what Paddock adds (subject, dirty state).
 *
 * @param path absolute path of the worktree
 * @param head commit id checked out, or null (a new, unborn branch)
 * @param branch short branch name ({@code feature/login}), or null when detached or bare
 * @param detached whether HEAD is detached
 * @param main whether this is the repository's main worktree (the first one git lists)
 * @param lockedReason null when not locked; the reason (possibly empty) when locked
 * @param prunableReason null when not prunable; git's reason otherwise (e.g. its directory is gone)
 * @param subject first line of the head commit's message, or null when unknown
 * @param dirty whether the worktree has uncommitted changes or untracked files; null when not checked
 *     (prunable worktrees, or a check that failed)
 * @param changedFiles number of changed or untracked paths (0 when clean or unknown)
 * @param missing whether its folder is not on disk (deleted behind git's back): git still lists it, as prunable,
 *     or, when it is locked, as nothing special at all
 */
public record WorktreeInfo(
        Path path,
        String head,
        String branch,
        boolean detached,
        boolean main,
        String lockedReason,
        String prunableReason,
        String subject,
        Boolean dirty,
        int changedFiles,
        boolean missing) {

    /** A worktree whose folder is on disk. */
    public WorktreeInfo(
            Path path,
            String head,
            String branch,
            boolean detached,
            boolean main,
            String lockedReason,
            String prunableReason,
            String subject,
            Boolean dirty,
            int changedFiles) {
        this(path, head, branch, detached, main, lockedReason, prunableReason, subject, dirty, changedFiles, false);
    }

    public boolean locked() {
        return lockedReason != null;
    }

    public boolean prunable() {
        return prunableReason != null;
    }

    /** The branch name, or {@code (detached)} / {@code (unknown)} when there is none. */
    public String branchLabel() {
        if (branch != null) {
            return branch;
        }
        return detached ? "(detached HEAD)" : "(no branch)";
    }

    /** The head commit id shortened to 8 characters, or an empty string. */
    public String shortHead() {
        return head == null ? "" : head.substring(0, Math.min(8, head.length()));
    }

    /** A copy with the subject and dirty state filled in. */
    public WorktreeInfo withDetails(String newSubject, Boolean newDirty, int newChangedFiles) {
        return new WorktreeInfo(
                path,
                head,
                branch,
                detached,
                main,
                lockedReason,
                prunableReason,
                newSubject,
                newDirty,
                newChangedFiles,
                missing);
    }

    /** A copy saying whether its folder is on disk now (one {@code stat}). */
    public WorktreeInfo withMissingChecked() {
        boolean gone = !Files.isDirectory(path);
        return gone == missing
                ? this
                : new WorktreeInfo(
                        path,
                        head,
                        branch,
                        detached,
                        main,
                        lockedReason,
                        prunableReason,
                        subject,
                        dirty,
                        changedFiles,
                        gone);
    }
}
