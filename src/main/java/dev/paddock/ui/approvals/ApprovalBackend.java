package dev.paddock.ui.approvals;

import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalBroker.AllowResult;
import dev.paddock.common.PaddockException;
import java.util.List;

/**
 * What the approval queue needs from Paddock's broker. Every method but {@link #onChange} may block on
 * the store or the disk: the panel calls them off the FX thread. The panel's implementation is
 * {@link BrokerApprovalBackend}.
 */
public interface ApprovalBackend {
    /** Pending requests of every repository, oldest first, at most {@code limit}. */
    List<Approval> pending(int limit) throws PaddockException;

    /**
     * Approves a pending request: its agent is told "allow".
     *
     * @throws dev.paddock.approval.ApprovalException CONFLICT when it was decided elsewhere meanwhile,
     *     NOT_FOUND when it is gone
     */
    Approval approve(long id) throws PaddockException;

    /**
     * Denies a pending request: its agent is told "deny" with the reason.
     *
     * @param reason why, for the agent; null or blank for none
     * @throws dev.paddock.approval.ApprovalException as {@link #approve}
     */
    Approval deny(long id, String reason) throws PaddockException;

    /**
     * Approves a pending request and writes an allow rule for its prefix to the repository's policy file.
     *
     * @throws dev.paddock.approval.ApprovalException BAD_REQUEST when no sensible rule exists (nothing
     *     changed), CONFLICT or NOT_FOUND as {@link #approve}
     */
    AllowResult approveAndAllow(long id) throws PaddockException;

    /** The name of the repository with this id ("shop"), for messages; the id itself when it is not known. */
    String repositoryName(long repositoryId) throws PaddockException;

    /**
     * Registers a callback run (on any thread) when a request was queued or decided, by anyone.
     *
     * @return a handle that unregisters it
     */
    Runnable onChange(Runnable callback);

    /** Who the decisions are recorded as ("ann in the panel"). */
    String who();
}
