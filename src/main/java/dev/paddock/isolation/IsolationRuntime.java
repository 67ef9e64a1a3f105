package dev.paddock.isolation;

import dev.paddock.common.PaddockException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One way of running a command isolated: a host process group, bubblewrap, a container (see
 * docs/decisions/0012-isolation-runtime.md). The sandbox's supervisor and the merge queue's test runner drive every
 * tier through this alone; a new way (a remote engine, Kubernetes) is a new implementation, not a new branch in them.
 *
 * <p>A run is described by a {@link RunSpec}, named by its {@link RunId} and, once started, found by the
 * {@link RunRef} the caller records. A runtime keeps no record of its own: after a restart it attaches again to
 * the run a recorded {@link RunRef} names.
 */
public interface IsolationRuntime {
    /** Why runs cannot be started here now (shown to people), or empty when they can. */
    Optional<String> unavailable();

    /** Why {@code image} cannot be used, or empty; a runtime without images accepts any named image. */
    default Optional<String> imageProblem(String image) {
        return image == null || image.isBlank() ? Optional.of("no container image is set.") : Optional.empty();
    }

    /**
     * Whether nothing can be known of this runtime's runs now (their engine does not answer, or its return is being
     * reconciled): then nothing may be decided about them, neither start nor timeout nor kill.
     */
    default boolean stateUnknown() {
        return false;
    }

    /** Holds ({@code true}) or releases {@link #stateUnknown()} while an engine's outage is reconciled. */
    default void holdWhileReconciling(boolean hold) {}

    /**
     * A run of {@code id} that a Paddock started after {@code since} but did not live to record; older leftover runs
     * of the same key are ended (given {@code grace} to end). The {@link RunRef} may name nothing when that run has ended already (its exit code
     * file then says how).
     *
     * @throws IsolationException when the runtime cannot be asked (an engine that does not answer)
     */
    Optional<RunRef> unrecorded(RunId id, Instant since, Duration grace) throws IsolationException;

    /**
     * Starts an agent run and watches it from now on.
     *
     * @param onEnd called (on another thread) when it ends
     * @throws IsolationException when it cannot be started (nothing of it is left)
     */
    RunRef start(RunSpec spec, Runnable onEnd) throws IsolationException;

    /** Whether this runtime watches the run {@code ref} of {@code id} already (else it is taken over on next look). */
    boolean attached(RunId id, RunRef ref);

    /**
     * How the run ended, or empty while it runs. A run this runtime does not watch yet (started before a restart) is
     * attached to first.
     *
     * @param onEnd called when an attached run ends
     * @throws IsolationException when the runtime cannot be asked
     */
    Optional<RunExit> exitOf(RunId id, RunRef ref, Runnable onEnd) throws IsolationException;

    /**
     * How the run ended, asked now without attaching (one look at the engine), or empty while it runs; a run the
     * engine does not know any more has an exit without code.
     */
    Optional<RunExit> inspect(RunRef ref) throws IsolationException;

    /** What is left of a run that should be over. */
    Remains remains(RunRef ref);

    /** What is left of a run that should be over: nothing, a process tree still ending, or an object to remove. */
    enum Remains {
        NONE,
        ENDING,
        TO_REMOVE
    }

    /**
     * Stops the run and everything in it (a whole process tree, a container with its processes) before this
     * returns, and stops watching it; one that is gone already is fine.
     *
     * @throws IsolationException when it cannot be stopped (an engine that does not answer or refuses)
     */
    void stop(String key, RunRef ref, Duration grace) throws IsolationException;

    /** Forgets what it keeps of {@code key}'s runs (figures, watches): the key is gone for good. */
    default void forget(String key) {}

    /**
     * Makes the local worktree of {@code key} hold what its run has now, where the run works on a copy of it (an
     * engine on another machine); a no-op where the run works in the worktree itself. Failures are logged, never
     * thrown: a checkpoint then takes what the worktree holds.
     */
    default void syncWorkspace(String key) {}

    /**
     * The engine answers again after an outage: the workspaces of runs that ended meanwhile ({@code ended}) and of
     * runs whose bring-back failed are brought back where the runs work on a copy (an engine on another machine).
     * Failures are logged, never thrown.
     */
    default void engineBack(java.util.Collection<String> ended) {}

    /**
     * Runs a task to its end: output appended to its log, stopped after {@code timeout} or when {@code cancelled},
     * nothing of it left afterwards in any case.
     *
     * @param started told where the run is as soon as it started, so it can be recorded
     * @throws IsolationException when it cannot be started
     * @throws PaddockException what {@code started} threw (the run is stopped first)
     */
    RunEnd runToEnd(RunSpec spec, Duration timeout, Duration grace, BooleanSupplier cancelled, Started started)
            throws PaddockException;

    /** Told where a task's run is as soon as it started. */
    @FunctionalInterface
    interface Started {
        void started(RunRef ref) throws PaddockException;
    }

    /**
     * Ends what a killed Paddock left of runs: every process whose {@code marker} variable starts with
     * {@code markerPrefix}, and every object labelled with all of {@code labels}.
     *
     * @return how many were ended
     * @throws IsolationException when the engine does not answer
     */
    int endLeftovers(String marker, String markerPrefix, java.util.Map<String, String> labels, Duration grace)
            throws IsolationException;
}
