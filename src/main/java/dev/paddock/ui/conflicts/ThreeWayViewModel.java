package dev.paddock.ui.conflicts;

import dev.paddock.merge.conflict.ConflictFile;
import dev.paddock.merge.conflict.ConflictHunk;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.FileConflictKind;
import dev.paddock.ui.common.UiError;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The three-way resolution of one merge request: its conflicted files, the file and conflict hunk
 * shown, the result of each text file ({@link FileResolution}), and the commands a person uses (take
 * ours / theirs / both per hunk, the proposed resolution, mark resolved, unresolve, abort) and where the merge
 * request stands in the merge queue (followed while shown: finishing, merged, closed elsewhere). Reading the conflicts,
 * building the starting results and every backend call run on the {@code io} executor; properties
 * change on the FX thread only.
 */
public final class ThreeWayViewModel {
    private final ConflictBackend backend;
    private final long mergeRequestId;
    private final Executor io;
    // Properties
    private final ObservableList<FileRow> files = FXCollections.observableArrayList();
    private final ObservableList<FileRow> filesView = FXCollections.unmodifiableObservableList(files);
    private final ReadOnlyObjectWrapper<ConflictReport> report = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyIntegerWrapper fileIndex = new ReadOnlyIntegerWrapper(-1);
    private final ReadOnlyObjectWrapper<ConflictFile> file = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyIntegerWrapper hunk = new ReadOnlyIntegerWrapper(-1);
    private final ReadOnlyIntegerWrapper unresolved = new ReadOnlyIntegerWrapper();
    private final BackendCalls calls;
    private final ReadOnlyBooleanWrapper busy;
    private final ReadOnlyBooleanWrapper finished = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper aborted = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper();
    private final ReadOnlyObjectWrapper<UiError> error;
    private final ProgressFollower progress;

    private List<FileResolution> results = List.of();
    private List<Object> prepared = new ArrayList<>();
    private java.util.function.BiFunction<ConflictFile, FileResolution, Object> preparer = (f, r) -> null;
    private Consumer<FileResolution.Splice> onSplice = s -> {};
    private Consumer<List<Integer>> onHunksChanged = h -> {};

    /**
     * @param backend        the merge queue's resolution service
     * @param mergeRequestId the merge request in conflict
     * @param io             where reading, merging and backend calls run
     */
    public ThreeWayViewModel(ConflictBackend backend, long mergeRequestId, Executor io) {
        this.backend = backend;
        this.mergeRequestId = mergeRequestId;
        this.io = io;
        this.calls = new BackendCalls(io);
        this.busy = calls.busy;
        this.error = calls.error;
        this.progress = new ProgressFollower(backend, mergeRequestId, io);
    }

    // Properties --------------------------------------------------------------------------------

    /** The merge request shown. */
    public long mergeRequestId() {
        return mergeRequestId;
    }

    /** The conflicted files, sorted by path. */
    public ObservableList<FileRow> files() {
        return filesView;
    }

    /** The conflicts read, or null before {@link #load} completes. */
    public ReadOnlyObjectProperty<ConflictReport> reportProperty() {
        return report.getReadOnlyProperty();
    }

    /** Index of the file shown in {@link #files}, or -1. */
    public ReadOnlyIntegerProperty fileIndexProperty() {
        return fileIndex.getReadOnlyProperty();
    }

    /** The file shown, or null. */
    public ReadOnlyObjectProperty<ConflictFile> fileProperty() {
        return file.getReadOnlyProperty();
    }

    /** Index of the conflict hunk shown in the file, or -1. */
    public ReadOnlyIntegerProperty hunkProperty() {
        return hunk.getReadOnlyProperty();
    }

    /** Unresolved hunks of the file shown. */
    public ReadOnlyIntegerProperty unresolvedProperty() {
        return unresolved.getReadOnlyProperty();
    }

    /** Whether a backend call (load, mark resolved, abort) runs. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** Whether every file is resolved (the merge queue then completes the merge). */
    public ReadOnlyBooleanProperty finishedProperty() {
        return finished.getReadOnlyProperty();
    }

    /** Whether the merge was aborted from here. */
    public ReadOnlyBooleanProperty abortedProperty() {
        return aborted.getReadOnlyProperty();
    }

    /** What the last command did, or null. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }

    /** Why the last command failed, or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** Where the merge request stands in the merge queue (followed while the view shows it). */
    public ReadOnlyObjectProperty<ConflictBackend.Progress> progressProperty() {
        return progress.property();
    }

    /** Whether nothing more can be done here: the merge finished (merged) or ended elsewhere (aborted, cancelled). */
    public boolean isOver() {
        ConflictBackend.Stage s = progress.stage();
        return s == ConflictBackend.Stage.MERGED || s == ConflictBackend.Stage.CLOSED || aborted.get();
    }

    /** The result text of the file shown (text kinds), else null. */
    public String resultText() {
        FileResolution r = current();
        return r == null ? null : r.text();
    }

    /** How hunk {@code h} of the file shown is resolved. */
    public HunkState choice(int h) {
        FileResolution r = current();
        return r == null ? HunkState.UNRESOLVED : r.choice(h);
    }

    /** Result lines {start, end} of hunk {@code h} of the file shown. */
    public int[] resultSpan(int h) {
        FileResolution r = current();
        return r == null ? new int[] {0, 0} : new int[] {r.start(h), r.end(h)};
    }

    /** The hunk shown, or null. */
    public ConflictHunk currentHunk() {
        ConflictFile f = file.get();
        int h = hunk.get();
        return f == null || h < 0 || h >= f.hunks().size() ? null : f.hunks().get(h);
    }

    /** Called on the FX thread with each replacement the commands make in the result text. */
    public void setOnSplice(Consumer<FileResolution.Splice> c) {
        onSplice = c == null ? s -> {} : c;
    }

    /** Called on the FX thread with hunks whose choice or result lines changed. */
    public void setOnHunksChanged(Consumer<List<Integer>> c) {
        onHunksChanged = c == null ? h -> {} : c;
    }

    /**
     * Sets what is prepared off the FX thread for each file when the conflicts are read (the view builds
     * its documents there); the result is handed out once by {@link #takePrepared}.
     */
    void setPreparer(java.util.function.BiFunction<ConflictFile, FileResolution, Object> p) {
        preparer = p == null ? (f, r) -> null : p;
    }

    /** What was prepared for file {@code i} at load, once; null after (or when nothing was). */
    Object takePrepared(int i) {
        return i < 0 || i >= prepared.size() ? null : prepared.set(i, null);
    }

    // Commands ----------------------------------------------------------------------------------

    /** Reads the conflicts and builds the starting results (off the FX thread); shows the first file. */
    public CompletableFuture<Void> load() {
        busy.set(true);
        error.set(null);
        CompletableFuture<Void> done = new CompletableFuture<>();
        io.execute(() -> {
            try {
                ConflictLoad l = ConflictLoad.read(backend, mergeRequestId, preparer);
                Platform.runLater(() -> {
                    busy.set(false);
                    prepared = new ArrayList<>(l.prepared());
                    loaded(l.report(), l.results(), l.resolved());
                    progressed(l.progress());
                    if (l.unfinished() != null) {
                        status.set(l.unfinished());
                    }
                    done.complete(null);
                });
            } catch (Exception | LinkageError e) {
                Platform.runLater(() -> {
                    busy.set(false);
                    error.set(UiError.of("Cannot read the conflicts of merge request #" + mergeRequestId, e));
                    done.complete(null);
                });
            }
        });
        return done;
    }

    private void loaded(ConflictReport r, List<FileResolution> built, java.util.Set<String> resolvedBefore) {
        results = new ArrayList<>(built);
        List<FileRow> rows = new ArrayList<>();
        int first = -1;
        for (int i = 0; i < r.files().size(); i++) {
            boolean done = resolvedBefore.contains(r.files().get(i).path());
            rows.add(FileRow.of(r.files().get(i), built.get(i), done));
            if (!done && first < 0) {
                first = i;
            }
        }
        files.setAll(rows);
        report.set(r);
        status.set(r.isClean() ? "Nothing conflicts any more." : null);
        selectFile(rows.isEmpty() ? -1 : Math.max(first, 0));
        progress.follow(this::progressed);
    }

    private void progressed(ConflictBackend.Progress p) {
        if (progress.apply(p, finished.get())) { // the test failed, or base moved: the files stay resolved
            finished.set(false);
            status.set("The merge could not be finished: " + p.detail() + ". Unresolve a file to change it.");
        } else if (p.stage() != ConflictBackend.Stage.RESOLVING) {
            status.set(ProgressFollower.describe(p));
        }
    }

    /** Stops following the merge request (the window closed). */
    public void close() {
        progress.stop();
    }

    /** Shows file {@code i} of {@link #files} (its first unresolved hunk, or its first). */
    public void selectFile(int i) {
        if (i < -1 || i >= files.size()) {
            return;
        }
        ConflictReport r = report.get();
        hunk.set(-1);
        fileIndex.set(i);
        file.set(i < 0 ? null : r.files().get(i));
        FileResolution res = current();
        unresolved.set(res == null ? 0 : res.unresolved());
        if (res != null && res.hunks() > 0) {
            int first = 0;
            while (first < res.hunks() && res.choice(first).isResolved()) {
                first++;
            }
            hunk.set(first < res.hunks() ? first : 0);
        }
    }

    /** Shows the next conflict hunk of the file (stays on the last). */
    public void next() {
        goTo(hunk.get() + 1);
    }

    /** Shows the previous conflict hunk of the file (stays on the first). */
    public void previous() {
        goTo(hunk.get() - 1);
    }

    /** Shows hunk {@code h} of the file, when it exists. */
    public void goTo(int h) {
        ConflictFile f = file.get();
        if (f != null && h >= 0 && h < f.hunks().size()) {
            hunk.set(h);
        }
    }

    /** The caret moved to result line {@code line}: the hunk there becomes the one shown. */
    public void caretAtLine(int line) {
        FileResolution r = current();
        int h = r == null ? -1 : r.hunkAtLine(line);
        if (h >= 0) {
            hunk.set(h);
        }
    }

    /** Whether {@code choice} applies to the hunk shown (PROPOSED only with a proposal or a suggestion). */
    public boolean canChoose(HunkState choice) {
        ConflictHunk h = currentHunk();
        if (h == null || current() == null || busy.get() || currentFileResolved() || isOver()) {
            return false;
        }
        return choice != HunkState.PROPOSED || h.suggested() != null;
    }

    /** Resolves the hunk shown with {@code choice}'s lines (UNRESOLVED restores its starting text). */
    public void choose(HunkState choice) {
        if (!canChoose(choice) || choice == HunkState.EDITED) {
            return;
        }
        FileResolution r = current();
        int h = hunk.get();
        FileResolution.Splice s = r.choose(h, choice);
        onSplice.accept(s);
        changed(List.of(h));
        status.set("Conflict " + (h + 1) + ": took " + choice.label() + ".");
    }

    /**
     * A hand edit in the result editor: characters {@code [position, position + removed.length())}
     * became {@code inserted}. Hunks it touches count as resolved by hand.
     */
    public void edited(int position, String removed, String inserted) {
        FileResolution r = current();
        if (r == null) {
            return;
        }
        List<Integer> touched = r.edited(position, removed, inserted);
        if (!touched.isEmpty()) {
            changed(touched);
        }
    }

    private void changed(List<Integer> hunks) {
        FileResolution r = current();
        unresolved.set(r.unresolved());
        int i = fileIndex.get();
        files.set(i, FileRow.of(r.file(), r, files.get(i).resolved()));
        onHunksChanged.accept(hunks);
    }

    /**
     * Hands the result text of the file shown to the merge queue (off the FX thread). The view asks
     * first when hunks are still unresolved (their starting text would be kept).
     *
     * @return completes on the FX thread with whether it was recorded
     */
    public CompletableFuture<Boolean> markResolved() {
        FileResolution r = current();
        if (r == null) {
            return CompletableFuture.completedFuture(false);
        }
        String path = r.file().path();
        String text = r.text();
        return send(
                "Cannot mark " + path + " resolved",
                path + " resolved",
                () -> backend.markResolved(mergeRequestId, path, text, backend.who()));
    }

    /**
     * Resolves the file shown (a kind without text: delete/modify, rename/rename, binary) by keeping one
     * side. A side where the file is absent deletes it.
     */
    public CompletableFuture<Boolean> keep(ConflictBackend.Side side) {
        ConflictFile f = file.get();
        if (f == null) {
            return CompletableFuture.completedFuture(false);
        }
        String what = f.path() + ": kept " + (side == ConflictBackend.Side.OURS ? "ours" : "theirs");
        if (f.kind() == FileConflictKind.BINARY) {
            return send(
                    "Cannot resolve " + f.path(),
                    what,
                    () -> backend.keepSide(mergeRequestId, f.path(), side, backend.who()));
        }
        String text = side == ConflictBackend.Side.OURS ? f.oursText() : f.theirsText();
        return send(
                "Cannot resolve " + f.path(),
                what + (text == null ? " (deleted)" : ""),
                () -> backend.markResolved(mergeRequestId, f.path(), text, backend.who()));
    }

    /** Resolves the file shown by deleting it. */
    public CompletableFuture<Boolean> deleteFile() {
        ConflictFile f = file.get();
        if (f == null) {
            return CompletableFuture.completedFuture(false);
        }
        return send(
                "Cannot delete " + f.path(),
                f.path() + " deleted",
                () -> backend.markResolved(mergeRequestId, f.path(), null, backend.who()));
    }

    /** Whether the file shown is resolved and may be reopened ({@link #unresolve}). */
    public boolean canUnresolve() {
        return currentFileResolved() && !busy.get() && !isOver() && progress.stage() == ConflictBackend.Stage.RESOLVING;
    }

    /**
     * Reopens the file shown, resolved before: it is unresolved again, with its result as it was (the hunks keep how
     * they were resolved), to edit and mark resolved anew.
     *
     * @return completes on the FX thread with whether it was reopened
     */
    public CompletableFuture<Boolean> unresolve() {
        int i = fileIndex.get();
        if (!canUnresolve()) {
            return CompletableFuture.completedFuture(false);
        }
        String path = files.get(i).path();
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        run("Cannot unresolve " + path, () -> backend.unresolve(mergeRequestId, path, backend.who()), ok -> {
            if (ok) {
                finished.set(false);
                progress.waitingAgain();
                files.set(i, files.get(i).reopened(results.get(i)));
                status.set(path + " is unresolved again: change its result, then mark it resolved.");
                selectFile(i);
            }
            done.complete(ok);
        });
        return done;
    }

    /** Abandons the merge (the view asks first). */
    public CompletableFuture<Boolean> abort() {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        run("Cannot abort the merge", () -> backend.abort(mergeRequestId, backend.who()), ok -> {
            if (ok) {
                aborted.set(true);
                status.set("Merge aborted: everything is as before it started.");
            }
            done.complete(ok);
        });
        return done;
    }

    private CompletableFuture<Boolean> send(String failed, String did, BackendCalls.Call call) {
        int i = fileIndex.get();
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        run(failed, call, ok -> {
            if (ok) {
                fileResolved(i, did);
            }
            done.complete(ok);
        });
        return done;
    }

    private void run(String failed, BackendCalls.Call call, Consumer<Boolean> after) {
        calls.run(failed, call, after);
    }

    private void fileResolved(int i, String did) {
        files.set(i, files.get(i).markedResolved());
        long left = files.stream().filter(f -> !f.resolved()).count();
        if (left == 0) {
            finished.set(true);
            status.set(did + ". Every file is resolved: the merge queue runs the tests and commits the merge.");
            return;
        }
        status.set(did + ". " + left + (left == 1 ? " file is" : " files are") + " left.");
        int next = FileRow.nextUnresolved(files, i);
        if (next >= 0) {
            selectFile(next);
        }
    }

    /** Whether the file shown was marked resolved (its result is written: nothing more to choose or edit). */
    public boolean currentFileResolved() {
        int i = fileIndexProperty().get();
        return i >= 0 && i < files.size() && files.get(i).resolved();
    }

    /** Clears the error (the close button of the error box). */
    public void dismissError() {
        error.set(null);
    }

    private FileResolution current() {
        int i = fileIndex.get();
        return i < 0 || i >= results.size() ? null : results.get(i);
    }
}
