package dev.paddock.ui.diff;

import dev.paddock.common.Threads;
import dev.paddock.diff.CommitSummary;
import dev.paddock.diff.DiffOptions;
import dev.paddock.diff.FileChange;
import dev.paddock.diff.FilePatch;
import dev.paddock.diff.SandboxDiff;
import dev.paddock.ui.common.UiError;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import javafx.application.Platform;
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
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The diff view's state: one sandbox's change (its files, its commits), the file shown, how (unified or side by
 * side, whitespace counted or not, the whole change or one commit), and the comments. Every read of the backend and
 * every document is made on one thread of its own ({@code diff-view}); results reach the FX thread in one step each,
 * and a result that a newer choice made stale is dropped.
 */
public final class DiffViewModel implements AutoCloseable {
    /** How a file is shown. */
    public enum Mode {
        UNIFIED,
        SIDE_BY_SIDE
    }

    /** What the code pane shows: unified alone, or left and right. */
    record Shown(FileChange file, DiffDocument unified, DiffDocument left, DiffDocument right) {}

    private final String nothing;
    private final DiffBackend backend;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(Threads.daemon("diff-view"));
    private final AtomicLong generation = new AtomicLong();
    private final ReadOnlyObjectWrapper<SandboxDiff> diff = new ReadOnlyObjectWrapper<>();
    private final ObservableList<FileChange> files = FXCollections.observableArrayList();
    private final ObservableList<CommitSummary> commits = FXCollections.observableArrayList();
    private final ObservableList<DiffBackend.Comment> comments = FXCollections.observableArrayList();
    private final ObjectProperty<FileChange> selected = new SimpleObjectProperty<>();
    private final ObjectProperty<Mode> mode = new SimpleObjectProperty<>(Mode.UNIFIED);
    private final BooleanProperty ignoreWhitespace = new SimpleBooleanProperty();
    private final ObjectProperty<String> commit = new SimpleObjectProperty<>();
    private final ReadOnlyObjectWrapper<Shown> shown = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private String sandboxId;
    private FilePatch patch;
    /** Set while reload() selects the file it read already (FX thread). */
    private boolean opening;
    /** Set while refreshIfChanged() reads (FX thread). */
    private boolean checking;

    public DiffViewModel(DiffBackend backend) {
        this(backend, "No changes against the base");
    }

    /**
     * @param nothing what the summary says when the diff lists no file (a checkpoint's diff is not against the
     *     base)
     */
    public DiffViewModel(DiffBackend backend, String nothing) {
        this.backend = backend;
        this.nothing = nothing;
        selected.addListener((o, a, f) -> loadFile());
        mode.addListener((o, a, m) -> render());
        ignoreWhitespace.addListener((o, a, b) -> reload());
        commit.addListener((o, a, c) -> reload());
    }

    /** Shows the change of {@code id} (null: nothing). */
    public void open(String id) {
        open(id, null);
    }

    /** Shows the change of {@code id} (null: nothing) on its file {@code path} (null or not changed: the first). */
    public void open(String id, String path) {
        if (Objects.equals(id, sandboxId) && diff.get() != null) {
            return;
        }
        sandboxId = id;
        commit.set(null);
        load(path);
    }

    /**
     * Reads the change again (the agent may have written more), keeping the file shown when it is still there. The
     * list and the file it opens on are read in one step and reach the screen in one pulse.
     */
    public void reload() {
        load(selected.get() == null ? null : selected.get().path());
    }

    /**
     * Reads the change again in the background, and shows it only when it is not the one shown: the worktree's state
     * or the branch's commits moved. A quiet check for a view kept live (nothing shows while it reads, and the file
     * shown keeps its place when nothing moved).
     */
    public void refreshIfChanged() {
        String id = sandboxId;
        SandboxDiff before = diff.get();
        if (id == null || before == null || loading.get() || checking) {
            return;
        }
        checking = true;
        long gen = generation.get();
        DiffOptions o = options();
        worker.execute(() -> {
            SandboxDiff d = null;
            try {
                d = backend.diff(id, o);
            } catch (Exception | LinkageError e) {
                // the next reload says what is wrong
            }
            SandboxDiff now = d;
            Platform.runLater(() -> {
                checking = false;
                boolean moved = now != null
                        && (!Objects.equals(now.snapshot(), before.snapshot())
                                || !now.commits().equals(before.commits()));
                if (moved && generation.get() == gen && diff.get() == before) {
                    reload();
                }
            });
        });
    }

    private void load(String keep) {
        long gen = generation.incrementAndGet();
        String id = sandboxId;
        if (id == null) {
            apply(gen, null, List.of(), List.of());
            return;
        }
        loading.set(true);
        DiffOptions o = options();
        Mode m = mode.get();
        worker.execute(() -> {
            try {
                SandboxDiff d = backend.diff(id, o);
                List<FileChange> ordered = FileTree.inTreeOrder(d.files());
                List<DiffBackend.Comment> c = backend.comments(id);
                FileChange first = ordered.stream()
                        .filter(f -> f.path().equals(keep))
                        .findFirst()
                        .orElse(ordered.isEmpty() ? null : ordered.get(0));
                FilePatch p = null;
                Shown s = null;
                UiError fileError = null;
                if (first != null) {
                    try {
                        p = backend.file(id, first.path(), o.at(d.snapshot()));
                        s = build(p, m, c);
                    } catch (Exception | LinkageError e) {
                        fileError = UiError.of("Could not read " + first.path(), e);
                    }
                }
                FilePatch patchRead = p;
                Shown shownRead = s;
                UiError failed = fileError;
                Platform.runLater(() -> {
                    if (generation.get() == gen) {
                        apply(gen, d, ordered, c);
                        opening = true;
                        try {
                            selected.set(first);
                        } finally {
                            opening = false;
                        }
                        if (first != null) {
                            patch = patchRead;
                            shown.set(shownRead);
                            loading.set(false);
                            error.set(failed);
                        }
                    }
                });
            } catch (Exception | LinkageError e) {
                fail(gen, "Could not read the change of " + id, e);
            }
        });
    }

    private void apply(long gen, SandboxDiff d, List<FileChange> ordered, List<DiffBackend.Comment> c) {
        diff.set(d);
        files.setAll(ordered);
        if (commit.get() == null) {
            commits.setAll(d == null ? List.of() : d.commits());
        }
        comments.setAll(c);
        error.set(null);
        message.set(d == null ? "" : summary(d, nothing));
        if (d == null || d.files().isEmpty()) {
            loading.set(false);
            shown.set(null);
        }
    }

    /** "12 files · +340 −25", or {@code nothing} when it lists none. */
    static String summary(SandboxDiff d, String nothing) {
        int n = d.files().size();
        return n == 0 ? nothing : n + (n == 1 ? " file" : " files") + " · +" + d.totalAdded() + " −" + d.totalDeleted();
    }

    private void loadFile() {
        if (opening) {
            return; // reload() shows the file it read with the list
        }
        long gen = generation.incrementAndGet();
        FileChange f = selected.get();
        String id = sandboxId;
        if (f == null || id == null) {
            shown.set(null);
            return;
        }
        loading.set(true);
        SandboxDiff listed = diff.get();
        DiffOptions o = listed == null ? options() : options().at(listed.snapshot());
        Mode m = mode.get();
        List<DiffBackend.Comment> c = List.copyOf(comments);
        worker.execute(() -> {
            try {
                FilePatch p = backend.file(id, f.path(), o);
                Shown s = build(p, m, c);
                Platform.runLater(() -> {
                    if (generation.get() == gen) {
                        patch = p;
                        shown.set(s);
                        loading.set(false);
                    }
                });
            } catch (Exception | LinkageError e) {
                fail(gen, "Could not read " + f.path(), e);
            }
        });
    }

    /** Builds the documents of the patch shown again (another mode, a new comment). */
    private void render() {
        FilePatch p = patch;
        if (p == null) {
            return;
        }
        long gen = generation.incrementAndGet();
        Mode m = mode.get();
        List<DiffBackend.Comment> c = List.copyOf(comments);
        loading.set(true);
        worker.execute(() -> {
            try {
                Shown s = build(p, m, c);
                Platform.runLater(() -> {
                    if (generation.get() == gen) {
                        shown.set(s);
                        loading.set(false);
                    }
                });
            } catch (RuntimeException | LinkageError e) {
                fail(gen, "Could not show " + p.file().path(), e);
            }
        });
    }

    static Shown build(FilePatch p, Mode m, List<DiffBackend.Comment> all) {
        List<DiffDocument.Note> notes = all.stream()
                .filter(c -> p.file().path().equals(c.path()) && c.line() > 0)
                .map(c -> new DiffDocument.Note(c.oldSide(), c.line(), noteText(c)))
                .toList();
        if (m == Mode.UNIFIED) {
            return new Shown(p.file(), DiffDocument.unified(p, notes), null, null);
        }
        DiffDocument[] sides = DiffDocument.sideBySide(p, notes);
        return new Shown(p.file(), null, sides[0], sides[1]);
    }

    private static String noteText(DiffBackend.Comment c) {
        return "» " + c.author() + (c.sent() ? " (sent)" : "") + ": " + c.body();
    }

    /**
     * Adds a comment on {@code row} of the file shown (or on the whole change when {@code row} is null), then shows
     * it; {@code done} hears the outcome on the FX thread (null: stored).
     */
    public void comment(DiffDocument.Row row, String body, java.util.function.Consumer<UiError> done) {
        FileChange f = selected.get();
        String id = sandboxId;
        if (id == null || body == null || body.isBlank()) {
            return;
        }
        boolean oldSide = row != null && row.kind() == DiffDocument.Kind.DELETED;
        String path = row == null || f == null ? null : f.path();
        int line = row == null ? 0 : oldSide ? row.oldLine() : row.newLine();
        worker.execute(() -> {
            try {
                backend.comment(id, path, line, oldSide, body.strip());
                List<DiffBackend.Comment> c = backend.comments(id);
                Platform.runLater(() -> {
                    comments.setAll(c);
                    render();
                    done.accept(null);
                });
            } catch (Exception | LinkageError e) {
                Platform.runLater(() -> done.accept(UiError.of("Could not store the comment", e)));
            }
        });
    }

    private void fail(long gen, String doing, Throwable e) {
        Platform.runLater(() -> {
            if (generation.get() == gen) {
                loading.set(false);
                error.set(UiError.of(doing, e));
            }
        });
    }

    private DiffOptions options() {
        return new DiffOptions(ignoreWhitespace.get(), commit.get());
    }

    /** Selects the next (or previous) file; false at the end of the list. */
    public boolean step(boolean forward) {
        int i = files.indexOf(selected.get());
        int next = forward ? i + 1 : i - 1;
        if (next < 0 || next >= files.size()) {
            return false;
        }
        selected.set(files.get(next));
        return true;
    }

    public String sandboxId() {
        return sandboxId;
    }

    public ReadOnlyObjectProperty<SandboxDiff> diffProperty() {
        return diff.getReadOnlyProperty();
    }

    /** The files of the change in the order the file tree shows them (folders first). */
    public ObservableList<FileChange> files() {
        return files;
    }

    public ObservableList<CommitSummary> commits() {
        return commits;
    }

    public ObservableList<DiffBackend.Comment> comments() {
        return comments;
    }

    public ObjectProperty<FileChange> selectedProperty() {
        return selected;
    }

    public ObjectProperty<Mode> modeProperty() {
        return mode;
    }

    public BooleanProperty ignoreWhitespaceProperty() {
        return ignoreWhitespace;
    }

    /** The commit shown alone, or null for the whole change. */
    public ObjectProperty<String> commitProperty() {
        return commit;
    }

    ReadOnlyObjectProperty<Shown> shownProperty() {
        return shown.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
