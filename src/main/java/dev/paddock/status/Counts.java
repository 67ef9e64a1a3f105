package dev.paddock.status;

/**
 * The dashboard's header tiles.
 *
 * @param active sandboxes running, retrying, merging or cleaning
 * @param pending sandboxes created but not started
 * @param failed24h sandboxes with a run that failed or timed out in the last 24 hours, whatever their state now
 *     (a failed run moves on at once: retrying, or awaiting a person)
 * @param merged24h merge requests merged in the last 24 hours
 * @param awaitingHuman sandboxes waiting for a person (awaiting_human, conflict) plus pending approvals
 * @param waitingForYou sandboxes whose agent's turn ended or that ask for attention ("waiting for you": they take a
 *     follow-up)
 * @param readyForReview sandboxes whose change waits for a person's review (state {@code review})
 */
public record Counts(
        long active,
        long pending,
        long failed24h,
        long merged24h,
        long awaitingHuman,
        long waitingForYou,
        long readyForReview) {

    /** Without sandboxes ready for review. */
    public Counts(long active, long pending, long failed24h, long merged24h, long awaitingHuman, long waitingForYou) {
        this(active, pending, failed24h, merged24h, awaitingHuman, waitingForYou, 0);
    }

    /** Without sandboxes waiting for you or ready for review. */
    public Counts(long active, long pending, long failed24h, long merged24h, long awaitingHuman) {
        this(active, pending, failed24h, merged24h, awaitingHuman, 0, 0);
    }
}
