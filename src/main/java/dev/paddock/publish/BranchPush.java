package dev.paddock.publish;

import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Pushes a branch with the git CLI, so the user's own credentials and credential helpers are used exactly as git
 * uses them; nothing is committed first. Non-interactive: git's terminal prompt and the Git Credential Manager's
 * windows are off, so a missing credential fails at once with git's message, and the push is stopped after its
 * timeout. What git says is shown with any credentials in URLs taken out.
 */
public final class BranchPush {
    /** How long a push may take by default. */
    public static final Duration TIMEOUT = Duration.ofMinutes(5);
    /** What keeps a push from asking anybody anything (on top of the {@code GIT_TERMINAL_PROMPT=0} of GitCli). */
    static final Map<String, String> NON_INTERACTIVE = Map.of("GIT_TERMINAL_PROMPT", "0", "GCM_INTERACTIVE", "never");

    private final GitCli git;
    private final Duration timeout;

    public BranchPush(GitCli git, Duration timeout) {
        this.git = git;
        this.timeout = timeout;
    }

    /**
     * Pushes {@code refs/heads/<branch>} of the repository at {@code dir} to the remote's branch of the same name.
     *
     * @param worktree the branch's worktree, whose uncommitted files are counted (null or gone: none)
     * @return the result, counting the worktree's uncommitted files (not pushed)
     * @throws PublishException BAD_REQUEST when there is no such branch, FAILED with git's message when the push
     *     fails or runs past its timeout
     */
    public PushResult push(String sandboxId, Path dir, Path worktree, Remote remote, String branch)
            throws PublishException {
        try {
            GitCli.Result tip = git.run(dir, "rev-parse", "--verify", "--quiet", "refs/heads/" + branch + "^{commit}");
            if (!tip.ok()) {
                throw new PublishException(
                        PublishException.Kind.BAD_REQUEST, "There is no branch " + branch + " to push in " + dir);
            }
            int uncommitted = uncommitted(worktree);
            String ref = "refs/heads/" + branch;
            GitCli.Result r = git.run(
                    dir,
                    List.of("push", "--porcelain", remote.name(), ref + ":" + ref),
                    timeout,
                    NON_INTERACTIVE,
                    null);
            if (!r.ok()) {
                throw new PublishException(
                        PublishException.Kind.FAILED,
                        "git push of " + branch + " to " + remote.name() + " failed: " + gitSays(r));
            }
            return new PushResult(
                    sandboxId, remote.name(), remote.url(), branch, tip.stdout().strip(), uncommitted);
        } catch (GitException e) {
            throw new PublishException(PublishException.Kind.FAILED, e.getMessage(), e);
        }
    }

    /** Files with changes no commit holds in {@code worktree} (tracked or not, not ignored); 0 without one. */
    private int uncommitted(Path worktree) throws GitException {
        if (worktree == null || !Files.isDirectory(worktree)) {
            return 0;
        }
        GitCli.Result r = git.run(worktree, "status", "--porcelain", "--untracked-files=normal");
        return r.ok() ? (int) r.stdout().lines().filter(l -> !l.isBlank()).count() : 0;
    }

    /** git's error lines (its hints left out), at most a few, joined. */
    static String gitSays(GitCli.Result r) {
        List<String> lines = r.stderr()
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("hint:"))
                .map(l -> l.replaceFirst("^(fatal|error): ", ""))
                .limit(6)
                .toList();
        if (lines.isEmpty()) {
            String out = r.stdout()
                    .lines()
                    .filter(l -> l.startsWith("!"))
                    .findFirst()
                    .orElse("");
            return out.isEmpty() ? "git exited with " + r.exitCode() : out;
        }
        return String.join("; ", lines);
    }
}
