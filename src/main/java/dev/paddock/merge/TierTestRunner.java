package dev.paddock.merge;

import dev.paddock.common.PaddockException;
import dev.paddock.container.DockerContainers;
import dev.paddock.container.ResourceLimits;
import dev.paddock.isolation.GitWrites;
import dev.paddock.isolation.IsolationException;
import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.IsolationRuntimes;
import dev.paddock.isolation.RunEnd;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunRef;
import dev.paddock.isolation.RunSpec;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.Tier;
import dev.paddock.store.StoreException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a merge queue entry's test command in its merge worktree in the runtime of the entry's sandbox's tier
 * ({@link TestIsolation}), with the isolation its agent got (see docs/decisions/0012-isolation-runtime.md):
 * <ul>
 *   <li><b>worktree</b> (and no sandbox): a host process in its own process group.</li>
 *   <li><b>namespace</b>: the same host run inside bubblewrap: system read-only, writable only the merge worktree,
 *       its admin directory and the object store ({@link GitWrites#OBJECTS}: no ref, so base cannot move under the
 *       queue), private {@code /tmp} with HOME in it, no network unless the sandbox was granted it, death with its
 *       parent. The environment is scrubbed as an agent's and passed through the process environment, never on the
 *       command line.</li>
 *   <li><b>container</b>: a new container from the sandbox's image with its CPU, memory, pids and open-file
 *       limits and network grant, the merge worktree at {@code /workspace} (and at its host path, for git);
 *       labelled {@code paddock.merge=<entry id>} and {@code paddock.repo}, never {@code paddock.sandbox}. Stopped
 *       at the timeout or on cancel, removed afterwards in every case.</li>
 * </ul>
 * Every tier appends the output to the entry's test log and ends with the same {@link TestRunner.Outcome}; every
 * process of a run carries the marker {@link TestRunner#RUN_MARKER}, so a killed Paddock's leftovers are found.
 */
public final class TierTestRunner {
    private static final Logger LOG = LoggerFactory.getLogger(TierTestRunner.class);

    private final IsolationRuntimes runtimes;
    private final String homeId;

    /**
     * @param runtimes the runtime of each tier (one without an engine: a container test fails, saying so)
     * @param homeId the Paddock home's id: it starts the marker of every test process ({@link TestRunner#RUN_MARKER});
     *     null: a random one, so only this runner's own processes are ever found by it
     */
    public TierTestRunner(IsolationRuntimes runtimes, String homeId) {
        this.runtimes = runtimes;
        // Without a home id, one of this runner's own: never the marker of another Paddock's tests.
        this.homeId = homeId == null || homeId.isBlank()
                ? "run-" + Long.toHexString(new java.security.SecureRandom().nextLong())
                : homeId;
    }

    /** {@link #TierTestRunner(IsolationRuntimes, String)}. */
    public static TierTestRunner create(IsolationRuntimes runtimes, String homeId) {
        return new TierTestRunner(runtimes, homeId);
    }

    /** The marker of a new run of entry {@code e}'s test: this home, the entry, and a nonce. */
    private String marker(MergeEntry e) {
        return markerPrefix(e)
                + Long.toString(System.nanoTime() & Long.MAX_VALUE, 36)
                + Integer.toString(
                        java.util.concurrent.ThreadLocalRandom.current().nextInt(1 << 30), 36);
    }

    private String markerPrefix(MergeEntry e) {
        return homeId + ":" + e.id() + ":";
    }

    /**
     * Runs {@code command} in the merge worktree {@code wt} of entry {@code e} and waits, at most {@code timeout}.
     *
     * @param repo the repository's main worktree (labels the container)
     * @param log the entry's test log (appended)
     * @param record where the running process or container is written down as soon as it started
     * @param cancelled polled every 100 ms; true stops the run
     * @throws MergeException when the test cannot be started: bwrap missing, the Docker engine does not answer,
     *     the image is missing (nothing is left running; base is not touched by any of this)
     * @throws PaddockException when the run cannot be recorded (it is stopped first)
     */
    TestRunner.Outcome run(
            TestIsolation isolation,
            MergeEntry e,
            Path repo,
            Path wt,
            String command,
            Duration timeout,
            Path log,
            TestRunRecord record,
            BooleanSupplier cancelled)
            throws PaddockException {
        IsolationRuntime runtime = isolation.tier().runtimeIn(runtimes);
        RunEnd end;
        try {
            end = runtime.runToEnd(
                    spec(isolation, e, repo, wt, command, log),
                    timeout,
                    TestRunner.GRACE,
                    cancelled,
                    ref -> record(record, ref));
        } catch (IsolationException ex) {
            throw new MergeException(
                    MergeException.Kind.FAILED,
                    "Cannot run the test command " + isolation.place(wt) + ": " + ex.getMessage(),
                    ex);
        }
        if (end.vanished()) {
            throw new MergeException(
                    MergeException.Kind.FAILED,
                    "the test's " + end.where() + " was removed by someone else before it ended");
        }
        return new TestRunner.Outcome(end.exitCode(), end.timedOut(), end.cancelled(), end.elapsed());
    }

    private RunSpec spec(TestIsolation isolation, MergeEntry e, Path repo, Path wt, String command, Path log) {
        SandboxRecord s = isolation.sandbox();
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(DockerContainers.MERGE_LABEL, Long.toString(e.id()));
        labels.put(DockerContainers.REPO_LABEL, repo.toString());
        if (s != null) {
            labels.put("paddock.merge.sandbox", s.id());
        }
        RunId id = new RunId(
                s != null ? s.id() : "merge-" + e.id(),
                "paddock-merge-" + e.id() + "-" + Long.toString(System.currentTimeMillis(), 36),
                labels,
                null,
                log,
                new RunId.Marker(TestRunner.RUN_MARKER, marker(e)));
        ResourceLimits limits =
                s == null ? null : java.util.Objects.requireNonNullElse(s.limits(), ResourceLimits.DEFAULTS);
        return new RunSpec(
                RunSpec.Kind.TASK,
                id,
                wt,
                command,
                isolation.logTitle(command),
                GitWrites.OBJECTS,
                Map.of("PADDOCK_MERGE_WORKTREE", wt.toString()),
                Map.of(),
                limits,
                isolation.network(),
                s == null ? null : s.spec().image());
    }

    private static void record(TestRunRecord record, RunRef ref) throws MergeException {
        try {
            if (ref.engineId() != null) {
                record.container(ref.engineId());
            } else {
                record.process(ref.pid(), ref.startedAt());
            }
        } catch (StoreException ex) {
            throw new MergeException(MergeException.Kind.FAILED, "Cannot record the test run: " + ex.getMessage(), ex);
        }
    }

    /**
     * Kills every test process of this home still running (found by {@link TestRunner#RUN_MARKER}): at start, before
     * the queue runs anything, whatever remains was left by a Paddock that was killed, whichever entry it tested.
     *
     * @return how many processes were signalled
     */
    int killAllLeftovers() {
        int n = endMarked(homeId + ":");
        if (n > 0) {
            LOG.info("Killed {} leftover merge test process(es) of an earlier Paddock", n);
        }
        return n;
    }

    private int endMarked(String prefix) {
        try {
            return runtimes.host().endLeftovers(TestRunner.RUN_MARKER, prefix, Map.of(), TestRunner.GRACE);
        } catch (IsolationException ex) {
            LOG.warn("Cannot look for leftover test processes: {}", ex.getMessage());
            return 0;
        }
    }

    /**
     * Ends what a killed Paddock left of an entry's test run: every process marked with the entry (host or
     * bubblewrap: children that left the process group, and a run whose pid was never recorded, included), its
     * recorded process tree (a reused pid is told apart by its start time), and for a container-tier entry every
     * container labelled with the entry (the one recorded, and one started but not yet recorded). An engine that
     * does not answer is logged: its container is then left for a person
     * ({@code docker ps --filter label=paddock.merge}).
     *
     * @param repo the repository's main worktree
     */
    void killLeftover(MergeEntry e, TestIsolation isolation, Path repo) {
        if (e.testRun().pid() != null) {
            RunRef ref = RunRef.process(e.testRun().pid(), e.testRun().startedAt());
            if (runtimes.host().remains(ref) == IsolationRuntime.Remains.ENDING) {
                try {
                    runtimes.host().stop("merge-" + e.id(), ref, TestRunner.GRACE);
                } catch (IsolationException ex) {
                    LOG.warn(
                            "Cannot kill the leftover test process {} of {}: {}",
                            e.testRun().pid(),
                            e.label(),
                            ex.getMessage());
                }
            }
        }
        int marked = endMarked(markerPrefix(e));
        if (marked > 0) {
            LOG.info("Killed {} leftover test process(es) of merge entry {}", marked, e.label());
        }
        if (e.testRun().engineId() == null && isolation.tier() != Tier.CONTAINER) {
            return;
        }
        try {
            int n = runtimes.container()
                    .endLeftovers(
                            TestRunner.RUN_MARKER,
                            markerPrefix(e),
                            Map.of(
                                    DockerContainers.MERGE_LABEL,
                                    Long.toString(e.id()),
                                    DockerContainers.REPO_LABEL,
                                    repo.toString()),
                            TestRunner.GRACE);
            if (n > 0) {
                LOG.info("Removed {} leftover test container(s) of merge entry {}", n, e.label());
            }
        } catch (IsolationException ex) {
            LOG.warn(
                    "Cannot remove the leftover test container {} of {}: {}",
                    e.testRun().engineId(),
                    e.label(),
                    ex.getMessage());
        }
    }
}
