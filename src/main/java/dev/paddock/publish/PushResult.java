package dev.paddock.publish;

/**
 * A branch pushed to a remote.
 *
 * @param sandboxId the sandbox whose branch it is
 * @param remote the remote's name
 * @param remoteUrl its URL without credentials
 * @param branch the branch, pushed as the remote's branch of the same name
 * @param commit the commit pushed
 * @param uncommittedFiles files with changes in the sandbox's worktree that no commit holds: not pushed
 */
public record PushResult(
        String sandboxId, String remote, String remoteUrl, String branch, String commit, int uncommittedFiles) {
    /** What a person is told: where the branch went, and what stayed behind. */
    public String message() {
        String shortCommit = commit.length() > 10 ? commit.substring(0, 10) : commit;
        String where = remoteUrl == null || remoteUrl.isBlank() ? remote : remote + " (" + remoteUrl + ")";
        String out = "Pushed " + branch + " at " + shortCommit + " to " + where + ".";
        if (uncommittedFiles > 0) {
            out += " " + uncommittedFiles + (uncommittedFiles == 1 ? " file has" : " files have")
                    + " uncommitted changes in the worktree: not pushed (commit them, then push again).";
        }
        return out;
    }

    /** The message in a few words, for a status line: the branch, the remote, and what was not pushed. */
    public String shortMessage() {
        return "Pushed " + branch + " to " + remote
                + (uncommittedFiles == 0
                        ? "."
                        : "; " + uncommittedFiles + " uncommitted " + (uncommittedFiles == 1 ? "file" : "files")
                                + " not pushed.");
    }
}
