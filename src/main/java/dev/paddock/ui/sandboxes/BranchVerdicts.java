package dev.paddock.ui.sandboxes;

import dev.paddock.sandbox.AgentCounts;
import dev.paddock.ui.sandboxes.NewSandboxViewModel.BranchCheck;
import dev.paddock.ui.sandboxes.NewSandboxViewModel.BranchState;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The New Sandbox dialog's verdict on a branch name, asked of git (off the FX thread), and a free suggestion. */
final class BranchVerdicts {
    private BranchVerdicts() {}

    /** {@code agent/<slug>}, or with -2, -3, ... when that branch exists (as SandboxCreator does). */
    static String free(String suggested, List<String> branches) {
        String candidate = suggested;
        for (int n = 2; branches.contains(candidate); n++) {
            candidate = suggested + "-" + n;
        }
        return candidate;
    }

    /**
     * What becomes of {@code branch}: a new branch, one the sandbox continues on, a refused name, or for a fan-out the
     * first to the last of its branches ({@code <branch>-<agent>-<n>}, as GroupCreator names them).
     *
     * @param branches the repository's local branches
     */
    static BranchCheck judge(
            SandboxBackend backend,
            Path repository,
            String branch,
            String base,
            List<String> branches,
            AgentCounts counts) {
        int n = counts.total();
        String first = counts.entries().get(0).agent();
        AgentCounts.Entry lastEntry = counts.entries().get(counts.entries().size() - 1);
        String name = n == 1 ? branch : branch + "-" + first + "-1";
        String from = base == null ? "the base branch" : base;
        boolean exists = branches.contains(name);
        try {
            String normalised = backend.checkBranchName(repository, name);
            Optional<Path> busyIn = exists ? backend.checkedOutIn(repository, normalised) : Optional.empty();
            if (busyIn.isPresent()) {
                return new BranchCheck(
                        BranchState.INVALID,
                        "The branch " + normalised + " is checked out in " + busyIn.get()
                                + "; git allows a branch in one worktree only.");
            }
            if (n > 1) {
                String stem = normalised.substring(0, normalised.length() - first.length() - "--1".length());
                return new BranchCheck(
                        BranchState.VALID,
                        n + " sandboxes will start at " + from + ", each on a branch"
                                + " of its own: " + normalised + " to " + stem + "-" + lastEntry.agent() + "-"
                                + lastEntry.count() + ".");
            }
            return exists
                    ? new BranchCheck(
                            BranchState.EXISTS, "The branch " + normalised + " exists: the sandbox continues on it.")
                    : new BranchCheck(BranchState.VALID, "A new branch " + normalised + " will start at " + from + ".");
        } catch (Exception e) {
            return new BranchCheck(BranchState.INVALID, e.getMessage());
        }
    }
}
