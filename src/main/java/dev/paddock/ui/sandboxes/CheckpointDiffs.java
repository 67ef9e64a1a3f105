package dev.paddock.ui.sandboxes;

import dev.paddock.common.PaddockException;
import dev.paddock.diff.DiffOptions;
import dev.paddock.diff.FilePatch;
import dev.paddock.diff.SandboxDiff;
import dev.paddock.ui.diff.DiffBackend;
import java.util.List;
import java.util.function.Supplier;

/**
 * The diffs of checkpoints, for a {@link dev.paddock.ui.diff.DiffViewModel}: every diff it asks of a sandbox is the
 * range chosen here (one checkpoint against the one before it, or two checkpoints), read through the panel's diff
 * backend. Review comments belong to the sandbox's whole change: none are shown on a checkpoint's lines, and none
 * can be written there. The range may be changed from the FX thread while the view's thread reads.
 */
final class CheckpointDiffs implements DiffBackend {
    private final Supplier<DiffBackend> diffs;
    private volatile Integer from;
    private volatile Integer to;

    /** @param diffs the panel's diff backend (null while Paddock is not running) */
    CheckpointDiffs(Supplier<DiffBackend> diffs) {
        this.diffs = diffs;
    }

    /** A copy that keeps the range chosen now (for a window of its own). */
    CheckpointDiffs fixed() {
        CheckpointDiffs c = new CheckpointDiffs(diffs);
        c.range(from, to);
        return c;
    }

    /** Checkpoint {@code from} against the one before it ({@code to} null), or against checkpoint {@code to}. */
    void range(Integer from, Integer to) {
        this.from = from;
        this.to = to;
    }

    private DiffBackend backend() throws PaddockException {
        DiffBackend b = diffs.get();
        if (b == null) {
            throw new PaddockException("Paddock is not running: no checkpoint to show.");
        }
        if (from == null) {
            throw new PaddockException("Choose a checkpoint.");
        }
        return b;
    }

    private DiffOptions options(DiffOptions o) {
        return (o == null ? DiffOptions.whole() : o).checkpoints(from, to).at(o == null ? null : o.snapshot());
    }

    @Override
    public SandboxDiff diff(String sandboxId, DiffOptions options) throws PaddockException {
        return backend().diff(sandboxId, options(options));
    }

    @Override
    public FilePatch file(String sandboxId, String path, DiffOptions options) throws PaddockException {
        return backend().file(sandboxId, path, options(options));
    }

    @Override
    public List<Comment> comments(String sandboxId) {
        return List.of();
    }

    @Override
    public Comment comment(String sandboxId, String path, int line, boolean oldSide, String body)
            throws PaddockException {
        throw new PaddockException(
                "Comments go on the sandbox's whole change (the Changes tab), not on a" + " checkpoint's.");
    }
}
