package dev.paddock.approval;

import dev.paddock.approval.ApprovalException.Kind;
import dev.paddock.approval.ApprovalStore.Outcome;
import dev.paddock.common.PaddockException;
import dev.paddock.common.Threads;
import dev.paddock.policy.Decision;
import dev.paddock.policy.ToolRequest;
import dev.paddock.policy.Verdict;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoStore;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.settings.SettingsStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The approval broker: decides what an agent may do, with the repository's policy, and
 * parks what the policy asks about until a person decides.
 *
 * <ul>
 *   <li>{@link #decide}: the policy's allow or deny is stored (state approved or denied, decided by
 *       {@code policy}) and answered at once. An ask is stored pending, with an expiry of now +
 *       {@link SettingsStore#APPROVAL_TIMEOUT_MS}, and answered when a person approves or denies it
 *       ({@link #approve}, {@link #deny}, {@link #approveAndAllow}), when it expires (state expired, decision
 *       deny, decided by {@code timeout}) or when it is cancelled: its requester went away
 *       ({@link Ticket#abandon}) or its sandbox is no longer running.</li>
 *   <li>Re-sent requests: an ask with the same sandbox, Claude Code session, tool, input and working
 *       directory as a pending one attaches to it (same approval, no new row) instead of adding one; a
 *       request after the pending one was decided is a new request.</li>
 *   <li>Restart: pending requests are in the store. {@link #start} expires those whose expiry passed and
 *       arms the timers of the others; a re-sent request attaches to them.</li>
 *   <li>Every final state is reached by a compare-and-set ({@link ApprovalStore#finish}): a click racing
 *       the timeout gives exactly one final state and one event; the loser learns it lost.</li>
 * </ul>
 * Events: {@code approval.requested}, {@code approval.approved}, {@code approval.denied},
 * {@code approval.expired}, {@code approval.cancelled} (see {@link dev.paddock.events.EventKinds}); a request
 * the policy decides at once has one event, its decision.
 */
public final class ApprovalBroker implements AutoCloseable {
    /** Where a container sandbox's agent sees its worktree (always on a remote engine, as an alias locally). */
    private static final Path CONTAINER_WORKSPACE = Path.of("/workspace");

    private static final Logger LOG = LoggerFactory.getLogger(ApprovalBroker.class);
    /** How often pending requests are checked for a stopped sandbox or a missed expiry, in ms. */
    static final long SWEEP_MS = 1000;

    private final ApprovalStore store;
    private final SandboxStore sandboxes;
    private final RepoStore repos;
    private final SettingsStore settings;
    private final Clock clock;
    private final PolicyCache policies;
    private final PendingWaiters waiters = new PendingWaiters();
    private final AllowRuleWriter allowRules;
    private final OutsideSandboxPermits outside;
    private final ScheduledExecutorService timer =
            Executors.newSingleThreadScheduledExecutor(Threads.daemon("approval-timer"));
    private volatile boolean closing;

    /**
     * What {@link #approveAndAllow} did.
     *
     * @param rule        the allow rule written
     * @param policyFile  the file it was written to
     * @param deciding    the rule that now decides such a request, e.g. {@code allow rule Bash(git push:*) from
     *                    /repo/.paddock/policy.json}
     * @param droppedAsks the ask rules removed because they read exactly like the allow rule (each with its file)
     */
    public record AllowResult(
            Approval approval, String rule, Path policyFile, String deciding, List<String> droppedAsks) {}

    /**
     * @param paddockHome the Paddock home (for the global {@code policy.json})
     * @param userHome the user's home directory (for {@code ~} in rules)
     */
    public ApprovalBroker(
            ApprovalStore store,
            SandboxStore sandboxes,
            RepoStore repos,
            SettingsStore settings,
            Path paddockHome,
            Path userHome,
            Clock clock) {
        this.store = store;
        this.sandboxes = sandboxes;
        this.repos = repos;
        this.settings = settings;
        this.clock = clock;
        this.policies = new PolicyCache(paddockHome, userHome);
        this.allowRules = new AllowRuleWriter(policies, paddockHome);
        this.outside = new OutsideSandboxPermits(store, clock);
    }

    /**
     * Expires pending requests whose expiry passed while Paddock was not running, arms the timers of the
     * others, and starts checking every second for pending requests whose sandbox stopped.
     *
     * @throws PaddockException when the store cannot be read
     */
    public void start() throws PaddockException {
        sweep();
        for (Approval a : store.list(ApprovalState.PENDING, Integer.MAX_VALUE)) {
            armExpiry(a);
        }
        timer.scheduleWithFixedDelay(this::sweepQuietly, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        if (store.shared()) { // another Paddock may decide what this one's requesters wait for
            DecidedElsewhere elsewhere = new DecidedElsewhere(store, waiters);
            long every = DecidedElsewhere.POLL_MS;
            timer.scheduleWithFixedDelay(elsewhere::pollQuietly, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Decides a request with the policy of its sandbox's repository (reloaded when its files change).
     *
     * @return a ticket: final at once for the policy's allow or deny; pending for an ask, completed later
     * @throws ApprovalException no sandbox id, tool or absolute working directory (bad request); no such
     *     sandbox or repository (not found)
     * @throws PaddockException when the store fails
     */
    public Ticket decide(ApprovalRequest r) throws PaddockException {
        if (r.sandboxId() == null || r.sandboxId().isBlank()) {
            throw new ApprovalException(Kind.BAD_REQUEST, "a request needs the sandbox of the agent that asks");
        }
        if (r.tool() == null || r.tool().isBlank()) {
            throw new ApprovalException(Kind.BAD_REQUEST, "a request needs a tool name");
        }
        SandboxRecord sandbox = sandboxes
                .find(r.sandboxId())
                .orElseThrow(() -> new ApprovalException(Kind.NOT_FOUND, "No sandbox " + r.sandboxId() + "."));
        RepoRecord repo = repos.find(sandbox.repositoryId())
                .orElseThrow(() -> new ApprovalException(
                        Kind.NOT_FOUND, "The repository of sandbox " + r.sandboxId() + " is not known."));
        Path root = projectRoot(sandbox, repo);
        Path cwd = r.cwd() == null ? root : r.cwd();
        if (!cwd.isAbsolute()) {
            throw new ApprovalException(Kind.BAD_REQUEST, "the working directory must be an absolute path: " + cwd);
        }
        if (sandbox.spec().tier() == dev.paddock.sandbox.Tier.CONTAINER && cwd.startsWith(CONTAINER_WORKSPACE)) {
            // A container shows its worktree at /workspace (on a remote engine, only there): judged as the worktree.
            cwd = root.resolve(CONTAINER_WORKSPACE.relativize(cwd).toString());
        }
        Decision d = policies.engine(repo.path(), root).decide(new ToolRequest(r.tool(), r.input(), cwd));
        // A call of the agent's is a sign of life: it renews the lease as a heartbeat would, so an agent whose
        // hook asks Paddock needs no heartbeat calls of its own (the call, as progress).
        String call =
                (r.tool() + ": " + (r.input() == null ? "" : r.input())).strip().replaceAll("\\s+", " ");
        sandboxes.heartbeat(sandbox.id(), call.length() > 160 ? call.substring(0, 159) + "…" : call);
        Instant now = clock.instant();
        String rule = d.rule() == null ? null : d.rule().text();
        Verdict verdict = d.verdict();
        String reason = d.reason();
        if (verdict == Verdict.ALLOW && r.outsideSandbox()) {
            // Stepping outside the agent's own sandbox widens what the call may touch: a person decides.
            verdict = Verdict.ASK;
            reason = "it asks to run outside the agent's own sandbox (" + reason + ")";
        }
        if (verdict != Verdict.ASK) {
            boolean allow = verdict == Verdict.ALLOW;
            return done(store.insert(asked(r, sandbox, repo, cwd, rule, now)
                    .state(allow ? ApprovalState.APPROVED : ApprovalState.DENIED)
                    .decision(allow ? "allow" : "deny")
                    .decidedBy("policy")
                    .reason(reason)
                    .decidedAt(now)
                    .build()));
        }
        if (!sandbox.state().mayHaveProcess()) {
            return done(store.insert(asked(r, sandbox, repo, cwd, rule, now)
                    .state(ApprovalState.CANCELLED)
                    .reason("sandbox " + sandbox.id() + " is " + sandbox.state().id() + ", not running: nobody would"
                            + " receive an answer, so it is not queued (" + reason + ")")
                    .decidedAt(now)
                    .build()));
        }
        return park(r, sandbox, repo, cwd, rule, reason, now);
    }

    /**
     * Whether a call may run outside the agent's own sandbox (Claude Code's PermissionRequest for it): only when a
     * person approved this very call (same sandbox, tool and input) in the last {@link OutsideSandboxPermits#WINDOW} (ten minutes), and
     * each approval only once. The policy's allow is never enough.
     *
     * @return the person's approval that permits it, or empty (deny)
     */
    public Optional<Approval> permitOutsideSandbox(String sandboxId, String tool, String input)
            throws PaddockException {
        return outside.permit(sandboxId, tool, input);
    }

    /** The parts of a new approval that say what was asked, by whom, where and when; the caller adds the rest. */
    private static Approval.Builder asked(
            ApprovalRequest r, SandboxRecord sandbox, RepoRecord repo, Path cwd, String rule, Instant now) {
        return Approval.builder()
                .sandboxId(sandbox.id())
                .repositoryId(repo.id())
                .tool(r.tool())
                .request(r.input())
                .cwd(cwd.toString())
                .matchedRule(rule)
                .sessionId(r.sessionId())
                .toolUseId(r.toolUseId())
                .requestedAt(now);
    }

    private synchronized Ticket park(
            ApprovalRequest r,
            SandboxRecord sandbox,
            RepoRecord repo,
            Path cwd,
            String rule,
            String reason,
            Instant now)
            throws PaddockException {
        Optional<Approval> twin =
                store.findPendingTwin(sandbox.id(), r.sessionId(), r.tool(), r.input(), cwd.toString());
        Approval a;
        if (twin.isPresent()) {
            a = twin.get();
            LOG.debug("Request attached to pending approval {}", a.id());
        } else {
            long timeoutMs = Math.max(1, settings.get(SettingsStore.APPROVAL_TIMEOUT_MS));
            a = store.insert(asked(r, sandbox, repo, cwd, rule, now)
                    .state(ApprovalState.PENDING)
                    .reason(reason)
                    .expiresAt(now.plusMillis(timeoutMs))
                    .build());
            armExpiry(a);
        }
        long id = a.id();
        Ticket t = new Ticket(a, waiters.attach(id), () -> abandoned(id));
        // Finished between the lookup and the registration (a click, the timer): answer now.
        store.find(id).filter(x -> x.state().isFinal()).ifPresent(this::release);
        return t;
    }

    /**
     * A person approves a pending request: its requesters are told "allow".
     *
     * @param who the person (shown in the events and the answer)
     * @return the approval, approved
     * @throws ApprovalException no such request (not found); it is no longer pending (conflict, with its state)
     */
    public Approval approve(long id, String who) throws PaddockException {
        return decideByHuman(id, true, who, "approved by " + who(who));
    }

    /**
     * A person denies a pending request: its requesters are told "deny" with the reason.
     *
     * @param reason why, for the agent (may be null)
     * @throws ApprovalException no such request (not found); it is no longer pending (conflict)
     */
    public Approval deny(long id, String who, String reason) throws PaddockException {
        String why = "denied by " + who(who) + (reason == null || reason.isBlank() ? "" : ": " + reason.strip());
        return decideByHuman(id, false, who, why);
    }

    /**
     * Approves a pending request and writes an allow rule for its prefix (see {@link AllowRules}) to the
     * repository's {@code .paddock/policy.json} (created if missing, other content kept, previous file in
     * {@code policy.json.bak}), so the same kind of request is allowed from now on. Only when the policy with that
     * rule allows the request ({@link AllowPlan}): an ask rule reading exactly like the new allow rule, in the
     * repository's or the global policy file, is removed; any other rule that would still ask or deny refuses it,
     * naming that rule, and nothing is written. This is a person's action (the panel, or the API with the install
     * token): an agent cannot reach it.
     *
     * @throws ApprovalException no such request; no sensible rule for it, the policy would still not allow it, or
     *     a policy file does not parse (bad request or conflict; nothing changed); it stopped being pending
     *     meanwhile (conflict: the rule is written, the request was not approved)
     */
    public AllowResult approveAndAllow(long id, String who) throws PaddockException {
        Approval a = pending(id);
        SandboxRecord sandbox = sandboxes
                .find(a.sandboxId())
                .orElseThrow(() -> new ApprovalException(Kind.NOT_FOUND, "No sandbox " + a.sandboxId() + "."));
        RepoRecord repo = repos.find(sandbox.repositoryId())
                .orElseThrow(() -> new ApprovalException(
                        Kind.NOT_FOUND, "The repository of sandbox " + a.sandboxId() + " is not known."));
        AllowRuleWriter.Written w = allowRules.write(a, repo.path(), projectRoot(sandbox, repo));
        List<String> dropped = w.droppedAsks();
        Optional<Approval> done = store.finish(
                id,
                Outcome.human(
                        true,
                        who(who),
                        "approved by " + who(who)
                                + "; allowed from now on by the " + w.deciding()
                                + (dropped.isEmpty() ? "" : " (removed the " + String.join(", the ", dropped) + ")")));
        if (done.isEmpty()) {
            throw new ApprovalException(
                    Kind.CONFLICT,
                    "The rule " + w.rule() + " was written to " + w.file() + ", but request " + id
                            + " was no longer pending (" + stateOf(id) + ").");
        }
        release(done.get());
        return new AllowResult(done.get(), w.rule(), w.file(), w.deciding(), dropped);
    }

    /**
     * Cancels a pending request: nobody waits for its answer any more.
     *
     * @return whether it was pending (and is now cancelled)
     */
    public boolean cancel(long id, String why) throws PaddockException {
        return finish(id, new Outcome(ApprovalState.CANCELLED, null, null, null, why));
    }

    /**
     * The live sandbox whose worktree contains {@code dir} (the deepest, if worktrees nest): how a request
     * sent with the install token and no sandbox id is tied to a sandbox.
     */
    public Optional<String> sandboxContaining(Path dir) throws PaddockException {
        if (dir == null) {
            return Optional.empty();
        }
        Path d = dir.toAbsolutePath().normalize();
        return sandboxes.listLive().stream()
                .filter(s -> s.workspace().worktree() != null
                        && d.startsWith(s.workspace().worktree()))
                .max(java.util.Comparator.comparingInt(
                        s -> s.workspace().worktree().getNameCount()))
                .map(SandboxRecord::id);
    }

    /** Requests in {@code state} (all when null): pending ones oldest first, others newest first. */
    public List<Approval> list(ApprovalState state, int limit) throws PaddockException {
        return store.list(state, limit);
    }

    /** The requests of one sandbox, oldest first: at most {@code limit} of the newest. */
    public List<Approval> ofSandbox(String sandboxId, int limit) throws PaddockException {
        return store.ofSandbox(sandboxId, limit);
    }

    /** The name of a registered repository (its folder's, as the panel shows it), if there is one with this id. */
    public Optional<String> repositoryName(long repositoryId) throws PaddockException {
        return repos.find(repositoryId).map(RepoRecord::name);
    }

    /** The request with this id. */
    public Optional<Approval> find(long id) throws PaddockException {
        return store.find(id);
    }

    /**
     * Expires pending requests whose expiry passed and cancels those whose sandbox is no longer running.
     * Runs every {@link #SWEEP_MS} ms after {@link #start}; callable at any time.
     */
    void sweep() throws PaddockException {
        for (long id : store.pendingExpiredAt(clock.instant())) {
            expire(id);
        }
        for (Map.Entry<Long, String> e : store.pendingOfStoppedSandboxes().entrySet()) {
            cancel(
                    e.getKey(),
                    e.getValue() == null
                            ? "its sandbox no longer exists"
                            : "its sandbox is " + e.getValue() + ", not running: the agent no longer waits");
        }
    }

    /** Denies a pending request by timeout; false when it was no longer pending. */
    boolean expire(long id) throws PaddockException {
        return finish(
                id,
                new Outcome(
                        ApprovalState.EXPIRED,
                        "deny",
                        "timeout",
                        null,
                        "nobody decided before the approval timeout: denied"));
    }

    private Approval decideByHuman(long id, boolean allow, String who, String reason) throws PaddockException {
        Optional<Approval> done = store.finish(id, Outcome.human(allow, who(who), reason));
        if (done.isEmpty()) {
            pending(id); // throws: not found, or not pending
            throw new ApprovalException(Kind.CONFLICT, "Request " + id + " changed meanwhile; look again.");
        }
        release(done.get());
        return done.get();
    }

    private boolean finish(long id, Outcome o) throws PaddockException {
        Optional<Approval> done = store.finish(id, o);
        done.ifPresent(this::release);
        return done.isPresent();
    }

    private Approval pending(long id) throws PaddockException {
        Approval a = store.find(id)
                .orElseThrow(() -> new ApprovalException(Kind.NOT_FOUND, "No approval request " + id + "."));
        if (a.state().isFinal()) {
            throw new ApprovalException(
                    Kind.CONFLICT,
                    "Request " + id + " is " + a.state().id() + ", not pending"
                            + (a.reason() == null ? "." : " (" + a.reason() + ")."));
        }
        return a;
    }

    private String stateOf(long id) throws PaddockException {
        return store.find(id).map(a -> a.state().id()).orElse("gone");
    }

    /** Hands a final approval to everyone waiting for it (the panel hears of it from its event). */
    private void release(Approval done) {
        waiters.release(done);
    }

    private Ticket done(Approval decided) {
        return Ticket.done(decided);
    }

    private void abandoned(long id) {
        if (closing || !waiters.detach(id)) {
            return;
        }
        try {
            cancel(id, "the requester went away before anyone decided (its connection closed)");
        } catch (PaddockException e) {
            LOG.warn("Cannot cancel approval {} after its requester went away: {}", id, e.getMessage());
        }
    }

    private void armExpiry(Approval a) {
        if (a.expiresAt() == null || closing) {
            return;
        }
        long delay =
                Math.max(0, Duration.between(clock.instant(), a.expiresAt()).toMillis());
        timer.schedule(
                () -> {
                    try {
                        expire(a.id());
                    } catch (PaddockException | RuntimeException e) {
                        LOG.warn("Cannot expire approval {}: {}", a.id(), e.getMessage());
                    }
                },
                delay,
                TimeUnit.MILLISECONDS);
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (PaddockException | RuntimeException e) {
            LOG.warn("Approval sweep failed: {}", e.getMessage());
        }
    }

    private static Path projectRoot(SandboxRecord sandbox, RepoRecord repo) {
        return sandbox.workspace().worktree() != null ? sandbox.workspace().worktree() : repo.path();
    }

    private static String who(String who) {
        return who == null || who.isBlank() ? "a person" : who.strip();
    }

    /**
     * Stops the timers. Pending requests stay pending in the store (a restart waits for them again); their
     * waiting requesters are released with an error, not cancelled.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        timer.shutdownNow();
        waiters.close();
    }
}
