package dev.paddock.sandbox;

import dev.paddock.common.PaddockException;
import dev.paddock.events.Event;
import dev.paddock.events.EventLog;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoService;
import dev.paddock.worktree.WorktreeManager;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What people and scripts do with sandboxes, in one place for the panel, the API and the CLI: create,
 * stop, retry, remove, look at (record, history, log, changes, what removal would lose) and send heartbeats.
 */
public final class SandboxService {
    /** Bytes of a log shown at most by {@link #logTail}. */
    public static final int LOG_TAIL_BYTES = 64 * 1024;

    private final SandboxCreator creator;
    private final Supervisor supervisor;
    private final SandboxReclaimer reclaimer;
    private final SandboxStore store;
    private final EventLog events;
    private final WorktreeManager worktrees;
    private final RepoService repos;
    private final GroupCreator groups;

    public SandboxService(
            SandboxCreator creator,
            Supervisor supervisor,
            SandboxReclaimer reclaimer,
            SandboxStore store,
            EventLog events,
            WorktreeManager worktrees,
            RepoService repos) {
        this.creator = creator;
        this.supervisor = supervisor;
        this.reclaimer = reclaimer;
        this.store = store;
        this.events = events;
        this.worktrees = worktrees;
        this.repos = repos;
        this.groups = new GroupCreator(creator, repos, worktrees, store);
    }

    /** Creates a sandbox and lets the supervisor start it at once. See {@link SandboxCreator#create}. */
    public SandboxRecord create(NewSandbox request) throws PaddockException {
        SandboxRecord created = creator.create(request);
        supervisor.poke();
        return created;
    }

    /**
     * Fans a task out: one sandbox per agent and count ({@code claude:2,codex:1} makes three), each on its own branch,
     * all sharing a group id; the supervisor starts each as soon as it is made. Checks everything first, so a bad
     * request makes nothing. See {@link GroupCreator}.
     *
     * @param template what every sandbox shares (task, repository, tier, base, limits, ...); its id and branch, when
     *     given, name the group and the base of its branches
     * @throws FanOutException when a sandbox could not be made after others were: which were made, which failed,
     *     which were not tried
     * @throws PaddockException as {@link #create}, with nothing made
     */
    public SandboxGroup createGroup(NewSandbox template, AgentCounts agents) throws PaddockException {
        return groups.create(template, agents, supervisor::poke);
    }

    /**
     * Sets the image the container sandboxes of the repository containing {@code repo} are made from (null
     * clears it); registers the repository if needed.
     *
     * @return the repository's main worktree
     * @throws dev.paddock.worktree.GitException when {@code repo} is not in a usable git repository
     */
    public Path setContainerImage(Path repo, String image) throws PaddockException {
        return repos.setContainerImage(repo, image).git().mainWorktree();
    }

    /**
     * Sets the extra flags the sandboxes of {@code agent} in the repository containing {@code repo} run with, after
     * checking them (empty or null clears them); registers the repository if needed. They apply from the next run
     * of each such sandbox on.
     *
     * @return the repository's main worktree
     * @throws SandboxException for an unknown agent, or flags it refuses (nothing changed)
     * @throws dev.paddock.worktree.GitException when {@code repo} is not in a usable git repository
     */
    public Path setAgentFlags(Path repo, String agent, List<String> flags) throws PaddockException {
        String name = agent == null ? "" : agent.strip().toLowerCase(java.util.Locale.ROOT);
        List<String> checked = creator.agentPrograms().checkFlags(name, flags);
        return repos.setAgentFlags(repo, name, checked).git().mainWorktree();
    }

    /** Every agent's extra flags in the repository containing {@code repo}, by agent (none when not registered). */
    public java.util.Map<String, List<String>> agentFlags(Path repo) throws PaddockException {
        return repos.allAgentFlags(repo);
    }

    /** See {@link Supervisor#stop}. */
    public SandboxRecord stop(String id, String who) throws PaddockException {
        return supervisor.stop(id, who);
    }

    /** See {@link Supervisor#retry}. */
    public SandboxRecord retry(String id, String who) throws PaddockException {
        return supervisor.retry(id, who);
    }

    /**
     * Sends a follow-up prompt: the agent resumes its session with it in the same worktree and tier. See
     * {@link FollowUps#followUp}.
     */
    public SandboxRecord say(String id, String text, String who) throws PaddockException {
        return supervisor.followUps().followUp(id, text, who);
    }

    /**
     * Why the sandbox's agent cannot take a follow-up ({@link #say}): a {@code custom} command cannot resume, nor can
     * an agent whose session Paddock does not know. Empty when it can.
     *
     * @throws SandboxNotFoundException when there is no such sandbox
     */
    public Optional<String> followUpRefusal(String id) throws PaddockException {
        return supervisor.followUps().refusal(find(id));
    }

    /**
     * Takes a turn signal of the sandbox's agent that came by the API: it is then waiting for you. See
     * {@link FollowUps#signal}.
     */
    public AgentTurns.Outcome turnSignal(String id, AgentSignal signal, String payload) throws PaddockException {
        return supervisor.followUps().signal(id, signal, payload);
    }

    /** Whether the sandbox is waiting for you (its agent's turn ended, or it asks for attention). */
    public Optional<WaitingForYou> waiting(String id) throws PaddockException {
        return store.turns().waiting(id);
    }

    /** The follow-up prompt the sandbox's agent was last resumed with (or is about to be), if any. */
    public Optional<AgentTurns.FollowUp> followUp(String id) throws PaddockException {
        return store.turns().followUp(id);
    }

    /** What removing the sandbox would lose. See {@link SandboxReclaimer#plan}. */
    public RemovalPlan plan(String id) throws PaddockException {
        return reclaimer.plan(id);
    }

    /** Removes a sandbox (strict by default: nothing is lost silently). See {@link SandboxReclaimer#remove}. */
    public SandboxRecord remove(String id, RemoveMode mode, boolean deleteBranch, String who) throws PaddockException {
        SandboxRecord removed = reclaimer.remove(id, mode, deleteBranch, who);
        supervisor.poke();
        return removed;
    }

    /**
     * Records a heartbeat with a progress text (trimmed to 500 characters).
     *
     * @throws SandboxNotFoundException when there is no such sandbox
     * @throws SandboxConflictException when it is not running
     */
    public void heartbeat(String id, String progress) throws PaddockException {
        String text = progress == null ? "" : progress.strip();
        if (text.length() > 500) {
            text = text.substring(0, 500);
        }
        if (!store.heartbeat(id, text)) {
            SandboxRecord s = find(id);
            throw new SandboxConflictException(
                    id + " is " + s.state().id() + ", not running: the heartbeat was not recorded.");
        }
    }

    /**
     * The sandbox with this id.
     *
     * @throws SandboxNotFoundException when there is none
     */
    public SandboxRecord find(String id) throws PaddockException {
        return store.find(id).orElseThrow(() -> new SandboxNotFoundException(id));
    }

    /**
     * The fan-out named {@code groupOrId}: the group with that id, or the group of the sandbox with that id; its
     * sandboxes by id, closed ones too.
     *
     * @throws SandboxNotFoundException when neither a group nor a sandbox has that id
     * @throws SandboxException when the sandbox was made on its own, in no group
     */
    public SandboxGroup group(String groupOrId) throws PaddockException {
        List<SandboxRecord> members = store.ofGroup(groupOrId);
        if (!members.isEmpty()) {
            return new SandboxGroup(groupOrId, members);
        }
        SandboxRecord s = find(groupOrId);
        if (s.spec().group() == null) {
            throw new SandboxException(s.id() + " was made on its own, not in a fan-out (sandbox new --agents): it has"
                    + " no group to compare it with.");
        }
        return new SandboxGroup(s.spec().group(), store.ofGroup(s.spec().group()));
    }

    /** The events of a sandbox, oldest first: its state history and everything else recorded about it. */
    public List<Event> history(String id) throws PaddockException {
        return events.ofSandbox(id);
    }

    /** The last {@link #LOG_TAIL_BYTES} bytes of the agent's log (empty before its first run). */
    public String logTail(String id) throws PaddockException {
        Path log = supervisor.logFile(id);
        if (!Files.exists(log)) {
            return "";
        }
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            long start = Math.max(0, f.length() - LOG_TAIL_BYTES);
            byte[] bytes = new byte[(int) (f.length() - start)];
            f.seek(start);
            f.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            return start == 0 ? text : text.substring(Math.max(0, text.indexOf('\n') + 1));
        } catch (IOException e) {
            throw new SandboxException("Cannot read the log of " + id + ": " + e.getMessage(), e);
        }
    }

    /** The log file of a sandbox's agent. */
    public Path logFile(String id) {
        return supervisor.logFile(id);
    }

    /** Where the sandbox lives on disk (its worktree, its own folder). */
    public SandboxLayout layout(String id) throws PaddockException {
        return supervisor.layout(find(id));
    }

    /** What the sandbox's worktree changed since its base commit (added / modified / deleted). */
    public WorktreeManager.ChangeList changes(String id) throws PaddockException {
        SandboxRecord s = find(id);
        if (s.workspace().worktree() == null || !Files.isDirectory(s.workspace().worktree())) {
            throw new SandboxException("The worktree of " + id + " is gone.");
        }
        return worktrees.changes(s.workspace().worktree(), s.workspace().baseCommit());
    }

    /** The sandbox a bearer token belongs to, if any. */
    public Optional<String> sandboxOfToken(String token) throws PaddockException {
        return store.sandboxOfToken(token);
    }

    /** Sandboxes of a repository that are not closed, newest first. */
    public List<SandboxRecord> listOpen(long repositoryId) throws PaddockException {
        return store.listOpen(repositoryId);
    }

    /**
     * Sandboxes that are not closed, newest first: those of the repository containing {@code repo} (none when
     * it is not registered), or of every repository when {@code repo} is null. Registers nothing.
     *
     * @throws dev.paddock.worktree.GitException when {@code repo} is not in a usable git repository
     */
    public List<SandboxRecord> list(Path repo) throws PaddockException {
        if (repo == null) {
            List<SandboxRecord> all = new java.util.ArrayList<>(store.listLive());
            java.util.Collections.reverse(all);
            return all;
        }
        Optional<RepoRecord> registered = repos.registered(repo);
        return registered.isEmpty()
                ? List.of()
                : store.listOpen(registered.get().id());
    }
}
