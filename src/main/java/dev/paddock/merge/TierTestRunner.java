package dev.paddock.merge;

import dev.paddock.common.PrivateFiles;
import dev.paddock.common.PaddockException;
import dev.paddock.container.ContainerExit;
import dev.paddock.container.ContainerRunEnd;
import dev.paddock.container.DockerContainers;
import dev.paddock.sandbox.AgentLauncher;
import dev.paddock.sandbox.BubblewrapCommand;
import dev.paddock.sandbox.ContainerAgents;
import dev.paddock.sandbox.GitWrites;
import dev.paddock.sandbox.MarkedProcesses;
import dev.paddock.sandbox.ProcessTree;
import dev.paddock.sandbox.SandboxException;
import dev.paddock.sandbox.Tier;
import dev.paddock.sandbox.WorktreeRun;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a merge queue entry's test command in its merge worktree in the tier of the entry's sandbox
 * ({@link TestIsolation}), with the isolation its agent got:
 * <ul>
 *   <li><b>worktree</b> (and no sandbox): a host process in its own process group ({@link TestRunner}).</li>
 *   <li><b>namespace</b>: the same host run, inside bubblewrap built by the sandbox package's
 *       {@link BubblewrapCommand#inWorktree}: system read-only, writable only the merge worktree, its admin
 *       directory and the object store ({@link GitWrites#OBJECTS}: no ref, so base cannot move under the queue),
 *       private {@code /tmp} with HOME in it, no network unless the sandbox was granted it, death with its
 *       parent. The environment is scrubbed as an agent's ({@link AgentLauncher#keptEnvironment()}) and passed
 *       through the process environment, never on the command line.</li>
 *   <li><b>container</b>: a new container from the sandbox's image with its CPU, memory, pids and open-file
 *       limits and network grant, the merge worktree at {@code /workspace} (and at its host path, for git), via
 *       {@link ContainerAgents#runToEnd}; labelled {@code paddock.merge=<entry id>} and {@code paddock.repo}, never
 *       {@code paddock.sandbox}. Stopped at the timeout or on cancel, removed afterwards in every case.</li>
 * </ul>
 * Every tier appends the output to the entry's test log and ends with the same {@link TestRunner.Outcome}.
 */
public final class TierTestRunner {
    private static final Logger LOG = LoggerFactory.getLogger(TierTestRunner.class);
    /** Where the merge worktree appears in a container (as an agent's worktree does). */
    static final String WORKSPACE = "/workspace";

    private final TestRunner host;
    private final BubblewrapCommand bubblewrap;
    private final ContainerAgents containers;
    private final String homeId;

    /**
     * @param host runs host and bubblewrap processes
     * @param bubblewrap builds the namespace tier's command line
     * @param containers runs container-tier tests ({@link ContainerAgents#none()}: such a test fails, saying so)
     * @param homeId the Paddock home's id, which starts every test's marker (see {@link #create})
     */
    public TierTestRunner(TestRunner host, BubblewrapCommand bubblewrap, ContainerAgents containers, String homeId) {
        this.host = host;
        this.bubblewrap = bubblewrap;
        this.containers = containers;
        // Without a home id, one of this runner's own: never the marker of another Paddock's tests.
        this.homeId = homeId == null || homeId.isBlank()
                ? "run-" + Long.toHexString(new java.security.SecureRandom().nextLong()) : homeId;
    }

    /**
     * A runner with the machine's setsid, {@code bwrap} from the PATH, and {@code containers}.
     *
     * @param homeId the Paddock home's id: it starts the marker of every test process ({@link TestRunner#RUN_MARKER});
     *     null: a random one, so only this runner's own processes are ever found by it
     */
    public static TierTestRunner create(ContainerAgents containers, String homeId) {
        return new TierTestRunner(TestRunner.create(), new BubblewrapCommand("bwrap"), containers, homeId);
    }

    /** The marker of a new run of entry {@code e}'s test: this home, the entry, and a nonce. */
    private String marker(MergeEntry e) {
        return markerPrefix(e) + Long.toString(System.nanoTime() & Long.MAX_VALUE, 36)
                + Integer.toString(java.util.concurrent.ThreadLocalRandom.current().nextInt(1 << 30), 36);
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
    TestRunner.Outcome run(TestIsolation isolation, MergeEntry e, Path repo, Path wt, String command, Duration timeout,
                           Path log, TestRunRecord record, BooleanSupplier cancelled) throws PaddockException {
        return switch (isolation.tier()) {
            case WORKTREE -> host.run(wt, command, marker(e), timeout, log, record::process, cancelled);
            case NAMESPACE -> inBubblewrap(isolation, e, wt, command, timeout, log, record, cancelled);
            case CONTAINER -> inContainer(isolation, e, repo, wt, command, timeout, log, record, cancelled);
        };
    }

    private TestRunner.Outcome inBubblewrap(TestIsolation isolation, MergeEntry e, Path wt, String command,
                                            Duration timeout,
                                            Path log, TestRunRecord record, BooleanSupplier cancelled)
            throws MergeException {
        List<String> argv;
        try {
            argv = bubblewrap.inWorktree(wt, GitWrites.OBJECTS, isolation.network(), List.of("/bin/sh", "-c", command));
        } catch (IOException ex) {
            throw new MergeException(MergeException.Kind.FAILED, "Cannot run the test command in bubblewrap: "
                    + ex.getMessage(), ex);
        }
        Map<String, String> env = AgentLauncher.keptEnvironment();
        env.putIfAbsent("LANG", "C.UTF-8");
        env.put("TERM", "dumb");
        env.put("PADDOCK_MERGE_WORKTREE", wt.toString());
        return host.run(wt, argv, env, command + "  [" + isolation.describe() + "]", marker(e), timeout, log,
                record::process, cancelled);
    }

    private TestRunner.Outcome inContainer(TestIsolation isolation, MergeEntry e, Path repo, Path wt, String command,
                                           Duration timeout, Path log, TestRunRecord record, BooleanSupplier cancelled)
            throws PaddockException {
        String name = "paddock-merge-" + e.id() + "-" + Long.toString(System.currentTimeMillis(), 36);
        WorktreeRun run = new WorktreeRun(isolation.sandbox(), wt, command, name,
                Map.of(DockerContainers.MERGE_LABEL, Long.toString(e.id()), DockerContainers.REPO_LABEL, repo.toString(),
                        "paddock.merge.sandbox", isolation.sandbox().id()),
                Map.of("PADDOCK_MERGE_WORKTREE", WORKSPACE));
        header(log, "=== " + Instant.now() + " in " + wt + ": " + command + "  [" + isolation.describe() + "]");
        ContainerRunEnd end;
        try {
            end = containers.runToEnd(run, log, timeout, TestRunner.GRACE, cancelled, id -> {
                try {
                    record.container(id);
                } catch (dev.paddock.store.StoreException ex) {
                    throw new MergeException(MergeException.Kind.FAILED, "Cannot record the test run: "
                            + ex.getMessage(), ex);
                }
            });
        } catch (SandboxException ex) {
            TestRunner.note(log, "=== " + ex.getMessage());
            throw new MergeException(MergeException.Kind.FAILED, "Cannot run the test command in a container: "
                    + ex.getMessage(), ex);
        }
        if (end.timedOut()) {
            TestRunner.note(log, "=== killed after the timeout of " + timeout.toMillis() + " ms; container "
                    + DockerContainers.shortId(end.containerId()) + " removed");
            return new TestRunner.Outcome(null, true, false, end.elapsed());
        }
        if (end.cancelled()) {
            return new TestRunner.Outcome(null, false, true, end.elapsed());
        }
        ContainerExit exit = end.exit();
        if (exit.code() == null) {
            throw new MergeException(MergeException.Kind.FAILED, "the test's container "
                    + DockerContainers.shortId(end.containerId()) + " was removed by someone else before it ended");
        }
        if (exit.killedForMemory()) {
            TestRunner.note(log, "=== killed: " + exit.outOfMemoryText());
        } else if (exit.outOfMemory()) {
            TestRunner.note(log, "=== " + exit.processKilledText().replace("sandbox", "test's container"));
        }
        TestRunner.note(log, "=== exit code " + exit.code());
        return new TestRunner.Outcome(exit.code().intValue(), false, false, end.elapsed());
    }

    private static void header(Path log, String line) throws MergeException {
        try {
            PrivateFiles.append(log, line + "\n");
        } catch (IOException ex) {
            throw new MergeException(MergeException.Kind.FAILED, "Cannot write the test log " + log + ": "
                    + ex.getMessage(), ex);
        }
    }

    /**
     * Kills every test process of this home still running (found by {@link TestRunner#RUN_MARKER}): at start, before
     * the queue runs anything, whatever remains was left by a Paddock that was killed, whichever entry it tested.
     *
     * @return how many processes were signalled
     */
    int killAllLeftovers() {
        int n = MarkedProcesses.kill(TestRunner.RUN_MARKER, homeId + ":", TestRunner.GRACE);
        if (n > 0) {
            LOG.info("Killed {} leftover merge test process(es) of an earlier Paddock", n);
        }
        return n;
    }

    /**
     * Ends what a killed Paddock left of an entry's test run: every process marked with the entry (host or
     * bubblewrap: children that left the process group, and a run whose pid was never recorded, included), its
     * recorded process tree (a reused pid is told apart by its start time), and for a container-tier entry every container labelled with the entry
     * (the one recorded, and one started but not yet recorded). An engine that does not answer is logged: its
     * container is then left for a person ({@code docker ps --filter label=paddock.merge}).
     *
     * @param repo the repository's main worktree
     */
    void killLeftover(MergeEntry e, TestIsolation isolation, Path repo) {
        if (e.testPid() != null && ProcessTree.isAlive(e.testPid(), e.testPidStartedAt())) {
            ProcessTree.kill(e.testPid(), TestRunner.GRACE);
        }
        int marked = MarkedProcesses.kill(TestRunner.RUN_MARKER, markerPrefix(e), TestRunner.GRACE);
        if (marked > 0) {
            LOG.info("Killed {} leftover test process(es) of merge entry {}", marked, e.label());
        }
        if (e.testContainer() == null && isolation.tier() != Tier.CONTAINER) {
            return;
        }
        try {
            int n = containers.removeLabelled(DockerContainers.MERGE_LABEL, Long.toString(e.id()), repo.toString(),
                    TestRunner.GRACE);
            if (n > 0) {
                LOG.info("Removed {} leftover test container(s) of merge entry {}", n, e.label());
            }
        } catch (SandboxException ex) {
            LOG.warn("Cannot remove the leftover test container {} of {}: {}", e.testContainer(), e.label(),
                    ex.getMessage());
        }
    }
}
