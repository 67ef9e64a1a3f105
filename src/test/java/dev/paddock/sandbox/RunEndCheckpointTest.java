package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Wiring;
import dev.paddock.checkpoint.Checkpoint;
import dev.paddock.checkpoint.CheckpointService;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An agent without turns of its own (a custom command) gets a checkpoint when its run ends, if it changed files. */
class RunEndCheckpointTest {
    @TempDir
    Path tmp;

    TempRepo repo;
    Wiring wiring;

    @BeforeEach
    void open() throws Exception {
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.commitFile("a.txt", "alpha\n", "Files");
        wiring = Wiring.open(PaddockHome.resolve(tmp.resolve("home"), Map.of()));
        wiring.setApiUrl("http://127.0.0.1:1");
    }

    @AfterEach
    void close() {
        wiring.close();
    }

    @Test
    void aCustomCommandsLastChangesAreCheckpointedWhenItsRunEnds() throws Exception {
        SandboxRecord s = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Write", "echo last > out.txt")
                        .maxRetries(0)
                        .build());
        SandboxRecord quiet = wiring.sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Read only", "cat a.txt")
                        .maxRetries(0)
                        .build());

        awaitState(s.id());
        awaitState(quiet.id());

        // Taken before the sandbox left running: there as soon as it is done.
        List<Checkpoint> list = wiring.checkpoints().list(s.id());
        assertThat(list).extracting(Checkpoint::message).containsExactly(CheckpointService.RUN_ENDED);
        assertThat(list.get(0).changes().added()).containsExactly("out.txt");
        assertThat(wiring.checkpoints().list(quiet.id()))
                .as("nothing changed, no checkpoint")
                .isEmpty();
    }

    private void awaitState(String id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (wiring.sandboxService().find(id).state() != SandboxState.DONE) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            wiring.supervisor().tick();
            Thread.sleep(100);
        }
    }
}
