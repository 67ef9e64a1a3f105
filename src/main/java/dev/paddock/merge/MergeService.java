package dev.paddock.merge;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoService;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What people (API, CLI, panel) do with the merge queue: list, enqueue a sandbox or a branch, cancel, retry, review
 * and approve or reject a branch's change to policy or hook configuration, and set a repository's merge settings.
 * The queue's own work is {@link MergeQueue}'s.
 */
public final class MergeService {
    private final MergeQueue queue;
    private final MergeStore store;
    private final RepoService repos;

    public MergeService(MergeQueue queue, RepoService repos) {
        this.queue = queue;
        this.store = queue.store();
        this.repos = repos;
    }

    /** The queue underneath (for wiring and the resolution service). */
    public MergeQueue queue() {
        return queue;
    }

    /**
     * A repository's entries: running and queued first (in queue order), then the latest others, at most {@code limit}.
     *
     * @throws PaddockException when the path is not in a git repository
     */
    public List<MergeEntry> list(Path repo, int limit) throws PaddockException {
        Optional<RepoRecord> r = repos.registered(repo);
        return r.isEmpty() ? List.of() : store.list(r.get().id(), limit);
    }

    /**
     * Queue positions of entries as {@link #list} returns them (running first, then queued in the queue's own
     * order: last test passed first, then oldest): 0 for the running entry, 1, 2, ... for the queued ones.
     *
     * @return entry id → position, for running and queued entries only
     */
    public static java.util.Map<Long, Integer> positions(List<MergeEntry> listed) {
        java.util.Map<Long, Integer> out = new java.util.LinkedHashMap<>();
        int pos = 0;
        for (MergeEntry e : listed) {
            if (e.state() == MergeState.RUNNING) {
                out.put(e.id(), 0);
            } else if (e.state() == MergeState.QUEUED) {
                out.put(e.id(), ++pos);
            }
        }
        return out;
    }

    /** The newest entry of a sandbox's branch, whatever its state (its test verdict), if it was ever enqueued. */
    public Optional<MergeEntry> latestOf(String sandboxId) throws PaddockException {
        return store.latestOf(sandboxId);
    }

    /** One entry. @throws MergeException NOT_FOUND */
    public MergeEntry get(long id) throws PaddockException {
        return store.find(id).orElseThrow(() -> notFound(id));
    }

    /**
     * Enqueues a sandbox's branch (a person pressing Merge): the sandbox must be done, waiting for a person or in
     * conflict, and not already queued.
     *
     * @throws MergeException NOT_FOUND for an unknown sandbox, CONFLICT when it cannot be merged now
     */
    public MergeEntry enqueueSandbox(String sandboxId, String who) throws PaddockException {
        SandboxRecord s = queue.sandboxLink()
                .find(sandboxId)
                .orElseThrow(() -> new MergeException(MergeException.Kind.NOT_FOUND, "no sandbox " + sandboxId));
        if (s.state() != SandboxState.DONE
                && s.state() != SandboxState.REVIEW
                && s.state() != SandboxState.AWAITING_HUMAN
                && s.state() != SandboxState.MERGING) {
            throw new MergeException(
                    MergeException.Kind.CONFLICT,
                    sandboxId + " is " + s.state().id()
                            + "; only a done sandbox (or one waiting for a person) can be merged.");
        }
        Optional<MergeEntry> open = store.openOf(sandboxId);
        if (open.isPresent()) {
            throw new MergeException(
                    MergeException.Kind.CONFLICT,
                    sandboxId + " already has entry " + open.get().label()
                            + " (" + open.get().state().id() + ")"
                            + (open.get().state() == MergeState.CONFLICT
                                    ? "; resolve or abort it, or retry it."
                                    : "."));
        }
        RepoRecord repo = queue.repos().find(s.repositoryId()).orElseThrow();
        return queue.enqueue(repo, sandboxId, s.workspace().branch(), who);
    }

    /**
     * Enqueues a branch of a repository that no sandbox owns. A registered repository named by its main worktree's
     * path is not located again (no git process; it is not marked as just opened either).
     *
     * @throws MergeException BAD_REQUEST when the branch does not exist or is the base branch
     */
    public MergeEntry enqueueBranch(Path repoPath, String branch, String who) throws PaddockException {
        RepoRecord repo = registeredAt(repoPath).orElse(null);
        if (repo == null) {
            repo = repos.open(repoPath).record();
        }
        if (branch == null || branch.isBlank() || branch.equals(repo.baseBranch())) {
            throw new MergeException(
                    MergeException.Kind.BAD_REQUEST, "name a branch other than the base branch " + repo.baseBranch());
        }
        if (!queue.git().branchExists(repo.path(), branch)) {
            throw new MergeException(MergeException.Kind.BAD_REQUEST, "no branch " + branch + " in " + repo.path());
        }
        return queue.enqueue(repo, null, branch, who);
    }

    /**
     * The repository registered with exactly this main worktree path (absolute, normalized), read from the store
     * without locating it with git again; empty for any other path (a subfolder, a linked worktree, a symbolic
     * link), which {@link RepoService#open} then locates.
     */
    private Optional<RepoRecord> registeredAt(Path repoPath) throws PaddockException {
        Path p = repoPath.toAbsolutePath().normalize();
        return java.nio.file.Files.isDirectory(p.resolve(".git"))
                ? queue.repos().findByPath(p)
                : Optional.empty();
    }

    /**
     * Cancels an entry: a queued one leaves the queue, a running one is stopped (its test killed) before it moves
     * base, a conflicted one has its merge aborted, one waiting for a policy review has its change rejected. Its
     * sandbox goes back to done (awaiting a person for a conflict).
     *
     * @throws MergeException NOT_FOUND, or CONFLICT when it is merged, failed or cancelled already
     */
    public MergeEntry cancel(long id, String who) throws PaddockException {
        MergeEntry e = get(id);
        switch (e.state()) {
            case QUEUED -> {
                if (!store.move(
                        id,
                        MergeState.QUEUED,
                        MergeState.CANCELLED,
                        MergeChange.of(MergeChange.FINISHED_AT, store.now())
                                .set(MergeChange.RESULT, "cancelled by " + who),
                        MergeQueue.event(e, EventKinds.MERGE_CANCELLED, e.label() + " was cancelled by " + who))) {
                    return cancel(id, who); // taken by the queue meanwhile
                }
                String sandbox = e.request().sandboxId();
                queue.sandboxLink().move(sandbox, SandboxState.DONE, sandbox + " left the merge queue");
            }
            case RUNNING -> queue.requestCancel(id);
            case CONFLICT -> new ResolutionService(queue).cancelConflict(e, who);
            case POLICY_REVIEW -> queue.policyGate().reject(id, who, "cancelled");
            default ->
                throw new MergeException(
                        MergeException.Kind.CONFLICT,
                        e.label() + " is " + e.state().id() + ": there is nothing to cancel.");
        }
        return get(id);
    }

    /**
     * Puts a failed, cancelled or conflicted entry back in the queue with its attempts reset (a conflicted one's
     * merge worktree is removed first; the merge is tried afresh).
     *
     * @throws MergeException NOT_FOUND, or CONFLICT in any other state
     */
    public MergeEntry retry(long id, String who) throws PaddockException {
        MergeEntry e = get(id);
        if (!e.state().isRetryable()) {
            throw new MergeException(
                    MergeException.Kind.CONFLICT,
                    e.label() + " is " + e.state().id()
                            + "; only a failed, cancelled or conflicted entry can be retried.");
        }
        RepoRecord repo = queue.repos().find(e.repositoryId()).orElseThrow();
        if (e.state() == MergeState.CONFLICT && e.attempt().worktree() != null) {
            queue.git().remove(repo.path(), e.attempt().worktree());
        }
        if (!store.move(
                id,
                e.state(),
                MergeState.QUEUED,
                MergeChange.of(MergeChange.ATTEMPTS, 0)
                        .set(MergeChange.STEP, null)
                        .set(MergeChange.STEP_STARTED_AT, store.now())
                        .set(MergeChange.FINISHED_AT, null)
                        .set(MergeChange.WORKTREE, null)
                        .set(MergeChange.MERGE_COMMIT, null)
                        .set(MergeChange.RESULT, "retried by " + who),
                MergeQueue.event(e, EventKinds.MERGE_RETRIED, e.label() + " was put back in the queue by " + who))) {
            throw new MergeException(MergeException.Kind.CONFLICT, e.label() + " changed meanwhile; look again.");
        }
        store.replaceConflicts(id, List.of());
        String sandbox = e.request().sandboxId();
        queue.sandboxLink().move(sandbox, SandboxState.MERGING, sandbox + " is back in the merge queue");
        queue.poke();
        return get(id);
    }

    /**
     * A person approves the change to policy or hook configuration of an entry waiting for its review: it goes back
     * in the queue and is merged as usual (tests, then base), as long as its branch stays at the reviewed commit;
     * should the branch move, it waits for a review again.
     *
     * @param commit the commit the person reviewed ({@link PolicyDiff#reviewCommit()}, or a prefix of at least 7),
     *     or null for the one under review now
     * @throws MergeException NOT_FOUND; CONFLICT when it does not wait for a review or {@code commit} is not the one
     *     under review
     */
    public MergeEntry approvePolicy(long id, String who, String commit) throws PaddockException {
        return queue.policyGate().approve(id, who, commit);
    }

    /**
     * A person rejects the change to policy or hook configuration of an entry waiting for its review: it is
     * cancelled and base keeps nothing of it.
     *
     * @param reason why (may be null)
     * @throws MergeException NOT_FOUND; CONFLICT when it does not wait for a review
     */
    public MergeEntry rejectPolicy(long id, String who, String reason) throws PaddockException {
        return queue.policyGate().reject(id, who, reason);
    }

    /**
     * What to review for an entry stopped for its policy change: the configuration files and their diff from base
     * to the commit under review.
     *
     * @throws MergeException NOT_FOUND; CONFLICT when it was never stopped for a review
     */
    public PolicyDiff policyDiff(long id) throws PaddockException {
        return queue.policyGate().diff(id);
    }

    /** The review and approval facts of an entry. @throws MergeException NOT_FOUND */
    public PolicyReview review(long id) throws PaddockException {
        get(id);
        return store.review(id).orElseThrow(() -> notFound(id));
    }

    /** The merge settings of the repository containing {@code repo} (registering it). */
    public MergeSettings settings(Path repo) throws PaddockException {
        return store.settings(repos.open(repo).record().id());
    }

    /**
     * Sets a repository's merge settings; null arguments keep the current value, a blank test command clears it.
     * Same as {@link #configure(Path, String, String, Long, Integer, String)} without the auto-resolve mode.
     *
     * @throws MergeException BAD_REQUEST for an unknown strategy, a timeout under 1 s or fewer than 1 attempt
     */
    public MergeSettings configure(Path repo, String strategy, String testCommand, Long timeoutMs, Integer maxAttempts)
            throws PaddockException {
        return configure(repo, strategy, testCommand, timeoutMs, maxAttempts, null);
    }

    /**
     * Sets a repository's merge settings; null arguments keep the current value, a blank test command clears it.
     * Every value is checked before anything is stored; each setting whose value changes writes a
     * {@code setting.changed} event (as {@code paddock config set} does for the global settings).
     *
     * @param autoResolve {@code propose} or {@code apply} ({@link AutoResolveMode}); null keeps it
     * @throws MergeException BAD_REQUEST for an unknown strategy or auto-resolve mode, a timeout under 1 s or fewer
     *     than 1 attempt (nothing changed)
     */
    public MergeSettings configure(
            Path repo, String strategy, String testCommand, Long timeoutMs, Integer maxAttempts, String autoResolve)
            throws PaddockException {
        return configure(repo, strategy, testCommand, timeoutMs, maxAttempts, autoResolve, null);
    }

    /**
     * {@link #configure(Path, String, String, Long, Integer, String)} with the review setting too.
     *
     * @param review {@code required} or {@code auto} ({@link ReviewMode}); null keeps it
     * @throws MergeException BAD_REQUEST also for an unknown review mode (nothing changed)
     */
    public MergeSettings configure(
            Path repo,
            String strategy,
            String testCommand,
            Long timeoutMs,
            Integer maxAttempts,
            String autoResolve,
            String review)
            throws PaddockException {
        RepoRecord record = repos.open(repo).record();
        long id = record.id();
        MergeSettings cur = store.settings(id);
        MergeStrategy st;
        AutoResolveMode auto;
        ReviewMode rev;
        try {
            st = strategy == null ? cur.strategy() : MergeStrategy.of(strategy);
            auto = autoResolve == null ? cur.autoResolve() : AutoResolveMode.of(autoResolve);
            rev = review == null ? cur.review() : ReviewMode.of(review);
        } catch (IllegalArgumentException e) {
            throw new MergeException(MergeException.Kind.BAD_REQUEST, e.getMessage());
        }
        if (timeoutMs != null && timeoutMs < 1000) {
            throw new MergeException(MergeException.Kind.BAD_REQUEST, "the test timeout must be at least 1000 ms");
        }
        if (maxAttempts != null && maxAttempts < 1) {
            throw new MergeException(MergeException.Kind.BAD_REQUEST, "at least 1 attempt is needed");
        }
        MergeSettings next = new MergeSettings(
                st,
                testCommand == null ? cur.testCommand() : testCommand,
                timeoutMs == null ? cur.testTimeout() : Duration.ofMillis(timeoutMs),
                maxAttempts == null ? cur.maxAttempts() : maxAttempts,
                auto,
                rev,
                cur.target());
        store.setSettings(id, next, SettingChanges.of(record, cur, next));
        return store.settings(id);
    }

    /**
     * Sets where a repository's approved work goes; null arguments keep the current value, a blank remote means
     * {@code origin} or the only remote. Writes a {@code setting.changed} event for each value that changes.
     *
     * @param target {@code local} or {@code push} ({@link MergeTarget.Kind})
     * @throws MergeException BAD_REQUEST for an unknown target or a remote name git would refuse (nothing changed)
     */
    public MergeSettings configureTarget(Path repo, String target, String remote, Boolean pullRequest)
            throws PaddockException {
        RepoRecord record = repos.open(repo).record();
        MergeSettings cur = store.settings(record.id());
        MergeTarget next;
        try {
            next = new MergeTarget(
                    target == null ? cur.target().kind() : MergeTarget.Kind.of(target),
                    remote == null ? cur.target().remote() : SettingChanges.remoteName(remote),
                    pullRequest == null ? cur.target().pullRequest() : pullRequest);
        } catch (IllegalArgumentException e) {
            throw new MergeException(MergeException.Kind.BAD_REQUEST, e.getMessage());
        }
        MergeSettings changed = cur.withTarget(next);
        store.setSettings(record.id(), changed, SettingChanges.of(record, cur, changed));
        return store.settings(record.id());
    }

    /** The commands that regenerate a repository's lockfiles and generated files: file → command, sorted. */
    public java.util.SortedMap<String, String> regenerateCommands(Path repo) throws PaddockException {
        return store.regenerateCommands(repos.open(repo).record().id());
    }

    /**
     * Sets the command that regenerates a lockfile or generated file of a repository when its merge conflicts
     * (the queue takes ours' file whole and runs the command in the merge worktree, never merging it as text); a
     * blank command removes it. Writes a {@code setting.changed} event when it changes.
     *
     * @param file a file name ({@code package-lock.json}: that name anywhere) or a repository-relative path
     * @throws MergeException BAD_REQUEST for an empty file, an absolute path or one with {@code ..} (nothing changed)
     */
    public java.util.SortedMap<String, String> regenerate(Path repo, String file, String command)
            throws PaddockException {
        String f = regenerateFile(file);
        RepoRecord record = repos.open(repo).record();
        String next = command == null || command.isBlank() ? null : command.strip();
        String was = store.regenerateCommands(record.id()).get(f);
        List<EventDraft> events = new java.util.ArrayList<>();
        SettingChanges.add(
                events, record, "regenerate " + f, was == null ? "(none)" : was, next == null ? "(none)" : next);
        store.setRegenerateCommand(record.id(), f, next, events);
        return store.regenerateCommands(record.id());
    }

    /**
     * The file of a regenerate setting, checked and with {@code /} separators.
     *
     * @throws MergeException BAD_REQUEST for an empty file, an absolute path or one with {@code ..}
     */
    public static String regenerateFile(String file) throws MergeException {
        String f = file == null ? "" : file.strip().replace('\\', '/');
        if (f.isEmpty()
                || f.startsWith("/")
                || f.equals("..")
                || f.startsWith("../")
                || f.contains("/../")
                || f.endsWith("/..")
                || f.endsWith("/")) {
            throw new MergeException(
                    MergeException.Kind.BAD_REQUEST,
                    "regenerate needs FILE=COMMAND with FILE a file"
                            + " name (package-lock.json) or a path inside the repository, not \"" + file + "\"");
        }
        return f;
    }

    /** Entries waiting in the conflict queue (state conflict) of the repository, or of all repositories for null. */
    public List<MergeEntry> conflicted(Path repo) throws PaddockException {
        List<MergeEntry> all = store.inState(MergeState.CONFLICT);
        if (repo == null) {
            return all;
        }
        Optional<RepoRecord> r = repos.registered(repo);
        return r.isEmpty()
                ? List.of()
                : all.stream().filter(e -> e.repositoryId() == r.get().id()).toList();
    }

    /** The stored conflicted files of an entry. */
    public List<MergeStore.StoredConflict> conflictFiles(long id) throws PaddockException {
        get(id);
        return store.conflicts(id);
    }

    static MergeException notFound(long id) {
        return new MergeException(MergeException.Kind.NOT_FOUND, "no merge queue entry #" + id);
    }
}
