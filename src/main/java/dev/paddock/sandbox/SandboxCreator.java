package dev.paddock.sandbox;

import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.container.ResourceLimits;
import dev.paddock.events.EventDraft;
import dev.paddock.repo.RepoRecord;
import dev.paddock.repo.RepoService;
import dev.paddock.settings.SettingsStore;
import dev.paddock.worktree.FingerprintProbe;
import dev.paddock.worktree.GitException;
import dev.paddock.worktree.GitRepository;
import dev.paddock.worktree.SideBySide;
import dev.paddock.worktree.WorktreeManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates sandboxes: checks everything first, then creates the
 * branch and the worktree under {@code <repo>/.worktrees/<id>/<branch>}, gives it the agent's identity,
 * writes the state file and stores the sandbox as {@code pending} with an event per step. When a step
 * fails, what the earlier steps made is taken back: a failed creation changes nothing. The health
 * fingerprint is started right after the checkout and recorded just after the sandbox is stored, before
 * its agent starts ({@link FingerprintRecorder}).
 */
public final class SandboxCreator {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxCreator.class);

    private final RepoService repos;
    private final WorktreeManager worktrees;
    private final SandboxStore store;
    private final SettingsStore settings;
    private final TierCheck tiers;
    private final FingerprintRecorder fingerprints;
    private final Clock clock;
    private volatile AgentPrograms programs = AgentPrograms.CUSTOM_ONLY;

    public SandboxCreator(
            RepoService repos,
            WorktreeManager worktrees,
            SandboxStore store,
            SettingsStore settings,
            TierCheck tiers,
            FingerprintRecorder fingerprints,
            Clock clock) {
        this.fingerprints = fingerprints;
        this.repos = repos;
        this.worktrees = worktrees;
        this.store = store;
        this.settings = settings;
        this.tiers = tiers;
        this.clock = clock;
    }

    /** Checks requests' agents with these presets from now on (the default knows {@code custom} alone). */
    public void agentPrograms(AgentPrograms p) {
        this.programs = p;
    }

    /**
     * Refuses a tier this machine cannot run.
     *
     * @throws SandboxException saying why
     */
    void checkTier(Tier tier) throws SandboxException {
        Optional<String> unavailable = tiers.unavailable(tier);
        if (unavailable.isPresent()) {
            throw new SandboxException("The " + tier.id() + " tier is not available here: " + unavailable.get());
        }
    }

    /** The presets requests are checked with. */
    AgentPrograms agentPrograms() {
        return programs;
    }

    /**
     * Creates a sandbox in state {@code pending}; the supervisor starts it.
     *
     * @throws SandboxConflictException when the id or the target directory is taken, or the branch is checked
     *     out elsewhere, with nothing changed
     * @throws SandboxException for a request that cannot be honoured (unknown agent, a command with a preset, a
     *     custom agent without a command, empty task, invalid id, lease
     *     under a second, negative retries, tier unavailable; container tier: no image, or the engine lacks it),
     *     with nothing changed
     * @throws SandboxException when the agent's executable setting names no executable file (not for a container)
     * @throws SandboxException also when the base is not a local branch ({@link SandboxBase}: a detached HEAD, a
     *     commit id, a tag, a remote-tracking branch), with nothing changed
     * @throws GitException when the path is not in a usable repository, the base names no commit or git refuses
     *     the branch name ({@code git check-ref-format}), with nothing changed
     * @throws PaddockException when git or the store fail on the way (what was made is taken back)
     */
    public SandboxRecord create(NewSandbox req) throws PaddockException {
        String command = programs.check(req.agent(), req.model(), req.agentCommand());
        String agent = req.agent() == null || req.agent().isBlank()
                ? SandboxRecord.CUSTOM_AGENT
                : req.agent().strip().toLowerCase(java.util.Locale.ROOT);
        String model = req.model() == null || req.model().isBlank()
                ? null
                : req.model().strip();
        if (req.task() == null || req.task().isBlank()) {
            throw new SandboxException("The task is empty: say what the agent should do (--task ...).");
        }
        Tier tier = req.tier() == null ? programs.defaultTier(agent) : req.tier();
        if (tier != Tier.CONTAINER
                && (req.engine() != null || !req.engineLabels().isEmpty())) {
            throw new SandboxException("--engine and --engine-label are for the container tier; this sandbox's tier is "
                    + tier.id() + ".");
        }
        if (tier != Tier.CONTAINER
                || (dev.paddock.isolation.Engines.isLocal(req.engine())
                        && req.engineLabels().isEmpty())) {
            checkTier(tier); // another engine is checked by placement
        }
        programs.checkProgram(agent, tier);
        // Located, not registered yet: a refused request must not leave a registration behind.
        GitRepository git = repos.locate(req.repository());
        Path main = git.mainWorktree();

        String asked =
                req.baseBranch() == null || req.baseBranch().isBlank() ? repos.baseBranchOf(git) : req.baseBranch();
        // The base and the branch are asked of git side by side (read-only, a few ms each); their errors come out
        // in the order they would in a row: base first.
        CompletableFuture<SandboxBase> baseAnswer = SideBySide.start(() -> SandboxBase.resolve(worktrees, main, asked));
        CompletableFuture<BranchChoice> branchAnswer = SideBySide.start(() -> chooseBranch(main, req));
        SandboxBase resolvedBase = SideBySide.await(baseAnswer);
        String base = resolvedBase.branch();
        String baseCommit = resolvedBase.commit();
        String id = req.id() == null || req.id().isBlank() ? nextId(req.task(), main) : req.id();
        SandboxIds.check(id);
        if (store.exists(id)) {
            throw new SandboxConflictException("A sandbox with the id " + id + " exists already.");
        }
        BranchChoice choice = SideBySide.await(branchAnswer);
        String branch = choice.branch();
        Optional<Path> checkedOut = worktrees.checkedOutIn(git, branch);
        if (checkedOut.isPresent()) {
            throw new SandboxConflictException("The branch " + branch + " is already checked out in " + checkedOut.get()
                    + "; git allows a branch in one worktree only. Choose another branch.");
        }
        SandboxLayout layout = new SandboxLayout(main, id, branch);
        if (Files.exists(layout.sandboxDir())) {
            throw new SandboxConflictException(
                    "The directory " + layout.sandboxDir() + " exists already; remove it or choose" + " another id.");
        }
        ContainerChoice container = tier == Tier.CONTAINER ? containerChoice(req, git) : ContainerChoice.NONE;
        boolean newBranch = choice.newBranch();
        long leaseMs = req.leaseMs() != null ? req.leaseMs() : settings.get(SettingsStore.SANDBOX_LEASE_MS);
        if (leaseMs < SettingsStore.SANDBOX_LEASE_MS.min()) {
            throw new SandboxException("The lease must be at least one second (got " + leaseMs + " ms).");
        }
        if (leaseMs > SettingsStore.SANDBOX_LEASE_MS.max()) {
            throw new SandboxException("The lease can be at most 24 hours (" + SettingsStore.SANDBOX_LEASE_MS.max()
                    + " ms; got " + leaseMs + " ms): an agent that long silent is better stopped.");
        }
        int maxRetries = req.maxRetries() != null ? req.maxRetries() : settings.get(SettingsStore.SANDBOX_MAX_RETRIES);
        if (maxRetries < 0) {
            throw new SandboxException("The number of retries cannot be negative (got " + maxRetries + ").");
        }
        if (maxRetries > SettingsStore.SANDBOX_MAX_RETRIES.max()) {
            throw new SandboxException("The number of retries can be at most " + SettingsStore.SANDBOX_MAX_RETRIES.max()
                    + " (got " + maxRetries + ").");
        }

        List<EventDraft> steps = new ArrayList<>();
        boolean worktreeAdded = false;
        try {
            RepoRecord repo = repos.register(git).record();
            worktrees.excludeWorktreesDir(git);
            Files.createDirectories(layout.controlDir());
            worktrees.add(main, layout.worktree(), branch, newBranch, baseCommit);
            worktreeAdded = true;
            steps.add(step(
                    repo,
                    id,
                    newBranch ? "sandbox.branch_created" : "sandbox.branch_reused",
                    (newBranch
                            ? "Created branch " + branch + " at " + shortId(baseCommit) + " (" + base + ")"
                            : "Checked out the existing branch " + branch),
                    Map.of("branch", branch, "base", base, "baseCommit", baseCommit)));
            steps.add(step(
                    repo,
                    id,
                    "sandbox.worktree_added",
                    "Added worktree " + main.relativize(layout.worktree()),
                    Map.of("path", layout.worktree().toString())));
            // git status of a fresh checkout is the slow part of the fingerprint: it starts now, beside the
            // identity, and is finished after the sandbox is stored (FingerprintRecorder), before its agent starts.
            FingerprintProbe probe = worktrees.startFingerprint(layout.worktree(), true);
            worktrees.setIdentity(layout.worktree(), agentName(id), agentEmail(id));
            steps.add(step(
                    repo,
                    id,
                    "sandbox.identity_set",
                    "Commits in " + id + " are authored by " + agentName(id) + " <" + agentEmail(id) + ">",
                    Map.of("name", agentName(id), "email", agentEmail(id))));
            Instant now = clock.instant();
            SandboxRecord record = SandboxRecord.builder()
                    .id(id)
                    .repositoryId(repo.id())
                    .task(req.task().strip())
                    .agentCommand(command)
                    .tier(tier)
                    .agent(agent)
                    .model(model)
                    .branch(branch)
                    .baseBranch(base)
                    .baseCommit(baseCommit)
                    .worktreePath(layout.worktree().toString())
                    .state(SandboxState.PENDING)
                    .createdAt(now)
                    .stateChangedAt(now)
                    .leaseMs(leaseMs)
                    .maxRetries(maxRetries)
                    .networkGranted(req.network())
                    .limits(container.limits())
                    .image(container.image())
                    .engine(container.engine())
                    .group(req.group())
                    .build();
            writeStateFile(layout, record, Optional.empty());
            steps.add(step(
                    repo,
                    id,
                    "sandbox.state_file_written",
                    "Wrote " + main.relativize(layout.stateFile()),
                    Map.of("path", layout.stateFile().toString())));
            steps.add(step(
                    repo,
                    id,
                    "sandbox.created",
                    "Created sandbox " + id + " (" + tier.id() + ") for \""
                            + abbreviate(record.spec().task()) + "\"",
                    Map.of("tier", tier.id(), "branch", branch, "leaseMs", leaseMs, "maxRetries", maxRetries)));
            fingerprints.expect(id);
            try {
                store.insert(record, null, steps);
            } catch (PaddockException | RuntimeException e) {
                fingerprints.forget(id);
                throw e;
            }
            fingerprints.finishInBackground(record, layout, probe);
            LOG.info("Created sandbox {} in {}", id, layout.worktree());
            return record;
        } catch (IOException | PaddockException | RuntimeException e) {
            undo(main, layout, branch, newBranch, worktreeAdded);
            if (e instanceof PaddockException p) {
                throw p;
            }
            throw new SandboxException("Cannot create the sandbox " + id + ": " + e.getMessage(), e);
        }
    }

    /**
     * The branch a sandbox gets: the one asked for, as git normalises it, or one suggested from the task
     * that no branch has yet; {@code newBranch} when it is to be created.
     */
    private record BranchChoice(String branch, boolean newBranch) {}

    /**
     * Chooses the branch (git calls only, nothing written).
     *
     * @throws GitException when git refuses the name ({@code git check-ref-format --branch})
     */
    private BranchChoice chooseBranch(Path main, NewSandbox req) throws GitException {
        String suggested = req.branch() == null || req.branch().isBlank() ? suggestBranch(main, req.task()) : null;
        String branch = worktrees.checkBranchName(main, suggested != null ? suggested : req.branch());
        // A suggested name was chosen because no branch has it (should git normalise it, ask again).
        boolean newBranch = branch.equals(suggested) || !worktrees.branchExists(main, branch);
        return new BranchChoice(branch, newBranch);
    }

    /** The image and limits of a container sandbox (all null for the other tiers). */
    private record ContainerChoice(String image, ResourceLimits limits, String engine) {
        static final ContainerChoice NONE = new ContainerChoice(null, null, null);
    }

    /**
     * The sandbox's image (its own, else the repository's) and limits (its own, else the defaults), after
     * checking that the engine has the image; the engine asked for, else placement's choice among the engines.
     *
     * @throws SandboxException when there is no image or the engine does not have it
     */
    private ContainerChoice containerChoice(NewSandbox req, GitRepository git) throws PaddockException {
        String image = req.image() != null && !req.image().isBlank()
                ? req.image().strip()
                : repos.containerImageOf(git).orElse(null);
        ResourceLimits limits = req.limits() != null ? req.limits() : ResourceLimits.DEFAULTS;
        String engine = tiers.placeEngine(req.engine(), req.engineLabels(), limits);
        Optional<String> problem = tiers.imageProblem(engine, image);
        if (problem.isPresent()) {
            throw new SandboxException("Cannot create a container sandbox"
                    + (engine == null ? "" : " on engine " + engine) + ": " + problem.get());
        }
        return new ContainerChoice(image, limits, engine);
    }

    private void undo(Path main, SandboxLayout layout, String branch, boolean newBranch, boolean worktreeAdded) {
        try {
            if (worktreeAdded) {
                worktrees.remove(main, layout.worktree(), true);
            }
            if (newBranch && worktrees.branchExists(main, branch)) {
                worktrees.deleteBranch(main, branch, true);
            }
        } catch (GitException e) {
            LOG.warn("Could not take back a failed sandbox creation in {}: {}", layout.sandboxDir(), e.getMessage());
        }
        deleteTree(layout.sandboxDir());
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("Could not delete {}: {}", dir, e.getMessage());
        }
    }

    private String nextId(String task, Path main) throws PaddockException {
        java.time.LocalDate day = clock.instant().atZone(ZoneOffset.UTC).toLocalDate();
        return SandboxIds.next(task, day, taken(SandboxIds.prefix(task, day), main));
    }

    /**
     * The id of a new fan-out of {@code task}: as a sandbox's ({@link SandboxIds#nextGroup}), with room for
     * {@code room} more characters.
     */
    String nextGroupId(String task, Path main, int room) throws PaddockException {
        java.time.LocalDate day = clock.instant().atZone(ZoneOffset.UTC).toLocalDate();
        String first = SandboxIds.nextGroup(task, day, List.of(), room);
        return SandboxIds.nextGroup(task, day, taken(first.substring(0, first.length() - 3), main), room);
    }

    /** The ids starting with {@code prefix} in the store, and every folder under {@code .worktrees/}. */
    private List<String> taken(String prefix, Path main) throws PaddockException {
        List<String> taken = new ArrayList<>(store.idsStartingWith(prefix));
        Path root = main.resolve(SandboxLayout.ROOT);
        if (Files.isDirectory(root)) {
            try (Stream<Path> dirs = Files.list(root)) {
                dirs.map(p -> p.getFileName().toString()).forEach(taken::add);
            } catch (IOException e) {
                throw new SandboxException("Cannot list " + root + ": " + e.getMessage(), e);
            }
        }
        return taken;
    }

    private String suggestBranch(Path main, String task) throws GitException {
        String suggested = SandboxIds.suggestBranch(task);
        String candidate = suggested;
        for (int n = 2; worktrees.branchExists(main, candidate); n++) {
            candidate = suggested + "-" + n;
        }
        return candidate;
    }

    /** The name an agent's commits carry. */
    public static String agentName(String id) {
        return "Paddock agent " + id;
    }

    /** The e-mail an agent's commits carry ({@code .invalid}: never a real address). */
    public static String agentEmail(String id) {
        return id + "@agents.paddock.invalid";
    }

    /** Writes the state file of a sandbox atomically (for people and tools looking at its folder). */
    /**
     * Writes the sandbox's state file ({@code .worktrees/<id>/sandbox.json}, replaced atomically): what it is
     * for and where it came from, and its health fingerprint once recorded.
     */
    static void writeStateFile(SandboxLayout layout, SandboxRecord r, Optional<Map<String, Object>> fingerprint)
            throws IOException {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("id", r.id());
        state.put("task", r.spec().task());
        state.put("tier", r.spec().tier().id());
        state.put("agent", r.spec().agent());
        state.put("branch", r.workspace().branch());
        state.put("baseBranch", r.workspace().baseBranch());
        state.put("baseCommit", r.workspace().baseCommit());
        state.put("worktree", r.workspace().worktreePath());
        state.put("createdAt", r.createdAt().toString());
        state.put("leaseMs", r.lease().ms());
        fingerprint.ifPresent(fp -> state.put("fingerprint", fp));
        Path tmp = layout.stateFile().resolveSibling("sandbox.json.tmp");
        Files.writeString(tmp, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(state));
        Files.move(
                tmp,
                layout.stateFile(),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static EventDraft step(RepoRecord repo, String id, String kind, String message, Map<String, ?> details) {
        return EventDraft.of(repo.id(), id, kind, message, details);
    }

    static String shortId(String commit) {
        return commit == null ? "" : commit.substring(0, Math.min(8, commit.length()));
    }

    private static String abbreviate(String text) {
        String oneLine = text.replaceAll("\\s+", " ");
        return oneLine.length() > 80 ? oneLine.substring(0, 79) + "…" : oneLine;
    }
}
