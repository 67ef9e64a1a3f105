package dev.paddock.publish;

import dev.paddock.agent.SandboxTranscript;
import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.events.EventLog;
import dev.paddock.merge.MergeService;
import dev.paddock.merge.MergeTarget;
import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxRepositories;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Publishes a sandbox's branch: pushes it to a remote of its repository ({@link BranchPush}), opens a pull request
 * with the GitHub CLI ({@link GhCli}), and does what a repository's merge target asks for approved work
 * ({@link #publishApproved}). Runs on the caller's thread (git and gh take seconds): the panel's {@code ui-io-N},
 * an API thread, the CLI's {@code main}. Each push and pull request writes its event.
 */
public final class PublishService {
    /** Most commit subjects a pull request's body lists. */
    static final int MAX_COMMITS = 50;

    private final SandboxService sandboxes;
    private final SandboxRepositories repositories;
    private final MergeService merges;
    private final GitCli git;
    private final BranchPush pusher;
    private final GhCli gh;
    private final EventLog events;

    public PublishService(
            SandboxService sandboxes,
            SandboxRepositories repositories,
            MergeService merges,
            GitCli git,
            BranchPush pusher,
            GhCli gh,
            EventLog events) {
        this.sandboxes = sandboxes;
        this.repositories = repositories;
        this.merges = merges;
        this.git = git;
        this.pusher = pusher;
        this.gh = gh;
        this.events = events;
    }

    /**
     * Pushes the sandbox's branch, as it is (nothing is committed first), to {@code remote}'s branch of the same
     * name.
     *
     * @param remote a remote's name; null or blank: {@code origin}, or the repository's only remote
     * @throws PublishException BAD_REQUEST for no remote, an unknown one or no branch; FAILED with git's message
     */
    public PushResult push(String sandboxId, String remote, String by) throws PaddockException {
        SandboxRecord s = sandboxes.find(sandboxId);
        return push(s, gitDir(s), remote, by);
    }

    /**
     * Pushes the sandbox's branch (see {@link #push}), then opens a pull request of it against its base branch with
     * {@code gh pr create}: the title is the task's first line, the body {@link PullRequestText#body}. gh is checked
     * first, so nothing is pushed when it is missing or signed out.
     *
     * @throws PublishException UNAVAILABLE when gh is missing ({@link GhCli#MISSING}) or signed out
     *     ({@link GhCli#SIGNED_OUT}), FAILED with git's or gh's message
     */
    public PublishResult pullRequest(String sandboxId, String remote, boolean draft, String by)
            throws PaddockException {
        SandboxRecord s = sandboxes.find(sandboxId);
        Path dir = gitDir(s);
        gh.requireReady(dir);
        PushResult pushed = push(s, dir, remote, by);
        return new PublishResult(pushed, openPullRequest(s, dir, pushed, draft, by), null);
    }

    /**
     * What the approval of a sandbox does when its repository's merge target is {@code push}: pushes its branch to
     * the target's remote and, when the setting asks for one, opens a pull request (when gh is not set up, the
     * branch is pushed all the same and the result's note says why there is no pull request).
     *
     * @throws PublishException BAD_REQUEST when the repository's target is {@code local} (the merge queue takes
     *     the sandbox), or as {@link #push}
     */
    public PublishResult publishApproved(String sandboxId, String by) throws PaddockException {
        SandboxRecord s = sandboxes.find(sandboxId);
        MergeTarget target = target(s);
        if (!target.pushes()) {
            throw new PublishException(
                    PublishException.Kind.BAD_REQUEST,
                    "The merge target of " + repository(s).path() + " is local: the merge queue merges " + sandboxId
                            + " into " + s.workspace().baseBranch() + " (paddock merge enqueue " + sandboxId + ")");
        }
        Path dir = gitDir(s);
        String missing = null;
        if (target.pullRequest()) {
            try {
                gh.requireReady(dir);
            } catch (PublishException e) {
                missing = e.getMessage();
            }
        }
        PushResult pushed = push(s, dir, target.remote(), by);
        if (!target.pullRequest() || missing != null) {
            return new PublishResult(pushed, null, missing);
        }
        return new PublishResult(pushed, openPullRequest(s, dir, pushed, false, by), null);
    }

    /** {@link #publishApproved(String, String)} attributed to the approval itself. */
    public PublishResult publishApproved(String sandboxId) throws PaddockException {
        return publishApproved(sandboxId, "the approval");
    }

    /** The merge target of the sandbox's repository. */
    public MergeTarget target(SandboxRecord s) throws PaddockException {
        return merges.settings(repository(s).path()).target();
    }

    private PushResult push(SandboxRecord s, Path dir, String remote, String by) throws PaddockException {
        Remote r = Remote.choose(git, dir, remote);
        PushResult pushed = pusher.push(
                s.id(), dir, s.workspace().worktree(), r, s.workspace().branch());
        events.append(EventDraft.of(
                s.repositoryId(),
                s.id(),
                EventKinds.SANDBOX_PUSHED,
                "Pushed " + pushed.branch() + " of " + s.id() + " to " + r.name() + " (by " + by + ")",
                Map.of("remote", r.name(), "branch", pushed.branch(), "commit", pushed.commit(), "by", by)));
        return pushed;
    }

    private String openPullRequest(SandboxRecord s, Path dir, PushResult pushed, boolean draft, String by)
            throws PaddockException {
        // NAME=VALUE: a value that starts with a dash (a task may) is never taken for an option.
        List<String> args = new ArrayList<>(List.of(
                "--head=" + pushed.branch(),
                "--base=" + s.workspace().baseBranch(),
                "--title=" + PullRequestText.title(s),
                "--body=" + PullRequestText.body(s, commitSubjects(s, dir), lastMessage(s))));
        if (draft) {
            args.add("--draft");
        }
        String url = gh.createPullRequest(dir, args);
        events.append(EventDraft.of(
                s.repositoryId(),
                s.id(),
                EventKinds.SANDBOX_PULL_REQUEST_OPENED,
                "Opened a pull request of " + pushed.branch() + " into "
                        + s.workspace().baseBranch() + ": " + url + " (by " + by + ")",
                Map.of("url", url, "base", s.workspace().baseBranch(), "branch", pushed.branch(), "by", by)));
        return url;
    }

    /** The subjects of the branch's commits that its base branch lacks, oldest first (at most {@link #MAX_COMMITS}). */
    private List<String> commitSubjects(SandboxRecord s, Path dir) throws GitException {
        String base = s.workspace().baseBranch();
        String from = git.run(dir, "rev-parse", "--verify", "--quiet", "refs/heads/" + base + "^{commit}")
                        .ok()
                ? "refs/heads/" + base
                : s.workspace().baseCommit();
        GitCli.Result r = git.run(
                dir,
                "log",
                "--reverse",
                "--format=%s",
                "-n",
                String.valueOf(MAX_COMMITS),
                from + "..refs/heads/" + s.workspace().branch());
        return r.ok() ? r.stdout().lines().filter(l -> !l.isBlank()).toList() : List.of();
    }

    /** The agent's last message, read from its log; null when there is none or the log cannot be read. */
    private String lastMessage(SandboxRecord s) {
        try {
            return PullRequestText.lastAssistantMessage(SandboxTranscript.read(s, sandboxes.logFile(s.id())));
        } catch (PaddockException | RuntimeException e) {
            return null;
        }
    }

    private RepoRecord repository(SandboxRecord s) throws PaddockException {
        return repositories.record(s.repositoryId());
    }

    /** Where git runs: the sandbox's worktree (its repository's remotes, a submodule's own), else its repository. */
    private Path gitDir(SandboxRecord s) throws PaddockException {
        Path wt = s.workspace().worktree();
        return wt != null && Files.isDirectory(wt) ? wt : repository(s).path();
    }
}
