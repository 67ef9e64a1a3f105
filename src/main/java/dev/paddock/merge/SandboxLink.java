package dev.paddock.merge;

import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.SandboxLifecycle;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.store.StoreException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the sandbox of a merge queue entry along with it ({@code done → merging → merged | conflict},
 * {@code merging → awaiting_human} after the last failed attempt), each move a compare-and-set with its event.
 * A sandbox that is not where the entry expects it (a person moved it, Paddock stopped between two writes) is
 * taken through {@code merging} when that is an edge, and otherwise left alone: the entry's own state is the
 * record of the merge. The moves are {@link SandboxLifecycle}'s named operations.
 */
final class SandboxLink {
    private static final Logger LOG = LoggerFactory.getLogger(SandboxLink.class);

    private final SandboxStore sandboxes;
    private final SandboxLifecycle lifecycle;

    SandboxLink(SandboxStore sandboxes) {
        this.sandboxes = sandboxes;
        this.lifecycle = new SandboxLifecycle(sandboxes);
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
     * The repository as an entry of sandbox {@code sandboxId} sees it: its base branch is the sandbox's own base,
     * the branch the sandbox started from and is merged back into (docs/decisions/0005). Without a sandbox (a
     * branch a person enqueued), or for a record that names no base, it is the repository's.
     */
    RepoRecord targetOf(RepoRecord repo, String sandboxId) throws StoreException {
        Optional<String> base =
                find(sandboxId).map(rec -> rec.workspace().baseBranch()).filter(b -> !b.isBlank());
        if (base.isEmpty() || base.get().equals(repo.baseBranch())) {
            return repo;
        }
        return new RepoRecord(
                repo.id(),
                repo.path(),
                repo.name(),
                base.get(),
                repo.mergeStrategy(),
                repo.testCommand(),
                repo.createdAt(),
                repo.lastOpenedAt());
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
                if (to != SandboxState.MERGING
                        && from.canBecome(SandboxState.MERGING)
                        && SandboxState.MERGING.canBecome(to)) {
                    lifecycle.markMerging(sandboxId, from, sandboxId + " is in the merge queue");
                    continue;
                }
                LOG.info("Sandbox {} is {}, not moved to {} by the merge queue", sandboxId, from.id(), to.id());
                return false;
            }
            if (apply(sandboxId, from, to, message)) {
                return true;
            }
        }
        return false;
    }

    /** {@code done → review}: the sandbox's change waits for a person's review before it may enter the queue. */
    void readyForReview(String sandboxId, String branch, String base) throws StoreException {
        lifecycle.readyForReview(
                sandboxId,
                sandboxId + " is ready for review: " + branch + " has commits " + base
                        + " lacks; approve it to merge it, request changes or discard it");
    }

    /** The lifecycle's operation that moves a sandbox of a merge queue entry to {@code to}. */
    private boolean apply(String sandboxId, SandboxState from, SandboxState to, String message) throws StoreException {
        return switch (to) {
            case MERGING -> lifecycle.markMerging(sandboxId, from, message);
            case MERGED -> lifecycle.markMerged(sandboxId, from, message);
            case CONFLICT -> lifecycle.markConflicted(sandboxId, from, message);
            case AWAITING_HUMAN -> lifecycle.needsHuman(sandboxId, from, message);
            case DONE -> lifecycle.leaveMergeQueue(sandboxId, from, message);
            default -> throw new IllegalArgumentException("the merge queue does not move a sandbox to " + to.id());
        };
    }
}
