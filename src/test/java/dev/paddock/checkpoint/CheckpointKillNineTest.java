package dev.paddock.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Paddock;
import dev.paddock.Wiring;
import dev.paddock.api.ApiClient;
import dev.paddock.api.CheckpointClient;
import dev.paddock.api.CheckpointView;
import dev.paddock.api.SandboxClient;
import dev.paddock.common.PaddockException;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a real {@code paddock serve} after its agent took checkpoints with the sandbox's own
 * {@code paddock checkpoint}: a second {@code paddock serve} on the same home lists them, refs and rows, and rolls
 * back to one.
 */
class CheckpointKillNineTest {
    private static final String ID = "ckpt-kill-001";
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final String AGENT = "echo a > a.txt && paddock checkpoint one && echo b > b.txt"
            + " && paddock checkpoint two && echo b2 > b.txt && echo wr''itten && exec sleep 300";

    @TempDir
    Path tmp;

    private final List<ChildJvm> servers = new ArrayList<>();
    private PaddockHome home;

    @AfterEach
    void tearDown() throws Exception {
        ChildJvm last = servers.get(servers.size() - 1);
        if (last.isAlive()) {
            try {
                new SandboxClient(api()).stop(ID, "the test's clean-up");
            } catch (PaddockException endedMeanwhile) {
                // stopped by the rollback already
            }
        }
        servers.forEach(ChildJvm::close);
    }

    @Test
    void checkpointsTakenBeforeAKillNineAreThereAfterTheRestart() throws Exception {
        home = PaddockHome.resolve(tmp.resolve("home"), Map.of());
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        Path worktree;
        try (Wiring w = Wiring.open(home)) {
            worktree = w.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "keep checkpoints", AGENT)
                            .id(ID)
                            .branch("agent/ckpt")
                            .maxRetries(0)
                            .build())
                    .workspace()
                    .worktree();
        }
        ChildJvm first = serve();
        Path log = home.logDir().resolve("sandboxes").resolve(ID + ".log");
        first.await(
                "the agent's two checkpoints",
                () -> {
                    try {
                        return Files.exists(log) && Files.readString(log).contains("written");
                    } catch (java.io.IOException e) {
                        return false;
                    }
                },
                PATIENCE);
        List<CheckpointView> before = new CheckpointClient(api()).list(ID);
        assertThat(before).extracting(CheckpointView::message).containsExactly("one", "two");

        first.process().destroyForcibly();
        assertThat(first.process().waitFor(20, TimeUnit.SECONDS)).isTrue();
        serve();

        List<CheckpointView> after = new CheckpointClient(api()).list(ID);
        assertThat(after).isEqualTo(before);
        assertThat(repo.git("for-each-ref", "--format=%(refname)", "refs/paddock/")
                        .strip()
                        .lines()
                        .toList())
                .containsExactly("refs/paddock/checkpoints/" + ID + "/1", "refs/paddock/checkpoints/" + ID + "/2");

        CheckpointView.RollbackView back = new CheckpointClient(api()).rollback(ID, 1, "test", false);

        assertThat(back.removed()).containsExactly("b.txt");
        assertThat(worktree.resolve("a.txt")).hasContent("a");
        assertThat(worktree.resolve("b.txt")).doesNotExist();
    }

    private ChildJvm serve() {
        ChildJvm serve = ChildJvm.start(
                tmp.resolve("child" + servers.size()),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.dir().toString(), "serve"));
        servers.add(serve);
        serve.awaitStdout("Paddock serving on", PATIENCE);
        return serve;
    }

    private ApiClient api() throws PaddockException {
        return ApiClient.discover(home.instanceFile(), home.tokenFile()).orElseThrow();
    }
}
