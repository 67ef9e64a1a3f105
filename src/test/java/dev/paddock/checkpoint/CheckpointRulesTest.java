package dev.paddock.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.settings.SettingsStore;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checkpoints taken on a timer while files change, and pruned by age (a real repository and store). */
class CheckpointRulesTest {
    @TempDir
    Path tmp;

    TempRepo repo;
    Wiring wiring;
    SandboxRecord sandbox;
    Path wt;

    @BeforeEach
    void open() throws Exception {
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("a.txt", "alpha\n", "Files");
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        sandbox = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Change files", "sleep 60")
                        .id("timer-001")
                        .maxRetries(0)
                        .build());
        assertThat(wiring.fingerprints().await(sandbox.id(), Duration.ofSeconds(30)))
                .isTrue();
        wt = sandbox.workspace().worktree();
    }

    @AfterEach
    void close() {
        wiring.close();
    }

    @Test
    void theTimerCheckpointsARunningSandboxOncePerPeriodAndOnlyWhenItsFilesChanged() throws Exception {
        Instant[] now = {Instant.parse("2026-12-07T10:00:00Z")};
        Clock clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now[0];
            }
        };
        TimedCheckpoints timer = new TimedCheckpoints(
                wiring.checkpoints(), () -> List.of(sandbox.id()), () -> new CheckpointRules(0, 0, 30), clock);

        assertThat(timer.look()).as("first seen: waits a period").isZero();
        Files.writeString(wt.resolve("a.txt"), "changed\n");
        now[0] = now[0].plusSeconds(10);
        assertThat(timer.look()).as("within the period").isZero();
        now[0] = now[0].plusSeconds(20);
        assertThat(timer.look()).isEqualTo(1);
        now[0] = now[0].plusSeconds(30);
        assertThat(timer.look()).as("nothing changed since").isZero();
        Files.writeString(wt.resolve("b.txt"), "new\n");
        now[0] = now[0].plusSeconds(30);
        assertThat(timer.look()).isEqualTo(1);

        List<Checkpoint> list = wiring.checkpoints().list(sandbox.id());
        assertThat(list).extracting(Checkpoint::message).containsExactly("every 30 s", "every 30 s");
        assertThat(list.get(1).changes().added()).containsExactly("b.txt");
        assertThat(new TimedCheckpoints(
                                wiring.checkpoints(),
                                () -> List.of(sandbox.id()),
                                () -> CheckpointRules.KEEP_ALL,
                                clock)
                        .look())
                .as("off by default")
                .isZero();
    }

    @Test
    void gitGcKeepsEveryCheckpointAndARollbackStillRestoresIt() throws Exception {
        Files.writeString(wt.resolve("a.txt"), "kept through gc\n");
        Files.writeString(wt.resolve("new.txt"), "untracked\n");
        Checkpoint first = wiring.checkpoints().checkpoint(sandbox.id(), "before gc", null, "test");
        Files.writeString(wt.resolve("a.txt"), "after\n");
        Files.delete(wt.resolve("new.txt"));

        repo.git("gc", "--prune=now", "--quiet");
        repo.git("fsck", "--no-dangling");

        assertThat(repo.git("cat-file", "-t", first.commit()).strip()).isEqualTo("commit");
        wiring.checkpoints().rollback(sandbox.id(), first.number(), "test");
        assertThat(Files.readString(wt.resolve("a.txt"))).isEqualTo("kept through gc\n");
        assertThat(Files.readString(wt.resolve("new.txt"))).isEqualTo("untracked\n");
    }

    @Test
    void checkpointsOlderThanTheRetentionArePrunedButNeverTheNewest() throws Exception {
        for (int i = 1; i <= 3; i++) {
            Files.writeString(wt.resolve("a.txt"), "version " + i + "\n");
            wiring.checkpoints().checkpoint(sandbox.id(), "v" + i, null, "test");
        }
        wiring.database()
                .jdbc()
                .update(
                        "UPDATE checkpoints SET created_at = ? WHERE sandbox_id = ?",
                        Instant.now().minus(Duration.ofDays(10)),
                        sandbox.id());
        wiring.settings().put(SettingsStore.CHECKPOINTS_RETENTION_DAYS, 30);
        Files.writeString(wt.resolve("a.txt"), "version 4\n");
        wiring.checkpoints().checkpoint(sandbox.id(), "v4", null, "test");
        assertThat(wiring.checkpoints().list(sandbox.id())).hasSize(4);

        wiring.settings().put(SettingsStore.CHECKPOINTS_RETENTION_DAYS, 7);
        Files.writeString(wt.resolve("a.txt"), "version 5\n");
        wiring.checkpoints().checkpoint(sandbox.id(), "v5", null, "test");

        assertThat(wiring.checkpoints().list(sandbox.id()))
                .extracting(Checkpoint::message)
                .containsExactly("v4", "v5");
        assertThat(repo.git("for-each-ref", "--format=%(refname)", "refs/paddock/")
                        .strip()
                        .lines())
                .containsExactly("refs/paddock/checkpoints/timer-001/4", "refs/paddock/checkpoints/timer-001/5");

        // All of them old: the newest stays.
        wiring.database()
                .jdbc()
                .update(
                        "UPDATE checkpoints SET created_at = ? WHERE sandbox_id = ?",
                        Instant.now().minus(Duration.ofDays(10)),
                        sandbox.id());
        Files.writeString(wt.resolve("a.txt"), "version 6\n");
        wiring.checkpoints().checkpoint(sandbox.id(), "v6", null, "test");
        assertThat(wiring.checkpoints().list(sandbox.id()))
                .extracting(Checkpoint::message)
                .containsExactly("v6");
    }
}
