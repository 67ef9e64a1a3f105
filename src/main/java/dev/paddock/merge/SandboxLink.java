package dev.paddock.merge;

import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.sandbox.Transition;
import dev.paddock.store.StoreException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the sandbox of a merge queue entry along with it ({@code done → merging → merged | conflict},
 * {@code merging → awaiting_human} after the last failed attempt), each move a compare-and-set with its event.
 * A sandbox that is not where the entry expects it (a person moved it, Paddock stopped between two writes) is
 * taken through {@code merging} when that is an edge, and otherwise left alone: the entry's own state is the
 * record of the merge.
 */
final class SandboxLink {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxLink.class);

    private final SandboxStore sandboxes;

    SandboxLink(SandboxStore sandboxes) {
        this.sandboxes = sandboxes;
    }

    /** The sandbox's current state, or empty when it has none or it is gone. */
    Optional<SandboxState> stateOf(String sandboxId) throws StoreException {
        return sandboxId == null ? Optional.empty() : sandboxes.find(sandboxId).map(SandboxRecord::state);
    }

    /** The sandbox record, if any. */
    Optional<SandboxRecord> find(String sandboxId) throws StoreException {
        return sandboxId == null ? Optional.empty() : sandboxes.find(sandboxId);
    }

    /**
     * Moves the sandbox to {@code to} with the message; no-op without a sandbox or when it is there already.
     *
     * @return whether it is in {@code to} afterwards
     */
    boolean move(String sandboxId, SandboxState to, String message) throws StoreException {
        if (sandboxId == null) {
            return true;
        }
        for (int attempt = 0; attempt < 3; attempt++) {
            Optional<SandboxRecord> s = sandboxes.find(sandboxId);
            if (s.isEmpty()) {
                return false;
            }
            SandboxState from = s.get().state();
            if (from == to) {
                return true;
            }
            if (!from.canBecome(to)) {
                if (to != SandboxState.MERGING && from.canBecome(SandboxState.MERGING)
                        && SandboxState.MERGING.canBecome(to)) {
                    sandboxes.transition(sandboxId, Transition.of(from, SandboxState.MERGING)
                            .message(sandboxId + " is in the merge queue"));
                    continue;
                }
                LOG.info("Sandbox {} is {}, not moved to {} by the merge queue", sandboxId, from.id(), to.id());
                return false;
            }
            if (sandboxes.transition(sandboxId, Transition.of(from, to).message(message))) {
                return true;
            }
        }
        return false;
    }
}
