package dev.paddock.ui.sandboxes;

import dev.paddock.compare.GroupComparison;
import dev.paddock.compare.MemberResult;
import dev.paddock.ui.common.UiError;
import java.util.concurrent.Executor;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Compare view of a fan-out: its sandboxes side by side ({@link dev.paddock.compare.GroupComparer}), read off the
 * FX thread (git and the logs can take a while) and read again on {@link #load()}.
 */
public final class CompareViewModel {
    private final SandboxBackend backend;
    private final String group;
    private final Executor io;
    private final ObservableList<MemberResult> members = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyObjectWrapper<UiError> error = new ReadOnlyObjectWrapper<>();
    private long loads;

    /** The comparison of the fan-out {@code group}; call {@link #load()} to read it. */
    public CompareViewModel(SandboxBackend backend, String group, Executor io) {
        this.backend = backend;
        this.group = group;
        this.io = io;
    }

    /** Reads the comparison (again) off the FX thread; only the latest read's answer is shown. */
    public void load() {
        long load = ++loads;
        loading.set(true);
        io.execute(() -> {
            try {
                GroupComparison c = backend.compare(group);
                Platform.runLater(() -> {
                    if (load == loads) {
                        apply(c);
                    }
                });
            } catch (Exception e) {
                Platform.runLater(() -> {
                    if (load == loads) {
                        loading.set(false);
                        error.set(UiError.of("Comparing " + group, e));
                    }
                });
            }
        });
    }

    private void apply(GroupComparison c) {
        loading.set(false);
        error.set(null);
        members.setAll(c.members());
        String base = c.baseCommit() == null
                ? ""
                : " at "
                        + c.baseCommit().substring(0, Math.min(8, c.baseCommit().length()));
        summary.set(c.members().size() + " sandboxes from " + c.baseBranch() + base + " · "
                + c.task().strip().replaceAll("\\s+", " "));
    }

    /** The fan-out's id. */
    public String group() {
        return group;
    }

    /** One row per sandbox, by id. */
    public ObservableList<MemberResult> members() {
        return members;
    }

    /** "3 sandboxes from main at 1a2b3c4d · the task". */
    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    /** Whether a read is under way. */
    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** Why the last read failed, or null. */
    public ReadOnlyObjectProperty<UiError> errorProperty() {
        return error.getReadOnlyProperty();
    }

    /** Whether {@code m} has a row in the sandboxes' table to open (it is not closed). */
    public static boolean canOpen(MemberResult m) {
        return m != null && !"closed".equals(m.state());
    }
}
