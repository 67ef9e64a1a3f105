package dev.paddock.cli;

import dev.paddock.api.CheckpointView;
import dev.paddock.common.CommitIds;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** How checkpoints and rollbacks are printed. */
final class CheckpointText {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    private CheckpointText() {}

    /** "2 added, 1 modified, 0 deleted", or "no change". */
    static String counts(CheckpointView c) {
        if (c.added().isEmpty() && c.modified().isEmpty() && c.deleted().isEmpty()) {
            return "no change";
        }
        return c.added().size() + " added, " + c.modified().size() + " modified, "
                + c.deleted().size() + " deleted";
    }

    /** One block per checkpoint: number, time, message and turn, then each changed path with A, M or D. */
    static String list(String id, List<CheckpointView> list) {
        if (list.isEmpty()) {
            return id + " has no checkpoints yet.\n";
        }
        StringBuilder b = new StringBuilder();
        for (CheckpointView c : list) {
            b.append(String.format(
                    "%3d  %s  %s", c.number(), c.createdAt() == null ? "?" : TIME.format(c.createdAt()), c.message()));
            if (c.turn() != null) {
                b.append(" (turn ").append(c.turn()).append(')');
            }
            b.append("  [").append(counts(c)).append("]\n");
            paths(b, "A", c.added());
            paths(b, "M", c.modified());
            paths(b, "D", c.deleted());
        }
        return b.toString();
    }

    /** What a rollback restored and removed, and how to undo it. */
    static String rollback(CheckpointView.RollbackView r) {
        StringBuilder b = new StringBuilder();
        b.append("Rolled ")
                .append(r.sandboxId())
                .append(" back to checkpoint ")
                .append(r.to())
                .append(": ")
                .append(r.restored().size())
                .append(" restored, ")
                .append(r.removed().size())
                .append(" removed.\n");
        paths(b, "restored", r.restored());
        paths(b, "removed", r.removed());
        paths(b, "kept", r.kept());
        if (r.branchTo() != null) {
            b.append("Its branch was reset from ")
                    .append(CommitIds.shortId(r.branchFrom()))
                    .append(" to ")
                    .append(CommitIds.shortId(r.branchTo()))
                    .append(" (the commits left behind are kept in checkpoint ")
                    .append(r.before().number())
                    .append(").\n");
        }
        if (r.stopped()) {
            b.append("Its agent was stopped first; start it again with: paddock sandbox retry ")
                    .append(r.sandboxId())
                    .append('\n');
        }
        b.append("Undo with: paddock sandbox rollback ")
                .append(r.sandboxId())
                .append(' ')
                .append(r.before().number())
                .append(r.branchTo() != null ? " --reset-branch" : "")
                .append('\n');
        return b.toString();
    }

    private static void paths(StringBuilder b, String mark, List<String> paths) {
        for (String p : paths) {
            b.append("     ").append(mark).append(' ').append(p).append('\n');
        }
    }
}
