package dev.paddock.ui.sandboxes;

import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.status.RepositoryStatus.Sandbox;
import dev.paddock.ui.common.DesktopOpener;
import dev.paddock.ui.common.UiError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;

/**
 * The sandboxes tab: which sandboxes are selected, the row actions (stop, retry, remove, open the
 * folder or a terminal there; {@link RowActions} runs them), their progress and errors, and the details
 * of the selected sandbox. Actions run off the FX thread; properties change on it.
 */
public final class SandboxesViewModel implements AutoCloseable {
    private final ObservableList<Sandbox> rows;
    private final javafx.beans.property.ReadOnlyObjectWrapper<java.util.Map<String, Sandbox>> latestRows =
            new javafx.beans.property.ReadOnlyObjectWrapper<>(java.util.Map.of());
    private final Executor io;
    private final DesktopOpener desktop;
    private final SandboxDetailsViewModel details = new SandboxDetailsViewModel();

    // Properties
    private final ReadOnlyObjectWrapper<SandboxBackend> backend = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<RepoRecord> repository = new ReadOnlyObjectWrapper<>();
    private final ObservableList<String> selectedIds = FXCollections.observableArrayList();
    private final ObservableList<String> selectedIdsView = FXCollections.unmodifiableObservableList(selectedIds);
    private final RowActions actions;
    private final ReadOnlyStringWrapper createdId = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<java.util.Map<String, dev.paddock.container.ContainerMetrics>>
            containerMetrics = new ReadOnlyObjectWrapper<>(java.util.Map.of());
    private final BooleanBinding canStop;
    private final BooleanBinding canRetry;
    private final BooleanBinding canRemove;
    private final BooleanBinding canOpen;
    private final BooleanBinding canCompare;
    private final BooleanBinding canPublish;
    private final BooleanBinding canCreate;
    private Runnable onChanged = () -> {};

    /**
     * @param rows the dashboard's sandbox rows (kept up to date by the dashboard)
     * @param io where the services are called
     * @param desktop opens folders and terminals
     */
    public SandboxesViewModel(ObservableList<Sandbox> rows, Executor io, DesktopOpener desktop) {
        this.rows = rows;
        this.io = io;
        this.desktop = desktop;
        this.actions = new RowActions(io, () -> onChanged.run());
        canStop = selectedMatch(SandboxesViewModel::canStop);
        canRetry = selectedMatch(s -> SandboxState.of(s.state()).canBecome(SandboxState.RETRYING));
        canRemove = Bindings.createBooleanBinding(
                () -> backend.get() != null && !selectedIds.isEmpty(), backend, selectedIds);
        canOpen = Bindings.createBooleanBinding(
                () -> selected().size() == 1 && selected().get(0).worktreePath() != null, selectedIds, rows);
        canCreate = backend.isNotNull().and(repository.isNotNull());
        canCompare = Bindings.createBooleanBinding(
                () -> backend.get() != null
                        && selected().size() == 1
                        && selected().get(0).group() != null,
                backend,
                selectedIds,
                rows);
        canPublish = Bindings.createBooleanBinding(
                () -> backend.get() != null
                        && selected().size() == 1
                        && canPublish(selected().get(0)),
                backend,
                selectedIds,
                rows);
        details.setOnChanged(() -> onChanged.run());
        rows.addListener((ListChangeListener<Sandbox>) c -> showDetails());
        selectedIds.addListener((ListChangeListener<String>) c -> showDetails());
    }

    private BooleanBinding selectedMatch(Predicate<Sandbox> test) {
        return Bindings.createBooleanBinding(
                () -> backend.get() != null && selected().stream().anyMatch(test), backend, selectedIds, rows);
    }

    /** Whether the sandbox has a branch to push: made, and not being removed. */
    private static boolean canPublish(Sandbox s) {
        SandboxState st = SandboxState.of(s.state());
        return st != SandboxState.PENDING && st != SandboxState.CLEANING && st != SandboxState.CLOSED;
    }

    private static boolean canStop(Sandbox s) {
        SandboxState st = SandboxState.of(s.state());
        return st == SandboxState.PENDING || st == SandboxState.RUNNING || st == SandboxState.RETRYING;
    }

    // Properties --------------------------------------------------------------------------------

    /** The rows shown. */
    public ObservableList<Sandbox> rows() {
        return rows;
    }

    /**
     * Pending approval requests by sandbox id (their commands, oldest first): the table shows those sandboxes as
     * waiting for approval. Fed from the approval queue.
     */
    public ReadOnlyObjectProperty<java.util.Map<String, List<String>>> askingProperty() {
        return asking.getReadOnlyProperty();
    }

    /** What the approval queue holds now: the commands each sandbox waits on (FX thread). */
    public void showAsking(java.util.Map<String, List<String>> bySandbox) {
        if (!bySandbox.equals(asking.get())) {
            asking.set(java.util.Map.copyOf(bySandbox));
        }
    }

    private final ReadOnlyObjectWrapper<java.util.Map<String, List<String>>> asking =
            new ReadOnlyObjectWrapper<>(java.util.Map.of());

    /** The details pane of the first selected sandbox. */
    public SandboxDetailsViewModel details() {
        return details;
    }

    /** The ids of the selected sandboxes, in selection order. */
    public ObservableList<String> selectedIds() {
        return selectedIdsView;
    }

    /** The repository shown, or null. */
    public ReadOnlyObjectProperty<RepoRecord> repositoryProperty() {
        return repository.getReadOnlyProperty();
    }

    /** True while an action runs. */
    public ReadOnlyBooleanProperty busyProperty() {
        return actions.busyProperty();
    }

    /** What the running action does ("Stopping x…"), or null. */
    public ReadOnlyStringProperty progressProperty() {
        return actions.progressProperty();
    }

    /** A short note about the last action that succeeded ("Opened xterm in ..."), or null. */
    public ReadOnlyStringProperty noticeProperty() {
        return actions.noticeProperty();
    }

    /** Why the last action failed, or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return actions.errorProperty();
    }

    /**
     * Live CPU and memory of container sandboxes, by sandbox id (a stopped container is an entry with
     * {@code running == false}); empty when there are none.
     */
    public ReadOnlyObjectProperty<java.util.Map<String, dev.paddock.container.ContainerMetrics>>
            containerMetricsProperty() {
        return containerMetrics.getReadOnlyProperty();
    }

    /**
     * The newest rows by sandbox id, whose heartbeat, progress and lease the table shows: {@link #rows()} keeps a row
     * whose heartbeat alone moved ({@link LiveRows}).
     */
    public ReadOnlyObjectProperty<java.util.Map<String, Sandbox>> latestRowsProperty() {
        return latestRows.getReadOnlyProperty();
    }

    /** Tells the newest rows by id (call on the FX thread, before the rows are brought up to date). */
    public void showLatest(java.util.Map<String, Sandbox> newest) {
        latestRows.set(newest);
    }

    /** Shows the figures of {@code source} (the containers tab's snapshot) in the table. */
    public void showContainerMetrics(
            javafx.beans.value.ObservableValue<java.util.Map<String, dev.paddock.container.ContainerMetrics>> source) {
        containerMetrics.bind(source);
    }

    /** The id of the sandbox created last from this tab (the view selects its row when it appears). */
    public ReadOnlyStringProperty createdIdProperty() {
        return createdId.getReadOnlyProperty();
    }

    public BooleanBinding canStopProperty() {
        return canStop;
    }

    public BooleanBinding canRetryProperty() {
        return canRetry;
    }

    public BooleanBinding canRemoveProperty() {
        return canRemove;
    }

    /** Whether exactly one sandbox with a worktree is selected. */
    public BooleanBinding canOpenProperty() {
        return canOpen;
    }

    /** Whether exactly one sandbox is selected and it was made in a fan-out (it has a group to compare). */
    public BooleanBinding canCompareProperty() {
        return canCompare;
    }

    /** Whether one sandbox with a branch is selected: its branch can be pushed, a pull request opened. */
    public BooleanBinding canPublishProperty() {
        return canPublish;
    }

    /** Whether a sandbox can be created (Paddock runs and a repository is open). */
    public BooleanBinding canCreateProperty() {
        return canCreate;
    }

    /** The selected rows (their latest versions), in selection order. */
    public List<Sandbox> selected() {
        List<Sandbox> out = new ArrayList<>();
        for (String id : selectedIds) {
            rows.stream().filter(r -> r.id().equals(id)).findFirst().ifPresent(out::add);
        }
        return out;
    }

    // Commands ----------------------------------------------------------------------------------

    /** Connects to a running Paddock and the repository shown (either may be null). */
    public void connect(SandboxBackend b, RepoRecord repo) {
        backend.set(b);
        details.setBackend(b);
        if (!Objects.equals(repository.get() == null ? null : repository.get().id(), repo == null ? null : repo.id())) {
            selectedIds.clear();
            actions.clear();
        }
        repository.set(repo);
    }

    /** Called after every action that changed sandboxes (the dashboard refreshes). */
    public void setOnChanged(Runnable r) {
        onChanged = r == null ? () -> {} : r;
    }

    /** The view reports the table's selection. */
    public void select(List<String> ids) {
        if (!selectedIds.equals(ids)) {
            selectedIds.setAll(ids);
        }
    }

    /** Clears the note about the last action if it still says {@code text} (the view does, a while after it). */
    public void dismissNotice(String text) {
        actions.dismissNotice(text);
    }

    /** Clears the last error (the close button of the error bar). */
    public void dismissError() {
        actions.dismissError();
    }

    /** A fresh New Sandbox form for the repository shown, or null when none is open. */
    public NewSandboxViewModel newSandbox() {
        SandboxBackend b = backend.get();
        RepoRecord repo = repository.get();
        if (b == null || repo == null) {
            return null;
        }
        return new NewSandboxViewModel(b, repo.path(), repo.baseBranch(), io);
    }

    /** Tells that the New Sandbox dialog created {@code id}: the dashboard refreshes and the row gets selected. */
    public void created(String id) {
        createdId.set(id);
        actions.tell("Created " + id + ".");
        onChanged.run();
    }

    /** Tells that the row of the sandbox created last is selected. */
    public void createdShown() {
        createdId.set(null);
    }

    /** The comparison of the selected sandbox's fan-out (not loaded yet), or null when it cannot be compared. */
    public CompareViewModel compare() {
        SandboxBackend b = backend.get();
        if (b == null || !canCompare.get()) {
            return null;
        }
        Sandbox s = selected().get(0);
        return new CompareViewModel(b, s.group(), io);
    }

    /** Selects the row of sandbox {@code id} once it shows and opens its details (a choice in the Compare view). */
    public void show(String id) {
        details.shownProperty().set(true);
        createdId.set(id);
    }

    /** A removal of the selected sandboxes (plans not loaded yet), or null when none is selected. */
    public RemovalViewModel removal() {
        SandboxBackend b = backend.get();
        if (b == null || selectedIds.isEmpty()) {
            return null;
        }
        return new RemovalViewModel(b, List.copyOf(selectedIds), io);
    }

    /** Tells that a removal dialog finished (the dashboard refreshes). */
    public void removed(List<String> ids) {
        actions.tell(ids.size() == 1 ? "Removed " + ids.get(0) + "." : "Removed " + ids.size() + " sandboxes.");
        onChanged.run();
    }

    /** Stops the selected sandboxes that run (their process trees are killed). */
    public CompletableFuture<Void> stop() {
        List<String> ids = selected().stream()
                .filter(SandboxesViewModel::canStop)
                .map(Sandbox::id)
                .toList();
        return actions.each(
                backend.get(),
                ids,
                "Stopping",
                "Cannot stop",
                (b, id) -> {
                    b.stop(id);
                    return null;
                },
                n -> "Stopped " + n + ".");
    }

    /** Runs the selected sandboxes that failed, timed out, are done or wait for a person again. */
    public CompletableFuture<Void> retry() {
        List<String> ids = selected().stream()
                .filter(s -> SandboxState.of(s.state()).canBecome(SandboxState.RETRYING))
                .map(Sandbox::id)
                .toList();
        return actions.each(
                backend.get(),
                ids,
                "Retrying",
                "Cannot retry",
                (b, id) -> {
                    b.retry(id);
                    return null;
                },
                n -> "Retrying " + n + ".");
    }

    /** Pushes the selected sandbox's branch to its repository's remote; the notice says where it went. */
    public CompletableFuture<Void> push() {
        return actions.each(
                backend.get(), publishable(), "Pushing", "Cannot push", SandboxBackend::push, n -> "Pushed " + n + ".");
    }

    /** Pushes the selected sandbox's branch and opens a pull request with gh; the notice has its URL. */
    public CompletableFuture<Void> openPullRequest() {
        return actions.each(
                backend.get(),
                publishable(),
                "Opening a pull request for",
                "Cannot open a pull request for",
                SandboxBackend::openPullRequest,
                n -> "Opened a pull request for " + n + ".");
    }

    private List<String> publishable() {
        return canPublish.get() ? List.of(selected().get(0).id()) : List.of();
    }

    /** Opens the selected sandbox's worktree in the file manager. */
    public CompletableFuture<Void> openFolder() {
        return open(
                "Cannot open the folder", desktop::openFolder, (tool, dir) -> "Opened " + dir + " with " + tool + ".");
    }

    /** Opens a terminal in the selected sandbox's worktree. */
    public CompletableFuture<Void> openTerminal() {
        return open(
                "Cannot open a terminal", desktop::openTerminal, (tool, dir) -> "Opened " + tool + " in " + dir + ".");
    }

    /** Runs {@code opener} on the worktree of the one selected sandbox (nothing when there is none). */
    private CompletableFuture<Void> open(
            String failure, RowActions.Opener opener, java.util.function.BiFunction<String, Path, String> said) {
        List<Sandbox> sel = selected();
        if (sel.size() != 1 || sel.get(0).worktreePath() == null) {
            return CompletableFuture.completedFuture(null);
        }
        return actions.open(Path.of(sel.get(0).worktreePath()), failure, opener, said);
    }

    private void showDetails() {
        String first = selectedIds.isEmpty() ? null : selectedIds.get(0);
        Sandbox row = first == null
                ? null
                : rows.stream().filter(r -> r.id().equals(first)).findFirst().orElse(null);
        details.show(row);
    }

    @Override
    public void close() {
        details.close();
    }
}
