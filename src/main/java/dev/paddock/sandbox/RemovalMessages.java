package dev.paddock.sandbox;

import dev.paddock.worktree.Submodules;
import java.util.List;

/** The words a person reads when a removal is refused: what would be lost, and what they can choose. */
final class RemovalMessages {
    /** Entries of a list shown at most; the rest are counted. */
    static final int LISTED_MAX = 20;

    private RemovalMessages() {}

    /** Why a strict removal was refused, listing the uncommitted paths and unmerged commits. */
    static String wouldLose(SandboxRecord s, RemovalPlan plan, boolean stopped) {
        StringBuilder m =
                new StringBuilder("Removing ").append(s.id()).append(" would lose work, so nothing was removed");
        m.append(stopped ? " (its agent was stopped first):" : ":");
        if (!plan.uncommitted().isEmpty()) {
            m.append("\n- ")
                    .append(count(plan.uncommitted().size(), "uncommitted path"))
                    .append(" in ")
                    .append(s.workspace().worktreePath())
                    .append(": ")
                    .append(list(plan.uncommitted(), ", "));
        }
        if (!plan.unmergedCommits().isEmpty()) {
            m.append("\n- ")
                    .append(count(plan.unmergedCommits().size(), "commit"))
                    .append(" that ")
                    .append(
                            plan.comparedWith() != null
                                    ? plan.comparedWith()
                                    : s.workspace().baseBranch())
                    .append(" does not have: ")
                    .append(list(plan.unmergedCommits(), "; "));
        }
        if (!plan.submoduleCommits().isEmpty()) {
            m.append("\n- ")
                    .append(count(plan.submoduleCommits().size(), "commit"))
                    .append(" in submodules that no"
                            + " remote of theirs has (the submodules' repositories go with the worktree): ")
                    .append(list(plan.submoduleCommits(), "; "));
        }
        if (plan.ignored().files() > 0) {
            m.append("\n- not counted as work, but removing also deletes ")
                    .append(plan.ignored().summary())
                    .append(" (git ignores them: build output and the like)");
        }
        m.append("\n").append(choices(s));
        return m.toString();
    }

    /**
     * Why a commit-mode removal stops at work inside submodules: a commit on the sandbox's branch records a
     * submodule's commit, never the submodule's own changes, and the submodule's repository is deleted with the
     * worktree.
     *
     * @param committed the commit made of what could be committed, or null when there was nothing
     */
    static String submoduleWork(SandboxRecord s, Submodules.Work work, String committed) {
        StringBuilder m = new StringBuilder();
        if (committed != null) {
            m.append("Committed what ")
                    .append(s.id())
                    .append(" left uncommitted on ")
                    .append(s.workspace().branch())
                    .append(" (")
                    .append(SandboxCreator.shortId(committed))
                    .append("). ");
        }
        m.append("What is inside its submodules cannot be kept by a commit on ")
                .append(s.workspace().branch())
                .append(", so nothing was removed:");
        if (!work.paths().isEmpty()) {
            m.append("\n- ")
                    .append(count(work.paths().size(), "path"))
                    .append(" inside submodules: ")
                    .append(list(work.paths(), ", "));
        }
        if (!work.commits().isEmpty()) {
            m.append("\n- ")
                    .append(count(work.commits().size(), "commit"))
                    .append(" in submodules that no remote of" + " theirs has: ")
                    .append(list(work.commits(), "; "));
        }
        return m.append("\nChanges in a submodule need a commit in the submodule itself (git -C ")
                .append(s.workspace().worktreePath())
                .append("/<submodule> commit -a), and that commit pushed to the"
                        + " submodule's remote, because the submodule's repository is deleted with the worktree; files"
                        + " in the folder of a submodule that is not initialised belong to no repository: move them out,"
                        + " or initialise it (git submodule update --init) and commit them there. Then remove again, or"
                        + " remove with force to discard it all.")
                .toString();
    }

    /** Why a strict removal of a locked worktree was refused. */
    static String locked(SandboxRecord s, RemovalPlan plan) {
        return "The worktree of " + s.id() + " is locked"
                + (plan.lockedReason().isBlank() ? "" : " (\"" + plan.lockedReason() + "\")")
                + ", so nothing was removed. Unlock it (git worktree unlock "
                + s.workspace().worktreePath() + ") or remove with force.";
    }

    /** Why a commit-mode removal cannot keep everything on the sandbox's branch. */
    static String cannotCommit(SandboxRecord s, RemovalInspector.Inspection in) {
        String where = in.headBranch() == null ? "a detached HEAD" : "the branch " + in.headBranch();
        StringBuilder m = new StringBuilder("Paddock cannot keep the work of ")
                .append(s.id())
                .append(" on its branch ")
                .append(s.workspace().branch())
                .append(": its worktree has ")
                .append(where)
                .append(" checked out");
        if (!in.detachedCommits().isEmpty()) {
            m.append(", with ")
                    .append(count(in.detachedCommits().size(), "commit"))
                    .append(" on no branch: ")
                    .append(list(in.detachedCommits(), "; "));
        }
        return m.append(". Nothing was removed. Commit or branch the work there yourself (e.g. git -C ")
                .append(s.workspace().worktreePath())
                .append(" switch -c keep-")
                .append(s.id())
                .append("), or remove with force to discard it.")
                .toString();
    }

    static String choices(SandboxRecord s) {
        return "Choose: keep it (do nothing); commit (Paddock commits the leftovers on "
                + s.workspace().branch()
                + ", keeps the branch, then removes the worktree); or force (removes the worktree with everything in"
                + " it; the branch " + s.workspace().branch() + " is kept unless you also ask to delete it).";
    }

    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    static String list(List<String> items, String separator) {
        String shown = String.join(separator, items.subList(0, Math.min(LISTED_MAX, items.size())));
        return items.size() > LISTED_MAX ? shown + separator + "… and " + (items.size() - LISTED_MAX) + " more" : shown;
    }
}
