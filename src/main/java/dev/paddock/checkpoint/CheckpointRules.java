package dev.paddock.checkpoint;

/**
 * How many checkpoints a sandbox keeps and when more are taken.
 *
 * @param keep how many a sandbox keeps (0: all); older ones are pruned after each new one
 * @param retentionDays how long one is kept (0: for good); older ones are pruned after each new one, never the newest
 * @param everySeconds how often a running sandbox's worktree is checkpointed when it changed (0: only at the end of a
 *     turn, before a rollback and when asked)
 */
public record CheckpointRules(int keep, int retentionDays, int everySeconds) {
    /** Keeps every checkpoint; none on a timer. */
    public static final CheckpointRules KEEP_ALL = new CheckpointRules(0, 0, 0);
}
