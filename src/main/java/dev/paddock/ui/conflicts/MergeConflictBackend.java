package dev.paddock.ui.conflicts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.events.EventBus;
import dev.paddock.merge.MergeEntry;
import dev.paddock.merge.MergeService;
import dev.paddock.merge.MergeStore;
import dev.paddock.merge.ResolutionService;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.merge.conflict.FileConflictKind;
import dev.paddock.merge.conflict.HunkClass;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The conflict queue and the three-way view over Paddock's own merge queue: rows from the entries in state
 * conflict ({@link MergeService#conflicted}), texts and hunks from {@link ResolutionService#conflicts}, and
 * resolutions written through {@link ResolutionService} (which finishes the merge once every file is resolved).
 */
public final class MergeConflictBackend implements ConflictBackend {
    private final MergeService merges;
    private final ResolutionService resolutions;
    private final String who;
    private final EventBus bus;

    /**
     * @param merges      the merge queue's service (the conflict queue, change notices)
     * @param resolutions where resolutions go
     * @param bus         where the merge events come from (change notices)
     * @param who         who resolutions are recorded as ("ann in the panel")
     */
    public MergeConflictBackend(MergeService merges, ResolutionService resolutions, EventBus bus, String who) {
        this.bus = bus;
        this.merges = merges;
        this.resolutions = resolutions;
        this.who = who;
    }

    @Override
    public List<ConflictQueueRow> queue() throws PaddockException {
        List<ConflictQueueRow> rows = new ArrayList<>();
        for (MergeEntry e : merges.conflicted(null)) {
            if (e.attempt().worktree() == null) {
                continue; // aborted: nothing to resolve until it is retried
            }
            int files = 0;
            int safe = 0;
            int human = 0;
            for (MergeStore.StoredConflict c : merges.conflictFiles(e.id())) {
                if (c.resolved()) {
                    continue;
                }
                files++;
                int[] counts = hunkCounts(c);
                safe += counts[0];
                human += counts[1];
            }
            if (files == 0) {
                continue; // every file resolved: the queue is finishing it
            }
            MergeEntry.Attempt a = e.attempt();
            Instant since = a.stepStartedAt() != null
                    ? a.stepStartedAt()
                    : a.startedAt() != null ? a.startedAt() : e.request().enqueuedAt();
            rows.add(new ConflictQueueRow(
                    e.id(), e.request().sandboxId(), e.request().branch(), files, safe, human, since));
        }
        rows.sort(java.util.Comparator.comparing(ConflictQueueRow::since));
        return rows;
    }

    /** {safe hunks, human hunks} of a stored file; a file without hunks, or of a kind only people resolve, is one human. */
    static int[] hunkCounts(MergeStore.StoredConflict c) {
        boolean humanKind;
        try {
            humanKind = FileConflictKind.valueOf(c.kind().toUpperCase(java.util.Locale.ROOT))
                    .needsHuman();
        } catch (IllegalArgumentException unknown) {
            humanKind = true;
        }
        int safe = 0;
        int human = 0;
        try {
            JsonNode hunks = c.hunksJson() == null ? null : Json.mapper().readTree(c.hunksJson());
            if (hunks != null && hunks.isArray()) {
                for (JsonNode h : hunks) {
                    if (HunkClass.HUMAN
                            .name()
                            .equalsIgnoreCase(h.path("hunkClass").asText(HunkClass.HUMAN.name()))) {
                        human++;
                    } else {
                        safe++;
                    }
                }
            }
        } catch (IOException unreadable) {
            human++;
        }
        if (humanKind || safe + human == 0) {
            return new int[] {0, Math.max(1, safe + human)};
        }
        return new int[] {safe, human};
    }

    @Override
    public ConflictReport conflicts(long mergeRequestId) throws PaddockException {
        return resolutions.conflicts(mergeRequestId);
    }

    @Override
    public List<ResolvedFile> resolvedFiles(long mergeRequestId) throws PaddockException {
        return resolutions.resolvedFiles(mergeRequestId).stream()
                .map(f -> new ResolvedFile(f.path(), f.text(), f.by()))
                .toList();
    }

    @Override
    public void unresolve(long mergeRequestId, String path, String who) throws PaddockException {
        resolutions.unresolve(mergeRequestId, path, who);
    }

    @Override
    public Progress progress(long mergeRequestId) throws PaddockException {
        MergeEntry e = merges.get(mergeRequestId);
        MergeEntry.Attempt a = e.attempt();
        return switch (e.state()) {
            case CONFLICT ->
                new Progress(a.worktree() == null ? Stage.CLOSED : Stage.RESOLVING, a.result(), a.stepStartedAt());
            case RUNNING ->
                new Progress(Stage.FINISHING, e.step() == null ? null : e.step().id(), a.stepStartedAt());
            case MERGED -> new Progress(Stage.MERGED, a.mergeCommit(), a.finishedAt());
            default ->
                new Progress(
                        Stage.CLOSED,
                        e.state().id() + (a.result() == null ? "" : ": " + a.result()),
                        a.stepStartedAt());
        };
    }

    @Override
    public void markResolved(long mergeRequestId, String path, String resultText, String who) throws PaddockException {
        resolutions.markResolved(mergeRequestId, path, resultText, who);
    }

    @Override
    public void keepSide(long mergeRequestId, String path, Side side, String who) throws PaddockException {
        resolutions.keepSide(mergeRequestId, path, side == Side.THEIRS, who);
    }

    @Override
    public void abort(long mergeRequestId, String who) throws PaddockException {
        resolutions.abort(mergeRequestId, who);
    }

    @Override
    public Runnable onChange(Runnable callback) {
        // Every step, conflict, resolution and abort of a merge is a merge event.
        return bus.subscribe(java.util.List.of("merge."), e -> callback.run())::close;
    }

    @Override
    public String who() {
        return who;
    }
}
