package dev.paddock.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.events.Event;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventLog;
import dev.paddock.worktree.GitRepository;
import dev.paddock.worktree.WorktreeManager;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reclaims sandboxes: tells what removal would lose, and removes — stops
 * the agent, removes the worktree (strict by default), deletes the branch only once merged or on explicit
 * request, and closes the record (never deletes it; the agent's log stays too). Never deletes a path outside
 * {@code <repo>/.worktrees/<id>/}.
 *
 * <p>A removal goes {@code → cleaning} (with the mode in the event's details) before anything is deleted and
 * {@code cleaning → closed} after; a removal cut short (a crash, a kill -9, a git failure) leaves the sandbox in
 * {@code cleaning}, and removing it again, or {@link #resume}, finishes it with the same mode.
 */
public final class SandboxReclaimer {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxReclaimer.class);
    static final String CLEANING_EVENT = "sandbox." + SandboxState.CLEANING.id();

    private final SandboxStore store;
    private final SandboxLifecycle lifecycle;
    private final Supervisor supervisor;
    private final WorktreeManager worktrees;
    private final SandboxRepositories repos;
    private final EventLog events;
    private final RemovalInspector inspector;
    private final WorktreeTeardown teardown;

    /**
     * @param supervisor stops a sandbox's agent (kills its process tree) before its worktree goes
     * @param repos finds the repository of a sandbox on disk
     */
    public SandboxReclaimer(
            SandboxStore store,
            Supervisor supervisor,
            WorktreeManager worktrees,
            SandboxRepositories repos,
            EventLog events) {
        this.store = store;
        this.lifecycle = new SandboxLifecycle(store);
        this.supervisor = supervisor;
        this.worktrees = worktrees;
        this.repos = repos;
        this.events = events;
        this.inspector = new RemovalInspector(worktrees, supervisor::runs);
        this.teardown = new WorktreeTeardown(worktrees, inspector, events);
    }

    /**
     * What removing {@code id} would lose: uncommitted paths, commits its base branch lacks, whether its
     * branch is merged, whether it runs or is locked. Changes nothing.
     *
     * @throws SandboxException when there is no such sandbox, or its recorded worktree path is one Paddock
     *     never deletes (empty, outside {@code .worktrees/<id>/}, the repository itself)
     * @throws PaddockException when git or the store fail
     */
    public RemovalPlan plan(String id) throws PaddockException {
        SandboxRecord s = find(id);
        Path main = repos.of(s).mainWorktree();
        return inspector
                .inspect(s, main, RemovalInspector.guardedWorktree(s, main))
                .plan();
    }

    /**
     * Removes a sandbox: stops its agent when it may run (pending, running, retrying), refuses or commits or
     * discards what would be lost depending on {@code mode}, then {@code → cleaning}, removes the worktree,
     * deletes {@code .worktrees/<id>/}, deletes the branch when merged into the base branch (or when
     * {@code deleteBranch}), and {@code → closed}. An event records every step.
     *
     * @param mode null means {@link RemoveMode#STRICT}
     * @param deleteBranch also delete its branch when it is not merged (a merged branch is deleted anyway)
     * @param who who asks, for the events ("human", "cli", "api", ...)
     * @return the closed record
     * @throws RemovalRefusedException in {@link RemoveMode#STRICT} when something would be lost or the worktree
     *     is locked, and in {@link RemoveMode#COMMIT} when the work cannot be kept on the branch; nothing removed
     * @throws SandboxException when there is no such sandbox, it is closed or being merged, its worktree path is
     *     one Paddock never deletes, COMMIT is combined with {@code deleteBranch}, or a step fails (the sandbox
     *     then stays in {@code cleaning}, and removing it again resumes)
     */
    public SandboxRecord remove(String id, RemoveMode mode, boolean deleteBranch, String who) throws PaddockException {
        RemoveMode m = mode == null ? RemoveMode.STRICT : mode;
        if (m == RemoveMode.COMMIT && deleteBranch) {
            throw new SandboxException("Commit keeps the work of " + id + " on its branch; deleting the branch as well"
                    + " would throw that work away. Nothing was removed: commit without deleting the branch, or"
                    + " force with delete-branch to discard it.");
        }
        if (!store.claimRemoval(id)) {
            throw new SandboxConflictException(id + " is being removed already; wait for that to finish.");
        }
        try {
            SandboxRecord s = find(id);
            if (s.state() == SandboxState.CLOSED) {
                throw new SandboxConflictException(
                        id + " is closed already: its worktree was removed (its record is kept" + " for the history).");
            }
            GitRepository git = repos.of(s);
            Path main = git.mainWorktree();
            Path worktree = RemovalInspector.guardedWorktree(s, main);
            if (s.state() != SandboxState.CLEANING) {
                s = prepare(s, main, worktree, m, deleteBranch, who);
            }
            supervisor.removeContainer(id); // its container (and every process in it) goes before its worktree
            teardown.removeWorktree(s, main, worktree, m != RemoveMode.STRICT);
            teardown.deleteSandboxDir(s, main, worktree);
            teardown.settleBranch(s, main, deleteBranch, who);
            lifecycle.markClosed(id, who);
            LOG.info("Removed sandbox {} ({})", id, m);
            return find(id);
        } finally {
            store.releaseRemoval(id);
        }
    }

    /**
     * Removes several sandboxes, each on its own: one refusal or failure does not stop the others.
     *
     * @return one result per id, in the order given
     */
    public List<RemovalResult> removeAll(List<String> ids, RemoveMode mode, boolean deleteBranch, String who) {
        List<RemovalResult> results = new ArrayList<>(ids.size());
        for (String id : ids) {
            try {
                results.add(new RemovalResult(id, remove(id, mode, deleteBranch, who), null));
            } catch (PaddockException | RuntimeException e) {
                LOG.info("Not removing {}: {}", id, e.getMessage());
                results.add(new RemovalResult(id, null, e.getMessage() == null ? e.toString() : e.getMessage()));
            }
        }
        return results;
    }

    /**
     * Finishes a removal left in {@code cleaning} (by a crash, a kill -9 or a failed step) with the mode it was
     * started with, read from its {@code sandbox.cleaning} event (strict when there is none).
     *
     * @throws SandboxException when it is not in cleaning, or a step fails again
     */
    public SandboxRecord resume(String id, String who) throws PaddockException {
        SandboxRecord s = find(id);
        if (s.state() != SandboxState.CLEANING) {
            throw new SandboxConflictException(
                    id + " is " + s.state().id() + ", not cleaning: there is no removal to finish.");
        }
        RemoveMode mode = RemoveMode.STRICT;
        boolean deleteBranch = false;
        List<Event> history = events.ofSandbox(id);
        for (int i = history.size() - 1; i >= 0; i--) {
            Event e = history.get(i);
            if (e.kind().equals(CLEANING_EVENT) && e.details() != null) {
                try {
                    JsonNode d = Json.mapper().readTree(e.details());
                    mode = RemoveMode.valueOf(d.path("mode").asText("STRICT"));
                    deleteBranch = d.path("deleteBranch").asBoolean(false);
                } catch (IOException | IllegalArgumentException ex) {
                    LOG.warn("Unreadable details of event {} of {}: {}", e.id(), id, ex.getMessage());
                }
                break;
            }
        }
        return remove(id, mode, deleteBranch, who);
    }

    /**
     * Checks, stops the agent, checks again, commits leftovers in COMMIT mode, then {@code → cleaning}. The
     * supervisor may move the sandbox meanwhile (a failed one to retrying, a running one to done): then the
     * whole preparation runs again on the fresh record, a few times at most.
     */
    private SandboxRecord prepare(
            SandboxRecord s, Path main, Path worktree, RemoveMode mode, boolean deleteBranch, String who)
            throws PaddockException {
        for (int attempt = 1; ; attempt++) {
            if (s.state() == SandboxState.MERGING) {
                throw new SandboxConflictException(
                        s.id() + " is being merged; remove it once the merge queue is done with it.");
            }
            if (mode != RemoveMode.FORCE) {
                supervisor.syncWorkspace(s); // work left on a remote engine comes back first, when it answers
            }
            RemovalInspector.Inspection in = inspector.inspect(s, main, worktree);
            refuseIfLosing(s, in, mode, false);
            if (mode == RemoveMode.COMMIT
                    && s.state() == SandboxState.RUNNING
                    && !in.submodules().isEmpty()) {
                // Known before its agent is stopped: a running agent is not stopped for a removal that cannot be.
                throw new RemovalRefusedException(RemovalMessages.submoduleWork(s, in.submodules(), null), in.plan());
            }
            if (stoppable(s.state())) {
                stop(s.id(), who);
                s = find(s.id());
                in = inspector.inspect(s, main, worktree); // the agent may have left more behind before it ended
                refuseIfLosing(s, in, mode, true);
            }
            if (mode == RemoveMode.COMMIT
                    && (!in.plan().uncommitted().isEmpty() || !in.submodules().isEmpty())) {
                String committed = in.plan().uncommitted().isEmpty() ? null : commitLeftovers(s, worktree, in, who);
                // The worktree goes with --force: only once the commit left nothing behind.
                RemovalInspector.Inspection after = inspector.inspect(find(s.id()), main, worktree);
                if (!after.submodules().isEmpty()) {
                    throw new RemovalRefusedException(
                            RemovalMessages.submoduleWork(s, after.submodules(), committed), after.plan());
                }
                if (!after.plan().uncommitted().isEmpty()) {
                    throw new RemovalRefusedException(
                            "A commit did not keep everything: " + RemovalMessages.wouldLose(s, after.plan(), false),
                            after.plan());
                }
            }
            if (s.state().canBecome(SandboxState.CLEANING)
                    && lifecycle.markCleaning(s.id(), s.state(), mode, deleteBranch, who)) {
                return find(s.id());
            }
            s = find(s.id());
            if (attempt == 3 || s.state() == SandboxState.CLOSED || s.state() == SandboxState.CLEANING) {
                throw new SandboxConflictException(s.id() + " keeps changing state (it is "
                        + s.state().id() + " now);" + " nothing was removed. Look again and retry.");
            }
        }
    }

    private static boolean stoppable(SandboxState state) {
        return state == SandboxState.PENDING || state == SandboxState.RUNNING || state == SandboxState.RETRYING;
    }

    /** Stops the agent; a sandbox that ended on its own meanwhile needs no stop. */
    private void stop(String id, String who) throws PaddockException {
        try {
            supervisor.stop(id, who);
        } catch (SandboxException e) {
            if (stoppable(find(id).state())) {
                throw e;
            }
        }
    }

    private static void refuseIfLosing(
            SandboxRecord s, RemovalInspector.Inspection in, RemoveMode mode, boolean stopped)
            throws RemovalRefusedException {
        RemovalPlan plan = in.plan();
        if (mode != RemoveMode.FORCE && in.remoteOwed() != null) {
            throw new RemovalRefusedException(
                    s.id() + " holds work on its remote engine that was not brought back: " + in.remoteOwed()
                            + " Nothing was removed. Let the engine answer again (Paddock then brings the work back)"
                            + " and retry, or remove with force to discard that work with its volume.",
                    plan);
        }
        if (mode == RemoveMode.STRICT && !plan.losesNothing()) {
            throw new RemovalRefusedException(RemovalMessages.wouldLose(s, plan, stopped), plan);
        }
        if (mode == RemoveMode.STRICT && plan.locked()) {
            throw new RemovalRefusedException(RemovalMessages.locked(s, plan), plan);
        }
        boolean offBranch = in.isWorktree()
                && !plan.uncommitted().isEmpty()
                && !s.workspace().branch().equals(in.headBranch());
        if (mode == RemoveMode.COMMIT
                && (offBranch
                        || !in.detachedCommits().isEmpty()
                        || (plan.worktreePresent()
                                && !in.isWorktree()
                                && !plan.uncommitted().isEmpty()))) {
            throw new RemovalRefusedException(RemovalMessages.cannotCommit(s, in), plan);
        }
    }

    /**
     * Commits what {@code git add -A} stages (not what is inside submodules), but for the pointer of a submodule whose
     * commit only this worktree holds: committed, that pointer would name a commit that goes with the worktree, and
     * a merge of the branch would leave base pointing at a commit nobody has.
     *
     * @return the commit, or null when nothing could be staged
     */
    private String commitLeftovers(SandboxRecord s, Path worktree, RemovalInspector.Inspection in, String who)
            throws PaddockException {
        java.util.Set<String> localOnly = new java.util.TreeSet<>();
        for (String c : in.submodules().commits()) {
            int colon = c.indexOf(": ");
            if (colon > 0) {
                localOnly.add(c.substring(0, colon));
            }
        }
        String commit = worktrees
                .commitAll(worktree, "Paddock: keep what " + s.id() + " left uncommitted", localOnly)
                .orElse(null);
        if (commit == null) {
            return null;
        }
        int paths = in.plan().uncommitted().size() - in.submodules().paths().size();
        events.append(EventDraft.of(
                s.repositoryId(),
                s.id(),
                "sandbox.leftovers_committed",
                s.id() + ": committed "
                        + RemovalMessages.count(paths, "leftover path") + " on "
                        + s.workspace().branch() + " ("
                        + commit.substring(0, 8) + ") before removing it",
                Map.of("commit", commit, "branch", s.workspace().branch(), "paths", paths, "by", who)));
        return commit;
    }

    private SandboxRecord find(String id) throws PaddockException {
        return store.find(id).orElseThrow(() -> new SandboxNotFoundException(id));
    }
}
