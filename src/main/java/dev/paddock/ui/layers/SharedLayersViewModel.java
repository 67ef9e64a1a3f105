package dev.paddock.ui.layers;

import dev.paddock.layer.SharedLayers;
import dev.paddock.ui.common.Formats;
import dev.paddock.ui.common.UiError;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Shared layers dialog's state: the folders a repository's namespace sandboxes share (typed one per line or
 * comma-separated), the setup command that builds them (blank: copy them from the main checkout), the current
 * generation, and the commands Load, Save and Refresh. Refresh builds a new generation from the stored settings, so
 * it waits until the edits are saved; its steps are listed as the backend reports them. Use on the FX thread; the
 * backend is called on {@code io}.
 */
public final class SharedLayersViewModel {
    private final Path repository;
    private final SharedLayersBackend backend;
    private final Executor io;
    private final Supplier<Instant> clock;

    private final StringProperty folders = new SimpleStringProperty("");
    private final StringProperty setupCommand = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<SharedLayers.Status> saved = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper notice = new ReadOnlyStringWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper(true);
    private final ReadOnlyBooleanWrapper refreshing = new ReadOnlyBooleanWrapper(false);
    private final ObservableList<String> steps = FXCollections.observableArrayList();
    private final BooleanBinding unsaved;
    private final BooleanBinding canSave;
    private final BooleanBinding canRefresh;
    private final StringBinding generation;

    /**
     * @param repository the repository whose shared layers are shown (any folder inside it)
     * @param backend reads and changes them
     * @param io where the backend is called (tests may pass {@code Runnable::run})
     */
    public SharedLayersViewModel(Path repository, SharedLayersBackend backend, Executor io) {
        this(repository, backend, io, Instant::now);
    }

    SharedLayersViewModel(Path repository, SharedLayersBackend backend, Executor io, Supplier<Instant> clock) {
        this.repository = repository.toAbsolutePath().normalize();
        this.backend = Objects.requireNonNull(backend, "backend");
        this.io = Objects.requireNonNull(io, "io");
        this.clock = clock;
        unsaved = Bindings.createBooleanBinding(this::differs, saved, folders, setupCommand);
        canSave = Bindings.createBooleanBinding(
                () -> !busy.get() && !refreshing.get() && saved.get() != null && unsaved.get(),
                busy,
                refreshing,
                saved,
                unsaved);
        canRefresh = Bindings.createBooleanBinding(
                () -> !busy.get()
                        && !refreshing.get()
                        && saved.get() != null
                        && !saved.get().folders().isEmpty()
                        && !unsaved.get(),
                busy,
                refreshing,
                saved,
                unsaved);
        generation = Bindings.createStringBinding(() -> generationText(saved.get(), clock.get()), saved);
    }

    // Properties --------------------------------------------------------------------------------

    /** The repository whose shared layers these are (absolute). */
    public Path repository() {
        return repository;
    }

    /** The repository's folder name, for the title. */
    public String repositoryName() {
        Path name = repository.getFileName();
        return name == null ? repository.toString() : name.toString();
    }

    /** The shared folders as typed: one per line, or separated by commas. */
    public StringProperty foldersProperty() {
        return folders;
    }

    /** The setup command as typed; blank: the folders are copied from the main checkout. */
    public StringProperty setupCommandProperty() {
        return setupCommand;
    }

    /** What is stored, as last loaded, saved or refreshed; null until loaded. */
    public ReadOnlyObjectProperty<SharedLayers.Status> savedProperty() {
        return saved.getReadOnlyProperty();
    }

    /** The current generation in words ("Generation 3, built 14:03:07", "None built yet ..."). */
    public StringBinding generationProperty() {
        return generation;
    }

    /** Why the last load, save or refresh failed, or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** What the last save or refresh did, or null. */
    public ReadOnlyStringProperty noticeProperty() {
        return notice.getReadOnlyProperty();
    }

    /** True while the settings are loaded or saved. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** True while a refresh runs. */
    public ReadOnlyBooleanProperty refreshingProperty() {
        return refreshing.getReadOnlyProperty();
    }

    /** The steps of the last refresh, as the backend reported them. */
    public ObservableList<String> steps() {
        return steps;
    }

    /** Whether a field differs from what is stored. */
    public BooleanBinding unsavedProperty() {
        return unsaved;
    }

    /** Whether Save can be pressed: loaded, nothing running, something changed. */
    public BooleanBinding canSaveProperty() {
        return canSave;
    }

    /** Whether Refresh can be pressed: loaded, nothing running, some folder stored and no edit unsaved. */
    public BooleanBinding canRefreshProperty() {
        return canRefresh;
    }

    // Commands ----------------------------------------------------------------------------------

    /** Reads what the repository shares on {@code io} and shows it; a failure is shown in {@link #errorProperty}. */
    public CompletableFuture<SharedLayers.Status> load() {
        return call(busy, () -> backend.status(repository), "Cannot read the shared layers of " + repository, s -> {
            show(s);
            return null;
        });
    }

    /**
     * Stores the folders and the setup command (on {@code io}); the fields then show them as stored. When the
     * backend refuses, its message is shown and nothing changed.
     *
     * @throws IllegalStateException when Save cannot be pressed
     */
    public CompletableFuture<SharedLayers.Status> save() {
        if (!canSave.get()) {
            throw new IllegalStateException("nothing to save");
        }
        steps.clear(); // they told how the stored settings were built
        List<String> list = parseFolders(folders.get());
        String cmd = setupCommand.get() == null || setupCommand.get().isBlank()
                ? null
                : setupCommand.get().strip();
        return call(
                busy,
                () -> backend.configure(repository, list, cmd),
                "Cannot save the shared layers of " + repository,
                s -> {
                    show(s);
                    return s.folders().isEmpty()
                            ? "Saved: the sandboxes share no folders."
                            : "Saved. Refresh the shared layer to build a generation with these settings.";
                });
    }

    /**
     * Builds a new generation on {@code io} (seconds to minutes), listing its steps in {@link #steps()} as they come.
     *
     * @throws IllegalStateException when Refresh cannot be pressed
     */
    public CompletableFuture<SharedLayers.Status> refresh() {
        if (!canRefresh.get()) {
            throw new IllegalStateException("nothing to refresh, edits unsaved, or busy");
        }
        steps.clear();
        return call(
                refreshing,
                () -> backend.refresh(repository, step -> Platform.runLater(() -> steps.add(step))),
                "Cannot refresh the shared layer of " + repository,
                s -> {
                    show(s);
                    return "Generation " + s.generation() + " is current: sandboxes started from now on see it.";
                });
    }

    private interface Work {
        SharedLayers.Status run() throws Exception;
    }

    /** Shows a result and says what was done (null: nothing to say). */
    private interface Done {
        String apply(SharedLayers.Status s);
    }

    private CompletableFuture<SharedLayers.Status> call(
            ReadOnlyBooleanWrapper running, Work work, String doing, Done done) {
        CompletableFuture<SharedLayers.Status> result = new CompletableFuture<>();
        running.set(true);
        error.set(null);
        notice.set(null);
        io.execute(() -> {
            try {
                SharedLayers.Status s = work.run();
                Platform.runLater(() -> {
                    notice.set(done.apply(s));
                    running.set(false);
                    result.complete(s);
                });
            } catch (Exception e) {
                Platform.runLater(() -> {
                    running.set(false);
                    error.set(UiError.of(doing, e));
                    result.completeExceptionally(e);
                });
            }
        });
        return result;
    }

    private void show(SharedLayers.Status s) {
        folders.set(String.join("\n", s.folders()));
        setupCommand.set(s.setupCommand() == null ? "" : s.setupCommand());
        saved.set(s);
    }

    private boolean differs() {
        SharedLayers.Status s = saved.get();
        if (s == null) {
            return false;
        }
        String cmd = setupCommand.get() == null ? "" : setupCommand.get().strip();
        return !parseFolders(folders.get()).equals(s.folders())
                || !cmd.equals(s.setupCommand() == null ? "" : s.setupCommand());
    }

    // Text --------------------------------------------------------------------------------------

    /** The folders typed: split at line ends and commas, each stripped, blanks dropped, in order. */
    static List<String> parseFolders(String text) {
        List<String> out = new ArrayList<>();
        if (text == null) {
            return out;
        }
        for (String part : text.split("[,\\r\\n]+")) {
            String f = part.strip();
            if (!f.isEmpty()) {
                out.add(f);
            }
        }
        return out;
    }

    /** The generation in words. */
    static String generationText(SharedLayers.Status s, Instant now) {
        if (s == null) {
            return "";
        }
        if (s.generation() == 0) {
            return s.folders().isEmpty()
                    ? "None: nothing is shared."
                    : "None built yet: until a refresh, sandboxes use their own folders.";
        }
        if (s.builtAt() == null) {
            return "Generation " + s.generation();
        }
        // The age only once it is hours: a dialog left open would otherwise show "12 s ago" for minutes.
        boolean old = java.time.Duration.between(s.builtAt(), now).toHours() >= 1;
        return "Generation " + s.generation() + ", built " + Formats.clock(s.builtAt(), now)
                + (old ? " (" + Formats.ago(s.builtAt(), now) + ")" : "");
    }
}
