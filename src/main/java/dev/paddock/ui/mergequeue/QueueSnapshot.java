package dev.paddock.ui.mergequeue;

import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeService;
import dev.paddock.merge.MergeState;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The merge queue of one repository at one moment, split as the tab shows it; immutable.
 *
 * @param running the entry being merged, or null
 * @param review  the entries waiting for a person to review their change to policy or hook configuration, oldest
 *                first
 * @param queued  the waiting entries in the queue's order (position 1 first)
 * @param history the others (merged, failed, cancelled, conflict), newest first
 * @param at      when it was read (elapsed and waiting times are counted up to it)
 */
public record QueueSnapshot(
        QueueRow running, List<QueueRow> review, List<QueueRow> queued, List<QueueRow> history, Instant at) {
    /** No entries (before the first read). */
    public static final QueueSnapshot EMPTY = new QueueSnapshot(null, List.of(), List.of(), List.of(), Instant.EPOCH);

    public QueueSnapshot {
        review = List.copyOf(review);
        queued = List.copyOf(queued);
        history = List.copyOf(history);
    }

    /**
     * Splits entries as {@link MergeService#list} returns them, with the queue's positions
     * ({@link MergeService#positions}). Looks whether each test log exists: call it off the FX thread.
     */
    public static QueueSnapshot of(List<MergeEntry> listed, int maxAttempts, Instant at) {
        Map<Long, Integer> positions = MergeService.positions(listed);
        QueueRow running = null;
        List<QueueRow> review = new ArrayList<>();
        List<QueueRow> queued = new ArrayList<>();
        List<QueueRow> history = new ArrayList<>();
        for (MergeEntry e : listed) {
            QueueRow row = new QueueRow(
                    e,
                    positions.get(e.id()),
                    maxAttempts,
                    e.attempt().testLog() != null
                            && Files.isRegularFile(e.attempt().testLog()));
            if (e.state() == MergeState.RUNNING && running == null) {
                running = row;
            } else if (e.state() == MergeState.POLICY_REVIEW) {
                review.add(row);
            } else if (e.state() == MergeState.QUEUED || e.state() == MergeState.RUNNING) {
                queued.add(row);
            } else {
                history.add(row);
            }
        }
        return new QueueSnapshot(running, review, queued, history, at);
    }

    /** Entries running, queued or waiting for a review (the tab's count). */
    public int active() {
        return review.size() + queued.size() + (running == null ? 0 : 1);
    }

    /** Whether there is no entry at all. */
    public boolean isEmpty() {
        return running == null && review.isEmpty() && queued.isEmpty() && history.isEmpty();
    }

    /** The row of entry {@code id} in any part, or null. */
    public QueueRow find(long id) {
        if (running != null && running.id() == id) {
            return running;
        }
        for (List<QueueRow> part : List.of(review, queued, history)) {
            for (QueueRow r : part) {
                if (r.id() == id) {
                    return r;
                }
            }
        }
        return null;
    }
}
