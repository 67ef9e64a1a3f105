package dev.paddock.ui.sandboxes;

import dev.paddock.agent.LogFollower;
import dev.paddock.agent.TranscriptFollower;
import dev.paddock.approval.Approval;
import dev.paddock.common.PaddockException;
import dev.paddock.events.Event;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.RemovalPlan;
import dev.paddock.sandbox.RemoveMode;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.worktree.WorktreeManager;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What the sandbox views need from Paddock's services, in one small interface: the panel's
 * ViewModels call it off the FX thread (every method may block on git, the store or the disk). The
 * panel's implementation is {@link ServiceSandboxBackend}.
 */
public interface SandboxBackend {
    /** Defaults for a new sandbox: lease in ms and automatic retries (from the settings). */
    record Defaults(long leaseMs, int maxRetries) {}

    /** The lease and retries a new sandbox gets unless the person changes them. */
    Defaults defaults() throws PaddockException;

    /** The repository's local branches, sorted by name. */
    List<String> localBranches(Path repository) throws PaddockException;

    /**
     * Checks a branch name the way git does ({@code git check-ref-format --branch}).
     *
     * @return the name as git normalises it
     * @throws PaddockException with git's refusal when it is not a valid branch name
     */
    String checkBranchName(Path repository, String branch) throws PaddockException;

    /** The worktree where {@code branch} is checked out, if any (git allows one worktree per branch). */
    Optional<Path> checkedOutIn(Path repository, String branch) throws PaddockException;

    /** Why a tier cannot be used on this machine, or empty when it can. */
    Optional<String> tierUnavailable(Tier tier);

    /**
     * The image the repository's container sandboxes run in ({@code paddock sandbox image}), if one is set.
     *
     * @throws PaddockException when the repository or the store cannot be read
     */
    default Optional<String> containerImage(Path repository) throws PaddockException {
        return Optional.empty();
    }

    /** Where an agent preset's program comes from. */
    enum ProgramSource {
        /** The path in the preset's setting ({@code agents.<id>.executable}). */
        SETTING,
        /** The first match on Paddock's PATH. */
        PATH,
        /** Neither: the setting names no executable file, or PATH holds none. */
        MISSING,
        /** The person's own command line, run with {@code /bin/sh -c} (the {@code custom} agent). */
        COMMAND
    }

    /**
     * What a new sandbox of an agent would run and take from Paddock's environment, as the presets decide it.
     *
     * @param agent the preset's id
     * @param executable the program's name on PATH ({@code claude}, ...)
     * @param setting the setting that may name the program instead, or null ({@code custom})
     * @param source where the program comes from
     * @param program the program found, or null when missing (or for a command)
     * @param problem why the setting's path cannot be run, or null
     * @param passes the names of the variables it would take from Paddock's environment now (set there), sorted;
     *     never their values
     * @param takes every name it takes when set, in the preset's order
     */
    record AgentProgram(
            String agent,
            String executable,
            String setting,
            ProgramSource source,
            Path program,
            String problem,
            List<String> passes,
            List<String> takes) {}

    /**
     * Where the program of {@code agent} is (its setting, else PATH) and which variables it would take from Paddock's
     * environment (names only).
     *
     * @throws PaddockException when the agent is unknown or the setting cannot be read
     */
    default AgentProgram agentProgram(String agent) throws PaddockException {
        throw new PaddockException("This Paddock cannot tell where agents' programs are.");
    }

    /** Creates a sandbox (the supervisor starts it at once). */
    SandboxRecord create(NewSandbox request) throws PaddockException;

    /**
     * Fans a task out: one sandbox per agent and count, all in one group (see
     * {@link dev.paddock.sandbox.SandboxService#createGroup}).
     *
     * @throws PaddockException with what was made and what was not when it stops part way
     */
    default dev.paddock.sandbox.SandboxGroup createGroup(NewSandbox template, dev.paddock.sandbox.AgentCounts agents)
            throws PaddockException {
        throw new PaddockException("This Paddock cannot fan a task out.");
    }

    /** Stops a pending, running or retrying sandbox; it then waits for a person. */
    SandboxRecord stop(String id) throws PaddockException;

    /** Runs a sandbox that failed, timed out, is done or waits for a person again. */
    SandboxRecord retry(String id) throws PaddockException;

    /**
     * Sends a follow-up prompt to a sandbox whose agent's turn ended: the agent resumes its session with it.
     *
     * @throws PaddockException with the reason when it cannot (the agent still runs, a custom command, ...)
     */
    default SandboxRecord say(String id, String text) throws PaddockException {
        throw new PaddockException("This Paddock cannot send follow-ups.");
    }

    /**
     * Approves the change of a sandbox ready for review: its branch enters the merge queue.
     *
     * @return what happened, in words for the pane
     */
    default String approve(String id) throws PaddockException {
        throw new PaddockException("This Paddock does not review changes.");
    }

    /**
     * Requests changes: the sandbox's unsent review comments (and {@code comment}, unless blank) go to its agent.
     *
     * @return what happened, in words for the pane
     */
    default String requestChanges(String id, String comment) throws PaddockException {
        throw new PaddockException("This Paddock does not review changes.");
    }

    /**
     * Rejects (discards) the change of a sandbox: it is removed, its branch kept.
     *
     * @return what happened, in words for the pane
     */
    default String reject(String id, String comment) throws PaddockException {
        throw new PaddockException("This Paddock does not review changes.");
    }

    /** What removing a sandbox would lose. */
    RemovalPlan plan(String id) throws PaddockException;

    /** Removes a sandbox (see {@link RemoveMode}); {@code deleteBranch} also deletes an unmerged branch. */
    SandboxRecord remove(String id, RemoveMode mode, boolean deleteBranch) throws PaddockException;

    /** The sandbox's events, oldest first. */
    List<Event> history(String id) throws PaddockException;

    /**
     * A new follower of the agent's log (it may not exist yet), from its last {@link LogFollower#TAIL_BYTES} bytes:
     * the log tab's text.
     */
    LogFollower followLog(String id);

    /**
     * A new follower of the agent's transcript: its log read by the parser of its agent's output (Claude Code's
     * stream-json, ...), from its last {@link TranscriptFollower#MAX_TAIL_BYTES} bytes.
     *
     * @throws PaddockException when the sandbox is not known
     */
    TranscriptFollower followTranscript(String id) throws PaddockException;

    /**
     * The sandbox's approval requests (what its agent's hook asked and what was decided), oldest first, at most
     * {@code limit} of the newest.
     */
    List<Approval> approvals(String id, int limit) throws PaddockException;

    /** What the sandbox's worktree changed against its base commit. */
    WorktreeManager.ChangeList changes(String id) throws PaddockException;

    /**
     * What the sandbox changed in its repository's shared layers (folders git ignores, so not in {@link #changes}),
     * read from its own upper layers; none when it shares nothing or ran no namespace run.
     */
    default List<dev.paddock.layer.LayerChange> layerChanges(String id) throws PaddockException {
        return List.of();
    }

    /** Sandboxes' whole changes as diffs, and the comments on them (the diff window). */
    dev.paddock.ui.diff.DiffBackend diffs();

    /** The sandbox's checkpoints, oldest first (see {@code paddock sandbox checkpoints}). */
    List<dev.paddock.checkpoint.Checkpoint> checkpoints(String id) throws PaddockException;

    /**
     * What rolling the sandbox back to checkpoint {@code number} would change now (a dry run: nothing is written).
     * Slow (git): never on the FX thread.
     */
    default dev.paddock.checkpoint.RollbackPlan planRollback(String id, int number) throws PaddockException {
        throw new PaddockException("This Paddock cannot roll sandboxes back.");
    }

    /**
     * Rolls the sandbox back to checkpoint {@code number}: its agent is stopped, the files as they are kept as a
     * checkpoint first, then the working files made the checkpoint's; with {@code resetBranch} the branch also goes
     * back to the commit it named then (else it is left alone). Slow: never on the FX thread.
     */
    default dev.paddock.checkpoint.Rollback rollback(String id, int number, boolean resetBranch)
            throws PaddockException {
        throw new PaddockException("This Paddock cannot roll sandboxes back.");
    }

    /**
     * Pushes the sandbox's branch to its repository's remote (origin, or the only one), as it is. Slow (git over the
     * network): never on the FX thread.
     *
     * @return what to tell the person (where it went, what was not pushed)
     */
    default String push(String id) throws PaddockException {
        throw new PaddockException("This Paddock cannot push branches.");
    }

    /**
     * Pushes the sandbox's branch, then opens a pull request of it with the GitHub CLI. Slow: never on the FX thread.
     *
     * @return what to tell the person, with the pull request's URL
     */
    default String openPullRequest(String id) throws PaddockException {
        throw new PaddockException("This Paddock cannot open pull requests.");
    }

    /**
     * The fan-out {@code groupOrId} names (a group, or a sandbox of one), its sandboxes side by side. Slow (git, the
     * logs): never on the FX thread.
     */
    default dev.paddock.compare.GroupComparison compare(String groupOrId) throws PaddockException {
        throw new PaddockException("This Paddock cannot compare sandboxes.");
    }
}
