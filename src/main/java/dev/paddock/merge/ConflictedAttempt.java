package dev.paddock.merge;

import static dev.paddock.merge.MergeChange.RESULT;
import static dev.paddock.merge.MergeChange.STEP;
import static dev.paddock.merge.MergeChange.STEP_STARTED_AT;
import static dev.paddock.merge.MergeQueue.event;

import dev.paddock.common.PaddockException;
import dev.paddock.events.EventDraft;
import dev.paddock.events.EventKinds;
import dev.paddock.merge.AttemptOutcome.Conflicted;
import dev.paddock.merge.conflict.ConflictReport;
import dev.paddock.repo.RepoRecord;
import dev.paddock.sandbox.SandboxState;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The conflict side of an attempt: a merge that conflicts goes to the conflict queue with the report of
 * {@link ConflictAnalysis} and its merge worktree kept; when the repository allows it and every hunk is safe
 * ({@link AutoResolver}), the resolutions are applied and the merge is finished as after a person's resolution.
 * Also the move back to running that starts such a finish.
 */
final class ConflictedAttempt {
    private static final Logger LOG = LoggerFactory.getLogger(ConflictedAttempt.class);

    /** Finishes a merge whose conflicts are resolved ({@link MergeAttempt#completeResolved}). */
    interface Finish {
        AttemptOutcome complete(MergeEntry resolved) throws PaddockException;
    }

    private final MergeQueue queue;
    private final MergeStore store;
    private final RepoRecord repo;
    private final Path main;
    private final MergeEntry e;

    ConflictedAttempt(MergeQueue queue, RepoRecord repo, MergeEntry e) {
        this.queue = queue;
        this.store = queue.store();
        this.repo = repo;
        this.main = repo.path();
        this.e = e;
    }

    /**
     * Records the conflicts of the running entry's merge of {@code theirs} into {@code ours} in {@code wt} and moves
     * it to the conflict queue; then resolves them automatically when it may.
     *
     * @return {@link Conflicted} when it waits for a person, else how finishing the automatic resolution ended
     */
    AttemptOutcome conflict(String ours, String theirs, Path wt, Finish finish) throws PaddockException {
        ConflictReport report = queue.analysis().classify(main, ours, theirs);
        List<String> unmerged = queue.git().unmerged(wt);
        List<MergeStore.StoredConflict> rows = ConflictRows.of(e.id(), report, unmerged);
        store.replaceConflicts(e.id(), rows);
        AutoResolver auto = new AutoResolver(store, queue.git());
        AutoResolver.Decision decision =
                auto.decide(store.settings(repo.id()), store.regenerateCommands(repo.id()), report, unmerged, wt);
        List<String> paths = rows.stream().map(MergeStore.StoredConflict::path).toList();
        String list = String.join(", ", paths);
        String sandbox = e.request().sandboxId();
        store.move(
                e.id(),
                MergeState.RUNNING,
                MergeState.CONFLICT,
                MergeChange.of(STEP, null).set(RESULT, "conflicts in " + list),
                EventDraft.of(
                        e.repositoryId(),
                        sandbox,
                        EventKinds.MERGE_CONFLICT,
                        e.label() + " conflicts with "
                                + repo.baseBranch() + " in " + rows.size() + (rows.size() == 1 ? " file: " : " files: ")
                                + list
                                + decision.note(),
                        Map.of("paths", paths, "worktree", wt.toString())));
        queue.sandboxLink()
                .move(sandbox, SandboxState.CONFLICT, sandbox + " conflicts with " + repo.baseBranch() + " in " + list);
        Conflicted waits = new Conflicted(paths, null);
        if (!decision.applies() || queue.cancelRequested(e.id())) {
            return waits;
        }
        try {
            auto.apply(store.find(e.id()).orElseThrow(), decision.files(), this::regenerate);
        } catch (PaddockException | RuntimeException ex) {
            LOG.warn("Resolving the conflicts of {} automatically failed: {}", e.label(), ex.toString());
            store.event(
                    e.id(),
                    event(
                            e,
                            EventKinds.MERGE_CONFLICT,
                            e.label() + " was not resolved automatically (" + ex.getMessage()
                                    + "); it waits for a person"));
            return waits;
        }
        return finish.complete(store.find(e.id()).orElseThrow());
    }

    /** Runs a lockfile's regenerate command in the merge worktree, in the tier of the entry's sandbox. */
    private void regenerate(MergeEntry entry, Path wt, String path, String command) throws PaddockException {
        MergeSettings st = store.settings(repo.id());
        Path log = queue.logFile(entry.id()).resolveSibling(entry.id() + "-regenerate.log");
        store.event(
                entry.id(),
                event(
                        entry,
                        EventKinds.MERGE_TESTING,
                        entry.label() + ": regenerating " + path + " with `" + command + "` (log: " + log + ")"));
        TestIsolation isolation =
                TestIsolation.of(queue.sandboxLink().find(entry.request().sandboxId()));
        TestRunner.Outcome o = queue.tests()
                .run(
                        isolation,
                        entry,
                        main,
                        wt,
                        command,
                        st.testTimeout(),
                        log,
                        new TestRunRecord(store, entry.id()),
                        () -> queue.cancelRequested(entry.id()));
        if (!o.passed()) {
            throw new MergeException(
                    MergeException.Kind.FAILED,
                    "regenerating " + path + " with `" + command + "` " + o.describe(st.testTimeout()) + " (log: " + log
                            + ")");
        }
    }

    /**
     * Moves the entry from the conflict queue back to running to finish its resolved merge (step merging). Should a
     * person have reopened a file between the last resolution and this move ({@link MergeStore#unresolve}), it goes
     * back to the conflict queue at once.
     *
     * @return the running entry, or empty when it was not in the conflict queue or a file was reopened
     */
    Optional<MergeEntry> reopen() throws PaddockException {
        if (!store.move(
                e.id(),
                MergeState.CONFLICT,
                MergeState.RUNNING,
                MergeChange.of(STEP, MergeStep.MERGING)
                        .set(STEP_STARTED_AT, store.now())
                        .set(RESULT, null),
                event(e, EventKinds.MERGE_MERGING, e.label() + ": every conflict is resolved; finishing the merge"))) {
            return Optional.empty();
        }
        if (!store.conflicts(e.id()).stream().allMatch(MergeStore.StoredConflict::resolved)) {
            store.move(
                    e.id(),
                    MergeState.RUNNING,
                    MergeState.CONFLICT,
                    MergeChange.of(STEP, null).set(RESULT, "a resolved file was reopened"),
                    event(
                            e,
                            EventKinds.MERGE_CONFLICT,
                            e.label() + ": a file was reopened; it waits for a person again"));
            return Optional.empty();
        }
        return store.find(e.id());
    }
}
