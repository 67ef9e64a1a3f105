package dev.paddock.api;

import dev.paddock.checkpoint.Checkpoint;
import dev.paddock.checkpoint.Rollback;
import java.time.Instant;
import java.util.List;

/**
 * A checkpoint as the API shows it ({@code GET /v1/sandboxes/{id}/checkpoints}) and the CLI reads it back. Field
 * names are a public interface: add fields, never rename them.
 *
 * @param number 1, 2, ... per sandbox
 * @param commit the snapshot commit on {@code ref}
 * @param head the commit the sandbox's branch pointed at then, or null
 * @param turn the agent's turn that ended, for an automatic checkpoint; else null
 * @param added paths added since the checkpoint before (since HEAD for the first); likewise modified, deleted
 */
public record CheckpointView(
        String sandboxId,
        int number,
        String message,
        Integer turn,
        String commit,
        String head,
        String ref,
        Instant createdAt,
        List<String> added,
        List<String> modified,
        List<String> deleted) {

    public static CheckpointView of(Checkpoint c) {
        return new CheckpointView(
                c.sandboxId(),
                c.number(),
                c.message(),
                c.turn(),
                c.commit(),
                c.head(),
                c.ref(),
                c.createdAt(),
                c.changes().added(),
                c.changes().modified(),
                c.changes().deleted());
    }

    /**
     * What a rollback did ({@code POST /v1/sandboxes/{id}/rollback}).
     *
     * @param before the checkpoint taken just before (roll back to it to undo)
     * @param stopped whether the agent was stopped for it
     * @param restored paths written back; {@code removed}: paths deleted; {@code kept}: paths to delete left in place
     * @param branchFrom when the branch was reset too, the commit it named before (else null); {@code branchTo}: the
     *     commit it names now
     */
    public record RollbackView(
            String sandboxId,
            int to,
            CheckpointView before,
            boolean stopped,
            List<String> restored,
            List<String> removed,
            List<String> kept,
            String branchFrom,
            String branchTo) {
        public static RollbackView of(Rollback r) {
            return new RollbackView(
                    r.sandboxId(),
                    r.to(),
                    CheckpointView.of(r.before()),
                    r.stopped(),
                    r.restored(),
                    r.removed(),
                    r.kept(),
                    r.branchFrom(),
                    r.branchTo());
        }
    }
}
