package dev.paddock.ui.mergequeue;

import dev.paddock.common.PaddockException;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.PolicyDiff;
import java.nio.file.Path;
import java.util.List;

/**
 * What the merge queue tab needs from Paddock's merge queue. Every method but {@link #onChange} and {@link #who}
 * reads or writes the store (and a cancel may wait for git): the panel calls them off the FX thread.
 */
public interface MergeQueueBackend {
    /**
     * The repository's entries: the running one, then the queued ones in the queue's own order (last test passed
     * first, then oldest), then the latest others, newest first; at most {@code limit}.
     *
     * @throws PaddockException when the store cannot be read
     */
    List<MergeEntry> entries(Path repo, int limit) throws PaddockException;

    /**
     * Failed attempts after which an entry of the repository leaves the queue for a person.
     *
     * @throws PaddockException when the store cannot be read
     */
    int maxAttempts(Path repo) throws PaddockException;

    /**
     * Cancels an entry: a queued one leaves the queue, a running one stops before it moves base.
     *
     * @return the entry as it is now (a running one may still be running until its test is killed)
     * @throws PaddockException when it is gone, or merged, failed or cancelled already
     */
    MergeEntry cancel(long id, String who) throws PaddockException;

    /**
     * Puts a failed, cancelled or conflicted entry back in the queue with its attempts reset.
     *
     * @throws PaddockException when it is gone or in another state
     */
    MergeEntry retry(long id, String who) throws PaddockException;

    /**
     * What to review for an entry waiting for a policy review: its configuration files and their diff.
     *
     * @throws PaddockException when it is gone or was never stopped for a review, or git cannot show the diff
     */
    PolicyDiff policyDiff(long id) throws PaddockException;

    /**
     * Approves the policy change of an entry waiting for a review, bound to {@code commit}, the one reviewed.
     *
     * @throws PaddockException when it is gone, no longer waits, or waits with another commit
     */
    MergeEntry approvePolicy(long id, String who, String commit) throws PaddockException;

    /**
     * Rejects the policy change of an entry waiting for a review: it is cancelled.
     *
     * @throws PaddockException when it is gone or no longer waits
     */
    MergeEntry rejectPolicy(long id, String who) throws PaddockException;

    /**
     * Registers a callback run (on a merge queue thread) after the queue changed something.
     *
     * @return a handle that unregisters it
     */
    Runnable onChange(Runnable callback);

    /** Who the panel's actions are recorded as ("ann in the panel"). */
    String who();
}
