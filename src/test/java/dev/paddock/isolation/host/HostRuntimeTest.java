package dev.paddock.isolation.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.isolation.GitWrites;
import dev.paddock.isolation.IsolationRuntime;
import dev.paddock.isolation.RunEnd;
import dev.paddock.isolation.RunExit;
import dev.paddock.isolation.RunId;
import dev.paddock.isolation.RunRef;
import dev.paddock.isolation.RunSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host runtime through the interface alone, with real processes: an agent run is watched, found again by a
 * runtime that did not start it (a restarted Paddock), stopped as a whole tree; a task is waited for and leaves no
 * marked process behind.
 */
class HostRuntimeTest {
    @TempDir
    Path tmp;

    private RunSpec agent(String key, String command) {
        RunId id = new RunId(
                key,
                "paddock-" + key + "-r1",
                Map.of(),
                tmp.resolve(key + "/.paddock"),
                tmp.resolve(key + ".log"),
                null);
        return new RunSpec(
                RunSpec.Kind.AGENT,
                id,
                tmp,
                command,
                "run 1 of " + key,
                GitWrites.COMMIT,
                Map.of("PADDOCK_SANDBOX_ID", key),
                Map.of("PADDOCK_API", "http://127.0.0.1:9"),
                null,
                false,
                null);
    }

    @Test
    void anAgentRunEndsWithItsExitCodeAndIsReadBackAfterARestart() throws Exception {
        IsolationRuntime runtime = new HostRuntime(HostRuntime.findSetsid());
        RunSpec spec = agent("exit3", "echo \"$PADDOCK_SANDBOX_ID $PADDOCK_API\"; exit 3");
        CountDownLatch ended = new CountDownLatch(1);

        RunRef ref = runtime.start(spec, ended::countDown);

        assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(runtime.attached(spec.id(), ref)).isTrue();
        assertThat(runtime.exitOf(spec.id(), ref, () -> {}))
                .hasValueSatisfying(e -> assertThat(e.code()).isEqualTo(3));
        assertThat(Files.readString(spec.id().log())).contains("run 1 of exit3: echo", "exit3 http://127.0.0.1:9");
        IsolationRuntime restarted = new HostRuntime(HostRuntime.findSetsid());
        assertThat(restarted.attached(spec.id(), ref)).isFalse();
        assertThat(restarted.exitOf(spec.id(), ref, () -> {}))
                .map(RunExit::code)
                .hasValue(3);
        assertThat(restarted.remains(ref)).isEqualTo(IsolationRuntime.Remains.NONE);
    }

    @Test
    void aRestartedRuntimeAdoptsARunningAgentFindsAnUnrecordedOneAndStopsItsWholeTree() throws Exception {
        IsolationRuntime first = new HostRuntime(HostRuntime.findSetsid());
        RunSpec spec = agent("sleeper", "sleep 60 & echo $! > child.tmp && mv child.tmp child.pid; wait");
        Instant before = Instant.now().minusSeconds(5);
        RunRef ref = first.start(spec, () -> {});
        Path childPid = tmp.resolve("child.pid");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!(Files.exists(childPid) && Files.exists(spec.id().pidFile())) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        long child = Long.parseLong(Files.readString(childPid).strip());

        IsolationRuntime restarted = new HostRuntime(HostRuntime.findSetsid());
        Optional<RunRef> unrecorded = restarted.unrecorded(spec.id(), before, Duration.ofMillis(200));
        assertThat(unrecorded).hasValueSatisfying(u -> assertThat(u.pid()).isEqualTo(ref.pid()));
        assertThat(restarted.attached(spec.id(), ref)).isFalse();
        assertThat(restarted.exitOf(spec.id(), ref, () -> {}))
                .as("still running")
                .isEmpty();
        assertThat(restarted.attached(spec.id(), ref)).as("adopted").isTrue();
        assertThat(restarted.remains(ref)).isEqualTo(IsolationRuntime.Remains.ENDING);

        restarted.stop(spec.id().key(), ref, Duration.ofMillis(500));

        assertThat(ProcessTree.isRunning(ref.pid())).as("the wrapper").isFalse();
        assertThat(ProcessTree.isRunning(child)).as("the agent's child").isFalse();
        assertThat(restarted.exitOf(spec.id(), ref, () -> {}))
                .hasValueSatisfying(e -> assertThat(e.code()).isNull());
    }

    @Test
    void aTaskIsWaitedForAndTakesItsMarkedProcessesWithIt() throws Exception {
        IsolationRuntime runtime = new HostRuntime(HostRuntime.findSetsid());
        String marker = "isolation-test:" + System.nanoTime();
        RunId id = new RunId(
                "task",
                "task-1",
                Map.of(),
                null,
                tmp.resolve("task.log"),
                new RunId.Marker("PADDOCK_TEST_MARK", marker));
        RunSpec spec = new RunSpec(
                RunSpec.Kind.TASK,
                id,
                tmp,
                "setsid sleep 60 >/dev/null 2>&1 & echo ran; exit 4",
                "the task",
                GitWrites.OBJECTS,
                Map.of(),
                Map.of(),
                null,
                false,
                null);
        RunRef[] started = new RunRef[1];

        RunEnd end = runtime.runToEnd(
                spec, Duration.ofSeconds(20), Duration.ofMillis(500), () -> false, r -> started[0] = r);

        assertThat(end.exitCode()).isEqualTo(4);
        assertThat(started[0].pid()).isNotNull();
        assertThat(MarkedProcesses.find("PADDOCK_TEST_MARK", marker))
                .as("the child that left the group")
                .isEmpty();
        assertThat(Files.readString(id.log())).contains(": the task", "ran", "=== exit code 4");
    }

    @Test
    void aTaskTakesTheUnmarkedProcessesLeftInItsGroupWithIt() throws Exception {
        IsolationRuntime runtime = new HostRuntime(HostRuntime.findSetsid());
        RunId id = new RunId(
                "task",
                "task-2",
                Map.of(),
                null,
                tmp.resolve("task2.log"),
                new RunId.Marker("PADDOCK_TEST_MARK", "isolation-test:" + System.nanoTime()));
        Path pidFile = tmp.resolve("child.pid");
        // A child without the marker (its environment cleared), still in the task's process group.
        RunSpec spec = new RunSpec(
                RunSpec.Kind.TASK,
                id,
                tmp,
                "env -i /bin/sleep 60 >/dev/null 2>&1 & echo $! > " + pidFile + "; exit 0",
                "the task",
                GitWrites.OBJECTS,
                Map.of(),
                Map.of(),
                null,
                false,
                null);

        RunEnd end = runtime.runToEnd(spec, Duration.ofSeconds(20), Duration.ofMillis(500), () -> false, r -> {});

        assertThat(end.exitCode()).isZero();
        long child = Long.parseLong(Files.readString(pidFile).strip());
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (ProcessTree.isRunning(child) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ProcessTree.isRunning(child))
                .as("the child left in the group")
                .isFalse();
        assertThat(ProcessTree.groupRuns(child)).isFalse();
    }

    @Test
    void theGroupOfALiveProcessRunsAndThatOfNoneDoesNot() throws Exception {
        Process p = new ProcessBuilder(HostRuntime.findSetsid(), "sleep", "30").start();
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!ProcessTree.groupRuns(p.pid()) && System.nanoTime() < deadline) {
                Thread.sleep(10); // setsid(1) makes the group a moment after the start
            }
            assertThat(ProcessTree.groupRuns(p.pid())).isTrue();
        } finally {
            p.destroyForcibly().waitFor();
        }
        assertThat(ProcessTree.groupRuns(p.pid())).isFalse();
    }

    @Test
    void aTaskPastItsTimeoutIsKilledAndSaysSo() throws Exception {
        IsolationRuntime runtime = new HostRuntime(HostRuntime.findSetsid());
        RunId id = new RunId("slow", "slow-1", Map.of(), null, tmp.resolve("slow.log"), null);
        RunSpec spec = new RunSpec(
                RunSpec.Kind.TASK,
                id,
                tmp,
                "sleep 30",
                "sleep 30",
                GitWrites.OBJECTS,
                Map.of(),
                Map.of(),
                null,
                false,
                null);

        RunEnd end = runtime.runToEnd(spec, Duration.ofMillis(300), Duration.ofMillis(200), () -> false, r -> {});

        assertThat(end.timedOut()).isTrue();
        assertThat(end.exitCode()).isNull();
        assertThat(Files.readString(id.log())).contains("=== killed after the timeout of 300 ms");
    }
}
