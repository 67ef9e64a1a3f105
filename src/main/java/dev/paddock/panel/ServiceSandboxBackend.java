package dev.paddock.panel;

import dev.paddock.agent.AgentPreset;
import dev.paddock.agent.LogFollower;
import dev.paddock.agent.PresetPrograms;
import dev.paddock.agent.TranscriptFollower;
import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalBroker;
import dev.paddock.common.PaddockException;
import dev.paddock.events.Event;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.RemovalPlan;
import dev.paddock.sandbox.RemoveMode;
import dev.paddock.sandbox.SandboxReclaimer;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxService;
import dev.paddock.sandbox.Tier;
import dev.paddock.sandbox.TierCheck;
import dev.paddock.settings.SettingsStore;
import dev.paddock.ui.sandboxes.SandboxBackend;
import dev.paddock.worktree.GitCli;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.WorktreeManager;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** {@link SandboxBackend} over the running Paddock's services. Actions are recorded as done by the local user. */
public final class ServiceSandboxBackend implements SandboxBackend {
    private final SandboxService service;
    private final SettingsStore settings;
    private final dev.paddock.repo.RepoService repoService;
    private final TierCheck tiers;
    private final GitCli git;
    private final WorktreeManager worktrees;
    private final SandboxReclaimer reclaimer;
    private final dev.paddock.checkpoint.CheckpointService checkpoints;
    private final ApprovalBroker approvals;
    private final dev.paddock.compare.GroupComparer comparisons;
    private final dev.paddock.publish.PublishService publish;
    private final String who;
    private final java.util.function.Supplier<java.util.Map<String, String>> environment;
    private volatile dev.paddock.review.ReviewService reviews;
    private volatile dev.paddock.ui.diff.DiffBackend diffs;
    private volatile dev.paddock.layer.SharedLayers layers;

    /**
     * The backend of a running Paddock, built by {@code Wiring}: its services, and the git and worktree manager it
     * already has.
     *
     * @param tiers tells which tiers this machine can run
     */
    public ServiceSandboxBackend(
            SandboxService service,
            SandboxReclaimer reclaimer,
            SettingsStore settings,
            dev.paddock.repo.RepoService repoService,
            TierCheck tiers,
            GitCli git,
            WorktreeManager worktrees,
            dev.paddock.checkpoint.CheckpointService checkpoints,
            ApprovalBroker approvals,
            dev.paddock.compare.GroupComparer comparisons,
            dev.paddock.publish.PublishService publish) {
        this.comparisons = comparisons;
        this.publish = publish;
        this.checkpoints = checkpoints;
        this.approvals = approvals;
        this.service = service;
        this.reclaimer = reclaimer;
        this.settings = settings;
        this.repoService = repoService;
        this.tiers = tiers;
        this.git = git;
        this.worktrees = worktrees;
        // Paddock's own environment, which the presets look programs up in and pass variables from (Wiring).
        this.environment = System::getenv;
        this.who = System.getProperty("user.name", "someone") + " (panel)";
    }

    @Override
    public String push(String id) throws PaddockException {
        return publish.push(id, null, who).shortMessage();
    }

    @Override
    public String openPullRequest(String id) throws PaddockException {
        return publish.pullRequest(id, null, false, who).shortMessage();
    }

    @Override
    public dev.paddock.compare.GroupComparison compare(String groupOrId) throws PaddockException {
        return comparisons.compare(groupOrId);
    }

    @Override
    public Defaults defaults() throws PaddockException {
        return new Defaults(
                settings.get(SettingsStore.SANDBOX_LEASE_MS), settings.get(SettingsStore.SANDBOX_MAX_RETRIES));
    }

    @Override
    public List<String> localBranches(Path repository) throws PaddockException {
        GitCli.Result r =
                git.run(repository, "for-each-ref", "--sort=refname", "--format=%(refname:short)", "refs/heads/");
        if (!r.ok()) {
            throw new GitException("Cannot list the branches of " + repository + ": " + r.errorLine());
        }
        return r.stdout().lines().filter(l -> !l.isBlank()).toList();
    }

    @Override
    public String checkBranchName(Path repository, String branch) throws PaddockException {
        return worktrees.checkBranchName(repository, branch);
    }

    @Override
    public Optional<Path> checkedOutIn(Path repository, String branch) throws PaddockException {
        return worktrees.checkedOutIn(repository, branch);
    }

    @Override
    public Optional<String> tierUnavailable(Tier tier) {
        return tiers.unavailable(tier);
    }

    @Override
    public Optional<String> containerImage(Path repository) throws PaddockException {
        return repoService.containerImageOf(repoService.locate(repository));
    }

    @Override
    public AgentProgram agentProgram(String agent) throws PaddockException {
        AgentPreset p;
        try {
            p = AgentPreset.of(agent);
        } catch (IllegalArgumentException e) {
            throw new PaddockException(e.getMessage(), e);
        }
        if (p == AgentPreset.CUSTOM) {
            return new AgentProgram(
                    p.id(), p.executable(), null, ProgramSource.COMMAND, null, null, List.of(), List.of());
        }
        java.util.Map<String, String> env = environment.get();
        List<String> passes = dev.paddock.agent.PassThrough.from(p, env).names();
        String configured =
                dev.paddock.agent.AgentOptions.stored(settings, repoService).executable(p);
        if (configured != null && !configured.isBlank()) {
            Path set = Path.of(configured.strip());
            Optional<String> problem = dev.paddock.settings.Setting.executableProblem(set);
            return new AgentProgram(
                    p.id(),
                    p.executable(),
                    p.executableSetting(),
                    problem.isPresent() ? ProgramSource.MISSING : ProgramSource.SETTING,
                    problem.isPresent() ? null : set,
                    problem.orElse(null),
                    passes,
                    p.passThrough());
        }
        Optional<Path> found = dev.paddock.agent.ExecutableLocator.locate(p, null, env.get("PATH"));
        return new AgentProgram(
                p.id(),
                p.executable(),
                p.executableSetting(),
                found.isPresent() ? ProgramSource.PATH : ProgramSource.MISSING,
                found.orElse(null),
                null,
                passes,
                p.passThrough());
    }

    @Override
    public dev.paddock.sandbox.SandboxGroup createGroup(NewSandbox template, dev.paddock.sandbox.AgentCounts agents)
            throws PaddockException {
        return service.createGroup(template, agents);
    }

    @Override
    public SandboxRecord create(NewSandbox request) throws PaddockException {
        return service.create(request);
    }

    /** Reviews changes through {@code r} from now on (approve, request changes, reject). */
    public ServiceSandboxBackend reviews(dev.paddock.review.ReviewService r) {
        this.reviews = r;
        return this;
    }

    /** Shows sandboxes' changes through {@code d} from now on (the diff window). */
    public ServiceSandboxBackend diffs(dev.paddock.ui.diff.DiffBackend d) {
        this.diffs = d;
        return this;
    }

    /** Reads sandboxes' changes in the shared layers through {@code l} from now on. */
    public ServiceSandboxBackend layers(dev.paddock.layer.SharedLayers l) {
        this.layers = l;
        return this;
    }

    @Override
    public dev.paddock.ui.diff.DiffBackend diffs() {
        return diffs;
    }

    private dev.paddock.review.ReviewService reviewService() throws PaddockException {
        dev.paddock.review.ReviewService r = reviews;
        if (r == null) {
            throw new PaddockException("This Paddock does not review changes.");
        }
        return r;
    }

    @Override
    public String approve(String id) throws PaddockException {
        return reviewService().approve(id, who).message();
    }

    @Override
    public String requestChanges(String id, String comment) throws PaddockException {
        dev.paddock.review.ChangeRequests.Sent s = reviewService().requestChanges(id, comment, who);
        int n = s.comments().size();
        return "Sent " + n + (n == 1 ? " comment" : " comments") + " (round " + s.round() + "): "
                + (s.followUp()
                        ? "its agent resumes with them."
                        : "its agent runs again and finds them in " + s.file() + ".");
    }

    @Override
    public String reject(String id, String comment) throws PaddockException {
        SandboxRecord s = reviewService().reject(id, comment, who);
        return "Discarded " + s.id() + "; its branch " + s.workspace().branch() + " is kept.";
    }

    @Override
    public SandboxRecord stop(String id) throws PaddockException {
        return service.stop(id, who);
    }

    @Override
    public SandboxRecord retry(String id) throws PaddockException {
        return service.retry(id, who);
    }

    @Override
    public SandboxRecord say(String id, String text) throws PaddockException {
        return service.say(id, text, who);
    }

    // The reclaimer directly until SandboxService offers plan and remove itself.
    @Override
    public RemovalPlan plan(String id) throws PaddockException {
        return reclaimer.plan(id);
    }

    @Override
    public SandboxRecord remove(String id, RemoveMode mode, boolean deleteBranch) throws PaddockException {
        return reclaimer.remove(id, mode, deleteBranch, who);
    }

    @Override
    public List<Event> history(String id) throws PaddockException {
        return service.history(id);
    }

    @Override
    public LogFollower followLog(String id) {
        return new LogFollower(service.logFile(id));
    }

    @Override
    public TranscriptFollower followTranscript(String id) throws PaddockException {
        AgentPreset preset = PresetPrograms.presetOf(service.find(id).spec().agent());
        return new TranscriptFollower(service.logFile(id), preset.format(), TranscriptFollower.MAX_TAIL_BYTES);
    }

    @Override
    public List<Approval> approvals(String id, int limit) throws PaddockException {
        return approvals.ofSandbox(id, limit);
    }

    @Override
    public WorktreeManager.ChangeList changes(String id) throws PaddockException {
        return service.changes(id);
    }

    @Override
    public List<dev.paddock.layer.LayerChange> layerChanges(String id) throws PaddockException {
        dev.paddock.layer.SharedLayers l = layers;
        if (l == null) {
            return List.of();
        }
        SandboxRecord s = service.find(id);
        dev.paddock.sandbox.SandboxLayout at = service.layout(id);
        Long pid = s.state() == dev.paddock.sandbox.SandboxState.RUNNING && s.runRef() != null
                ? s.runRef().pid()
                : null;
        return l.changes(s.repositoryId(), at.mainWorktree(), at.sandboxDir(), pid);
    }

    @Override
    public List<dev.paddock.checkpoint.Checkpoint> checkpoints(String id) throws PaddockException {
        return checkpoints.list(id);
    }

    @Override
    public dev.paddock.checkpoint.RollbackPlan planRollback(String id, int number) throws PaddockException {
        return checkpoints.planRollback(id, number);
    }

    @Override
    public dev.paddock.checkpoint.Rollback rollback(String id, int number, boolean resetBranch)
            throws PaddockException {
        return checkpoints.rollback(id, number, who, resetBranch);
    }
}
