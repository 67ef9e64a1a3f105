package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heartbeats written through the heartbeat file (the real {@code paddock heartbeat} script Paddock puts on an
 * agent's PATH) right after the supervisor read the previous one are never lost, even when the file system's
 * clock, coarser than the supervisor's, stamps the new file with a time at or before the heartbeat it recorded
 * last (a file's mtime comes from the kernel's coarse clock, a few milliseconds behind the wall clock).
 */
class HeartbeatFileRaceTest {
    @TempDir
    Path tmp;

    private SandboxRig rig;
    private SandboxLayout layout;

    @BeforeEach
    void setUp() throws Exception {
        rig = new SandboxRig(tmp);
        rig.create("beat-001", "agent/beat", "sleep 300");
        rig.tickUntil("beat-001", SandboxState.RUNNING, Duration.ofSeconds(30));
        layout = new SandboxLayout(rig.repo.dir(), "beat-001", "agent/beat");
        SandboxRig.await(
                "the agent's commands",
                () -> Files.isExecutable(layout.binDir().resolve("paddock")),
                Duration.ofSeconds(10));
    }

    @AfterEach
    void tearDown() {
        rig.close();
    }

    /** Runs the script the agent has on its PATH, as the agent would. */
    private void beat(String progress) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(
                        layout.binDir().resolve("paddock").toString(), "heartbeat", progress)
                .redirectErrorStream(true);
        pb.environment().put("PADDOCK_HEARTBEAT_FILE", layout.heartbeatFile().toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(out).isZero();
    }

    /** Stamps the heartbeat file as a coarse file-system clock would: {@code at}, at or before the last heartbeat. */
    private void stamp(Instant at) throws Exception {
        Files.setLastModifiedTime(layout.heartbeatFile(), FileTime.from(at));
    }

    @Test
    void aHeartbeatWrittenJustAfterARecordedOneIsNotLost() throws Exception {
        beat("first");
        rig.tick();
        SandboxRecord first = rig.find("beat-001");
        assertThat(first.lease().progress()).isEqualTo("first");
        Instant recorded = first.lease().lastHeartbeatAt();

        beat("second");
        stamp(recorded);
        rig.tick();

        assertThat(rig.find("beat-001").lease().progress()).isEqualTo("second");
    }

    @Test
    void aHeartbeatStampedBeforeTheRecordedOneStillCounts() throws Exception {
        beat("first");
        rig.tick();
        Instant recorded = rig.find("beat-001").lease().lastHeartbeatAt();

        beat("second");
        stamp(recorded.minusMillis(4)); // one jiffy behind
        rig.tick();

        assertThat(rig.find("beat-001").lease().progress()).isEqualTo("second");
    }

    @Test
    void theSameProgressTwiceRenewsTheLeaseTwice() throws Exception {
        beat("working");
        rig.tick();
        SandboxRecord first = rig.find("beat-001");
        Thread.sleep(20);

        beat("working");
        stamp(first.lease().lastHeartbeatAt());
        rig.tick();

        SandboxRecord second = rig.find("beat-001");
        assertThat(second.lease().lastHeartbeatAt()).isAfter(first.lease().lastHeartbeatAt());
        assertThat(second.lease().expiresAt()).isAfter(first.lease().expiresAt());
    }

    @Test
    void fiftyHeartbeatsEachRightAfterARead() throws Exception {
        List<String> lost = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            rig.tick();
            SandboxRecord before = rig.find("beat-001");
            String progress = "step " + i;
            beat(progress);
            if (before.lease().lastHeartbeatAt() != null) {
                stamp(before.lease().lastHeartbeatAt());
            }
            rig.tick();
            if (!progress.equals(rig.find("beat-001").lease().progress())) {
                lost.add(progress);
            }
        }
        assertThat(lost).as("heartbeats lost").isEmpty();
    }

    @Test
    void aFileThatDidNotChangeIsNoHeartbeat() throws Exception {
        beat("once");
        rig.tick();
        SandboxRecord first = rig.find("beat-001");
        Thread.sleep(20);

        rig.tick();
        rig.tick();

        assertThat(rig.find("beat-001").lease().lastHeartbeatAt())
                .isEqualTo(first.lease().lastHeartbeatAt());
        assertThat(Map.of("progress", rig.find("beat-001").lease().progress())).containsEntry("progress", "once");
    }

    @Test
    void aFileThatAppearsAfterALookWithoutOneCountsWhateverItsTime() throws Exception {
        rig.tick(); // no file yet
        rig.store.heartbeat("beat-001", "api 1");
        Instant api = rig.find("beat-001").lease().lastHeartbeatAt();

        beat("file 1");
        stamp(api.minusSeconds(1));
        rig.tick();

        assertThat(rig.find("beat-001").lease().progress()).isEqualTo("file 1");
    }

    @Test
    void afterARestartTheFileTakenBeforeIsNotTakenAgain() throws Exception {
        beat("once");
        rig.tick();
        Instant taken = rig.find("beat-001").lease().lastHeartbeatAt();
        stamp(taken); // as fresh as it can be
        Thread.sleep(20);

        Supervisor restarted = rig.newSupervisor();
        restarted.tick();
        restarted.tick();

        assertThat(rig.find("beat-001").lease().lastHeartbeatAt()).isEqualTo(taken);
    }

    @Test
    void afterARestartAFileWrittenJustAfterAnApiHeartbeatCounts() throws Exception {
        beat("file 1");
        rig.tick();
        rig.store.heartbeat("beat-001", "api 2");
        Instant api = rig.find("beat-001").lease().lastHeartbeatAt();
        beat("file 2");
        stamp(api.minusMillis(4)); // one jiffy behind

        rig.newSupervisor().tick();

        assertThat(rig.find("beat-001").lease().progress()).isEqualTo("file 2");
    }

    @Test
    void afterARestartAnOlderFileDoesNotHideANewerApiHeartbeat() throws Exception {
        beat("file 1");
        rig.tick();
        rig.store.heartbeat("beat-001", "api 2");
        Instant api = rig.find("beat-001").lease().lastHeartbeatAt();
        stamp(api.minusSeconds(1));

        Supervisor restarted = rig.newSupervisor();
        restarted.tick();
        restarted.tick();

        SandboxRecord now = rig.find("beat-001");
        assertThat(now.lease().progress()).isEqualTo("api 2");
        assertThat(now.lease().lastHeartbeatAt()).isEqualTo(api);
    }
}
