package dev.paddock.merge;

import dev.paddock.store.StoreException;
import java.time.Instant;

/**
 * Where a running test is written down on its entry, as soon as it started, so that a restarted Paddock can end
 * what the previous one left ({@link TierTestRunner#killLeftover}): the process ({@code test_pid},
 * {@code test_pid_started_at}) of a host or bubblewrap run, or the container ({@code test_container}).
 */
final class TestRunRecord {
    private final MergeStore store;
    private final long entryId;

    TestRunRecord(MergeStore store, long entryId) {
        this.store = store;
        this.entryId = entryId;
    }

    /** A host or bubblewrap run started: its process (= its process group) and start time. */
    void process(long pid, Instant startedAt) throws StoreException {
        store.set(entryId, MergeChange.of(MergeChange.TEST_PID, pid).set(MergeChange.TEST_PID_STARTED_AT, startedAt));
    }

    /** A container run started: its full id. */
    void container(String containerId) throws StoreException {
        store.set(entryId, MergeChange.of(MergeChange.TEST_CONTAINER, containerId));
    }
}
