package dev.paddock.ui.sandboxes;

import dev.paddock.sandbox.AgentCounts;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxIds;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.ui.common.UiError;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.util.Duration;

/**
 * The New Sandbox dialog's state: what the person typed, the branch name suggested from the task (it
 * follows the task until the person edits it), the branch name checked with git as they type
 * (debounced, off the FX thread), which tiers this machine can run, and the creation itself (off the
 * FX thread; a failure keeps everything typed so it can be fixed and tried again). Use on the FX thread.
 */
public final class NewSandboxViewModel {
    /** Wait after the last keystroke before the branch name is checked, in ms. */
    static final long CHECK_DELAY_MS = 250;
    /** Where the branch name check stands. */
    public enum BranchState {
        CHECKING,
        VALID,
        EXISTS,
        INVALID
    }

    /** The inline message under the branch field. */
    public record BranchCheck(BranchState state, String message) {}

    private final SandboxBackend backend;
    private final Path repository;
    private final Executor io;

    // Properties (edited by the view)
    private final StringProperty task = new SimpleStringProperty("");
    private final StringProperty command = new SimpleStringProperty("");
    private final StringProperty baseBranch = new SimpleStringProperty();
    private final StringProperty branch = new SimpleStringProperty("");
    private final ObjectProperty<Tier> tier = new SimpleObjectProperty<>(Tier.WORKTREE);
    private final ObjectProperty<Integer> leaseMinutes = new SimpleObjectProperty<>(15);
    private final ObjectProperty<Integer> retries = new SimpleObjectProperty<>(2);
    private final ObjectProperty<Integer> count = new SimpleObjectProperty<>(1);
    private final BooleanProperty network = new SimpleBooleanProperty(false);
    // Properties (read-only)
    private final ObservableList<String> branches = FXCollections.observableArrayList();
    private final ObservableList<String> branchesView = FXCollections.unmodifiableObservableList(branches);
    private final ReadOnlyBooleanWrapper branchFollowsTask = new ReadOnlyBooleanWrapper(true);
    private final ReadOnlyObjectWrapper<BranchCheck> branchCheck = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper namespaceProblem =
            new ReadOnlyStringWrapper("Checking whether bubblewrap works here…");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<SandboxRecord> created = new ReadOnlyObjectWrapper<>();
    private final BooleanBinding canCreate;
    private final BooleanBinding edited;
    // Lease and retries as loaded (the settings' defaults): a spinner moved from them is an edit.
    private int loadedLeaseMinutes = 15;
    private int loadedRetries = 2;

    private final AgentChoiceViewModel agents;
    private final ContainerFormViewModel container;

    private final PauseTransition checkLater = new PauseTransition(Duration.millis(CHECK_DELAY_MS));
    private boolean suggesting;
    private long checkSeq;

    /**
     * @param repository main worktree of the repository the sandbox is made in
     * @param defaultBase the repository's base branch, preselected
     * @param io where git and the store are called (tests may pass {@code Runnable::run})
     */
    public NewSandboxViewModel(SandboxBackend backend, Path repository, String defaultBase, Executor io) {
        this.backend = backend;
        this.repository = repository;
        this.io = io;
        this.agents = new AgentChoiceViewModel(backend, io);
        this.container = new ContainerFormViewModel(tier);
        baseBranch.set(defaultBase);
        if (defaultBase != null) {
            branches.add(defaultBase);
        }
        task.addListener((o, a, t) -> followTask());
        branch.addListener((o, a, b) -> {
            if (!suggesting) {
                branchFollowsTask.set(false);
            }
            scheduleCheck();
        });
        baseBranch.addListener((o, a, b) -> scheduleCheck());
        count.addListener((o, a, b) -> scheduleCheck());
        for (javafx.beans.Observable d : agents.dependencies()) {
            d.addListener(x -> scheduleCheck());
        }
        agents.drive(tier, namespaceProblem);
        tier.addListener((o, a, t) -> {
            if (t == Tier.WORKTREE) {
                network.set(false);
            }
        });
        checkLater.setOnFinished(e -> checkBranch());
        canCreate = Bindings.createBooleanBinding(
                () -> !busy.get()
                        && !isBlank(task.get())
                        && (!agents.isCustom() || !isBlank(command.get()))
                        && agents.problem() == null
                        && (branchCheck.get() == null || branchCheck.get().state() != BranchState.INVALID)
                        && container.formProblemProperty().get() == null,
                agents.dependencies(busy, task, command, branchCheck, container.formProblemProperty()));
        edited = Bindings.createBooleanBinding(
                this::hasEdits,
                agents.dependencies(container.dependencies(
                        task, command, branch, branchFollowsTask, leaseMinutes, retries, count)));

        followTask();
    }

    // Properties --------------------------------------------------------------------------------

    /** What the agent is asked to do (multi-line). */
    public StringProperty taskProperty() {
        return task;
    }

    /** The custom agent's command line, run with {@code /bin/sh -c} in the worktree (not sent for a preset). */
    public StringProperty commandProperty() {
        return command;
    }

    /** The branch the sandbox starts from. */
    public StringProperty baseBranchProperty() {
        return baseBranch;
    }

    /** The sandbox's own branch. Suggested from the task until the person edits it. */
    public StringProperty branchProperty() {
        return branch;
    }

    public ObjectProperty<Tier> tierProperty() {
        return tier;
    }

    /** Lease length in minutes: a running agent with no heartbeat for this long times out. */
    public ObjectProperty<Integer> leaseMinutesProperty() {
        return leaseMinutes;
    }

    /** Automatic retries after a failure or timeout before a person is asked. */
    public ObjectProperty<Integer> retriesProperty() {
        return retries;
    }

    /**
     * How many sandboxes of the task to make at once, 1 (the default) to {@link AgentCounts#MAX_COUNT}: more than one
     * is a fan-out, each on a branch of its own ({@code <branch>-<agent>-<n>}), all in one group.
     */
    public ObjectProperty<Integer> countProperty() {
        return count;
    }

    /** Whether the namespace tier gives the agent a network. */
    public BooleanProperty networkProperty() {
        return network;
    }

    /** The container tier's part: image, limits, and whether a Docker engine answers. */
    public ContainerFormViewModel container() {
        return container;
    }

    /** The repository's local branches (the base branch choices), sorted. */
    public ObservableList<String> branches() {
        return branchesView;
    }

    /** Whether the branch name still follows the task. */
    public ReadOnlyBooleanProperty branchFollowsTaskProperty() {
        return branchFollowsTask.getReadOnlyProperty();
    }

    /** The result of checking the branch name, or null before the first check. */
    public ReadOnlyObjectProperty<BranchCheck> branchCheckProperty() {
        return branchCheck.getReadOnlyProperty();
    }

    /** Why the namespace tier cannot be used here, or null when it can. */
    public ReadOnlyStringProperty namespaceProblemProperty() {
        return namespaceProblem.getReadOnlyProperty();
    }

    /** True while the sandbox is being created. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Why the last attempt to create failed, or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** The sandbox created, once it is. */
    public ReadOnlyObjectProperty<SandboxRecord> createdProperty() {
        return created.getReadOnlyProperty();
    }

    /** Whether Create can be pressed: task and command given, branch name not refused, not busy. */
    public BooleanBinding canCreateProperty() {
        return canCreate;
    }

    /**
     * Whether the form holds something the person typed that closing would lose: a task, a command, a branch
     * name of their own, an image other than the repository's, or limits, lease or retries changed from their
     * defaults. Choices (tier, base branch, network) do not count: they are one click to make again.
     */
    public BooleanBinding editedProperty() {
        return edited;
    }

    private boolean hasEdits() {
        return !isBlank(task.get())
                || !isBlank(command.get())
                || (!branchFollowsTask.get() && !isBlank(branch.get()))
                || container.edited()
                || !java.util.Objects.equals(leaseMinutes.get(), loadedLeaseMinutes)
                || !java.util.Objects.equals(retries.get(), loadedRetries)
                || sandboxes() != 1
                || agents.edited();
    }

    /** The agent part: preset, model, the other agents of a fan-out, and where the chosen one's program is. */
    public AgentChoiceViewModel agent() {
        return agents;
    }

    // Commands ----------------------------------------------------------------------------------

    /** Loads the choices (branches, defaults, tier availability, the agent's program) in the background. */
    public CompletableFuture<Void> load() {
        agents.lookUp();
        CompletableFuture<Void> done = new CompletableFuture<>();
        CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return new Choices(
                                        backend.localBranches(repository),
                                        backend.defaults(),
                                        backend.tierUnavailable(Tier.NAMESPACE),
                                        backend.tierUnavailable(Tier.CONTAINER),
                                        backend.containerImage(repository),
                                        null);
                            } catch (Exception e) {
                                return new Choices(
                                        List.of(), null, Optional.empty(), Optional.empty(), Optional.empty(), e);
                            }
                        },
                        io)
                .thenAccept(c -> Platform.runLater(() -> {
                    apply(c);
                    done.complete(null);
                }));
        return done;
    }

    private record Choices(
            List<String> branches,
            SandboxBackend.Defaults defaults,
            Optional<String> namespace,
            Optional<String> container,
            Optional<String> image,
            Exception error) {}

    private void apply(Choices c) {
        if (c.error() != null) {
            error.set(UiError.of("Cannot read the repository's branches", c.error()));
            namespaceProblem.set(null);
            container.unavailable("Cannot tell whether a Docker engine answers: the repository could not be read.");
            return;
        }
        String base = baseBranch.get();
        branches.setAll(c.branches());
        if (base != null && !branches.contains(base)) {
            branches.add(0, base);
        }
        baseBranch.set(base);
        loadedLeaseMinutes = (int) Math.max(1, c.defaults().leaseMs() / 60_000);
        loadedRetries = c.defaults().maxRetries();
        leaseMinutes.set(loadedLeaseMinutes);
        retries.set(loadedRetries);
        namespaceProblem.set(c.namespace().orElse(null));
        if (tier.get() == Tier.NAMESPACE && c.namespace().isPresent()) {
            agents.setTier(Tier.WORKTREE);
        }
        container.loaded(
                c.container().map(NewSandboxViewModel::sentence).orElse(null),
                c.image().orElse(null));
        if (tier.get() == Tier.CONTAINER && c.container().isPresent()) {
            agents.setTier(Tier.WORKTREE);
        }
        followTask();
        scheduleCheck();
    }

    /**
     * Creates the sandbox (or with a count above 1, the fan-out) off the FX thread; on success
     * {@link #createdProperty()} is set (a fan-out's first sandbox).
     */
    public CompletableFuture<SandboxRecord> create() {
        CompletableFuture<SandboxRecord> result = new CompletableFuture<>();
        if (!canCreate.get()) {
            result.cancel(false);
            return result;
        }
        NewSandbox request = request();
        AgentCounts counts = agents.counts(sandboxes());
        busy.set(true);
        error.set(null);
        CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return counts.total() == 1
                                        ? backend.create(request)
                                        : backend.createGroup(request, counts)
                                                .sandboxes()
                                                .get(0);
                            } catch (Exception e) {
                                throw new java.util.concurrent.CompletionException(e);
                            }
                        },
                        io)
                .whenComplete((record, e) -> Platform.runLater(() -> {
                    busy.set(false);
                    if (e != null) {
                        Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                                ? e.getCause()
                                : e;
                        error.set(UiError.of(cause));
                        result.completeExceptionally(cause);
                    } else {
                        created.set(record);
                        result.complete(record);
                    }
                }));
        return result;
    }

    /** Whether Create makes more than one sandbox (a fan-out, in one group). */
    boolean fanOut() {
        return agents.counts(sandboxes()).total() > 1;
    }

    /** How many sandboxes of the chosen agent Create makes: the count, within its bounds. */
    int sandboxes() {
        Integer n = count.get();
        return n == null ? 1 : Math.max(1, Math.min(AgentCounts.MAX_COUNT, n));
    }

    /**
     * The request the form describes now (for a fan-out, what its sandboxes share; a branch that follows the task is
     * then left to Paddock, which picks a base none of whose branches exists).
     */
    NewSandbox request() {
        Tier t = tier.get() == null ? Tier.WORKTREE : tier.get();
        boolean custom = agents.isCustom();
        String b = branch.get() == null || branch.get().isBlank() || (fanOut() && branchFollowsTask.get())
                ? null
                : branch.get().strip();
        Integer minutes = leaseMinutes.get();
        NewSandbox.Builder r = NewSandbox.builder()
                .repository(repository)
                .task(task.get().strip())
                .agent(agents.agentProperty().get())
                .model(agents.requestedModel())
                .agentCommand(custom ? command.get().strip() : null)
                // Several agents on the tier nobody picked: each gets its own default, as with --agents.
                .tier(agents.severalAgents() && !agents.tierPicked() ? null : t)
                .branch(b)
                .baseBranch(baseBranch.get())
                .leaseMs(minutes == null ? null : minutes * 60_000L)
                .maxRetries(retries.get())
                .network(t != Tier.WORKTREE && network.get());
        if (t == Tier.CONTAINER) {
            r.image(container.image()).limits(container.limits());
        }
        return r.build();
    }

    private static String sentence(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    // Branch suggestion and check ---------------------------------------------------------------------

    private void followTask() {
        if (!branchFollowsTask.get()) {
            return;
        }
        suggesting = true;
        try {
            branch.set(isBlank(task.get()) ? "" : BranchVerdicts.free(SandboxIds.suggestBranch(task.get()), branches));
        } finally {
            suggesting = false;
        }
    }

    private void scheduleCheck() {
        checkSeq++;
        String name = branch.get();
        if (isBlank(name)) {
            checkLater.stop();
            branchCheck.set(
                    isBlank(task.get())
                            ? null
                            : new BranchCheck(BranchState.VALID, "A branch named after the task will be created."));
            return;
        }
        branchCheck.set(new BranchCheck(BranchState.CHECKING, "Checking the name…"));
        checkLater.playFromStart();
    }

    private void checkBranch() {
        long seq = checkSeq;
        AgentCounts counts = agents.counts(sandboxes());
        String name = branch.get();
        String base = baseBranch.get();
        List<String> known = List.copyOf(branches);
        io.execute(() -> {
            BranchCheck r = BranchVerdicts.judge(backend, repository, name, base, known, counts);
            Platform.runLater(() -> {
                if (seq == checkSeq) {
                    branchCheck.set(r);
                }
            });
        });
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
