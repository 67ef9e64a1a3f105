package dev.paddock.ui.approvals;

import dev.paddock.approval.Approval;
import dev.paddock.approval.ApprovalBroker;
import dev.paddock.approval.ApprovalBroker.AllowResult;
import dev.paddock.approval.ApprovalState;
import dev.paddock.common.PaddockException;
import dev.paddock.events.EventBus;
import java.util.List;

/** {@link ApprovalBackend} over the running Paddock's broker; decisions are recorded as the local user's, in the panel. */
public final class BrokerApprovalBackend implements ApprovalBackend {
    private final ApprovalBroker broker;
    private final EventBus bus;
    private final String who;

    /**
     * The broker of a running Paddock ({@code Wiring.approvals()}) and its event bus, deciding as the user running
     * the panel.
     */
    public BrokerApprovalBackend(ApprovalBroker broker, EventBus bus) {
        this(broker, bus, System.getProperty("user.name", "someone") + " in the panel");
    }

    /** @param who who the decisions are recorded as */
    public BrokerApprovalBackend(ApprovalBroker broker, EventBus bus, String who) {
        this.broker = broker;
        this.bus = bus;
        this.who = who;
    }

    @Override
    public List<Approval> pending(int limit) throws PaddockException {
        return broker.list(ApprovalState.PENDING, limit);
    }

    @Override
    public Approval approve(long id) throws PaddockException {
        return broker.approve(id, who);
    }

    @Override
    public Approval deny(long id, String reason) throws PaddockException {
        return broker.deny(id, who, reason);
    }

    @Override
    public AllowResult approveAndAllow(long id) throws PaddockException {
        return broker.approveAndAllow(id, who);
    }

    @Override
    public String repositoryName(long repositoryId) throws PaddockException {
        return broker.repositoryName(repositoryId).orElse("repository #" + repositoryId);
    }

    @Override
    public Runnable onChange(Runnable callback) {
        // Every request queued or decided (by anyone) is an approval event.
        return bus.subscribe(List.of("approval."), e -> callback.run())::close;
    }

    @Override
    public String who() {
        return who;
    }
}
