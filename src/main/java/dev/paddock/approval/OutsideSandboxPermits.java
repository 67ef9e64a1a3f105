package dev.paddock.approval;

import dev.paddock.common.PaddockException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Which calls may run outside the agent's own sandbox (see {@link ApprovalBroker#permitOutsideSandbox}): those a
 * person approved within {@link #WINDOW}, each approval once. Thread-safe.
 */
final class OutsideSandboxPermits {
    /** How long after a person's approval the call may still step outside the agent's own sandbox. */
    static final Duration WINDOW = Duration.ofMinutes(10);

    private final ApprovalStore store;
    private final Clock clock;
    /** Approvals that already let a call run outside the agent's own sandbox. */
    private final Set<Long> spent = new HashSet<>();

    OutsideSandboxPermits(ApprovalStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** The person's approval of this very call that permits it, now spent; or empty. */
    synchronized Optional<Approval> permit(String sandboxId, String tool, String input) throws PaddockException {
        Instant since = clock.instant().minus(WINDOW);
        for (Approval a : store.ofSandbox(sandboxId, 50)) {
            if (a.state() == ApprovalState.APPROVED
                    && "human".equals(a.decidedBy())
                    && a.tool().equals(tool)
                    && a.request().equals(input == null ? "" : input)
                    && a.decidedAt() != null
                    && a.decidedAt().isAfter(since)
                    && spent.add(a.id())) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }
}
