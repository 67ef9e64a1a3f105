package dev.paddock.ui.mergequeue;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventBus;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeService;
import dev.paddock.merge.PolicyDiff;
import java.nio.file.Path;
import java.util.List;

/** The merge queue tab over Paddock's own {@link MergeService}. */
public final class ServiceMergeQueueBackend implements MergeQueueBackend {
    private final MergeService merges;
    private final String who;
    private final EventBus bus;

    /**
     * @param merges the merge queue's service
     * @param who    who cancels and retries are recorded as ("ann in the panel")
     */
    public ServiceMergeQueueBackend(MergeService merges, EventBus bus, String who) {
        this.bus = bus;
        this.merges = merges;
        this.who = who;
    }

    @Override
    public List<MergeEntry> entries(Path repo, int limit) throws PaddockException {
        return merges.list(repo, limit);
    }

    @Override
    public int maxAttempts(Path repo) throws PaddockException {
        return merges.settings(repo).maxAttempts();
    }

    @Override
    public MergeEntry cancel(long id, String who) throws PaddockException {
        return merges.cancel(id, who);
    }

    @Override
    public MergeEntry retry(long id, String who) throws PaddockException {
        return merges.retry(id, who);
    }

    @Override
    public PolicyDiff policyDiff(long id) throws PaddockException {
        return merges.policyDiff(id);
    }

    @Override
    public MergeEntry approvePolicy(long id, String who, String commit) throws PaddockException {
        return merges.approvePolicy(id, who, commit);
    }

    @Override
    public MergeEntry rejectPolicy(long id, String who) throws PaddockException {
        return merges.rejectPolicy(id, who, null);
    }

    @Override
    public Runnable onChange(Runnable callback) {
        // Every entry enqueued, moved, merged, failed or cancelled is a merge event.
        return bus.subscribe(java.util.List.of("merge."), e -> callback.run())::close;
    }

    @Override
    public String who() {
        return who;
    }
}
