package dev.paddock;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.api.ApiClient;
import dev.paddock.common.Json;
import dev.paddock.common.PaddockException;
import dev.paddock.events.Event;
import dev.paddock.events.EventLog;
import dev.paddock.isolation.host.ProcessTree;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxStore;
import dev.paddock.settings.PaddockHome;
import dev.paddock.store.Database;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a real {@code paddock serve} while its agent works:
 * a second {@code paddock serve} on the same home finds the sandbox in the right state — still running and
 * adopted when its agent outlived the first, failed when it died in between — and nothing on disk is lost.
 */
class KillNineRestartTest {
    private static final String ID = "restart-001";
    private static final String BRANCH = "agent/restart";
    /** Commits a file, leaves another uncommitted, says it is working, and keeps running. */
    private static final String AGENT = "echo one > one.txt && git add one.txt && git commit -q -m 'Agent: one'"
            + " && echo two > two.txt && echo working > \"$PADDOCK_HEARTBEAT_FILE\" && exec sleep 300";

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    private PaddockHome home;
    private TempRepo repo;
    private Path worktree;
    private final List<ChildJvm> servers = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        home = PaddockHome.resolve(tmp.resolve("home"), Map.of());
        repo = TempRepo.init(tmp.resolve("my repo"));
        try (Wiring w = Wiring.open(home)) {
            SandboxRecord s = w.sandboxService()
                    .create(NewSandbox.custom(repo.dir(), "keep working", AGENT)
                            .id(ID)
                            .branch(BRANCH)
                            .maxRetries(0)
                            .build());
            worktree = s.workspace().worktree();
        }
    }

    @AfterEach
    void tearDown() {
        servers.forEach(ChildJvm::close);
        agentWrappers().forEach(h -> ProcessTree.kill(h.pid(), Duration.ofMillis(200)));
    }

    @Test
    void anAgentThatOutlivesAKilledPaddockIsAdoptedByTheNextOneAndLosesNothing() throws Exception {
        ChildJvm first = serve();
        awaitStatus(first, "running", "sandbox.running");
        awaitAgentWorking(first);

        kill9(first);
        Stored killed = read();
        assertThat(killed.record().state().id()).isEqualTo("running");
        long pid = killed.record().runRef().pid();
        assertThat(ProcessTree.isAlive(pid, killed.record().runRef().startedAt()))
                .as("agent outlives Paddock")
                .isTrue();

        ChildJvm second = serve();
        awaitStatus(second, "running", "sandbox.adopted_process");
        second.close();

        Stored after = read();
        assertThat(after.record().state().id()).isEqualTo("running");
        assertThat(after.record().runRef().pid()).isEqualTo(pid);
        assertThat(ProcessTree.isAlive(pid, after.record().runRef().startedAt()))
                .isTrue();
        assertThat(after.kinds()).endsWith("sandbox.running", "sandbox.adopted_process");
        assertWorkIntact();
    }

    @Test
    void anAgentThatDiesWhilePaddockIsDownIsFailedByTheNextOneAndLosesNothing() throws Exception {
        ChildJvm first = serve();
        awaitStatus(first, "running", "sandbox.running");
        awaitAgentWorking(first);

        kill9(first);
        SandboxRecord killed = read().record();
        assertThat(ProcessTree.kill(killed.runRef().pid(), Duration.ofMillis(500)))
                .isTrue();

        ChildJvm second = serve();
        awaitStatus(second, "awaiting_human", "sandbox.failed");
        second.close();

        Stored after = read();
        assertThat(after.record().state().id()).isEqualTo("awaiting_human");
        assertThat(after.record().run().lastError()).startsWith("the agent ");
        assertThat(after.kinds().stream().filter(k -> k.startsWith("sandbox.")))
                .endsWith("sandbox.running", "sandbox.failed", "sandbox.awaiting_human");
        assertWorkIntact();
    }

    @Test
    void aKillWhileTheAgentIsBeingStartedLeavesOneAgentRunningAndAllItsWork() throws Exception {
        ChildJvm first = serve();
        awaitAgentWorking(first); // very likely before the first Paddock recorded the run (hundreds of ms here)

        kill9(first);
        ChildJvm second = serve();
        awaitStatus(second, "running", "sandbox.running");
        second.close();

        Stored after = read();
        assertThat(after.record().state().id()).isEqualTo("running");
        assertThat(ProcessTree.isAlive(
                        after.record().runRef().pid(), after.record().runRef().startedAt()))
                .isTrue();
        assertThat(after.kinds())
                .filteredOn("sandbox.running"::equals)
                .as("runs started")
                .hasSize(1);
        assertThat(agentWrappers()).as("agent processes").hasSize(1);
        assertWorkIntact();
    }

    /** Live processes whose command line names the sandbox's exit-code file: its agent wrappers. */
    private List<ProcessHandle> agentWrappers() {
        String exitFile = worktree.getParent()
                .getParent()
                .resolve(".paddock")
                .resolve("exit-code")
                .toString();
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(h -> h.info()
                        .arguments()
                        .map(a -> List.of(a).contains(exitFile))
                        .orElse(false))
                .toList();
    }

    private ChildJvm serve() {
        ChildJvm serve = ChildJvm.start(
                tmp.resolve("child"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.dir().toString(), "serve"));
        servers.add(serve);
        serve.awaitStdout("Paddock serving on", PATIENCE);
        return serve;
    }

    private void awaitAgentWorking(ChildJvm serve) {
        Path heartbeat = worktree.getParent().getParent().resolve(".paddock").resolve("heartbeat");
        serve.await(
                "the agent to commit and report",
                () -> Files.exists(heartbeat) && Files.exists(worktree.resolve("two.txt")),
                PATIENCE);
    }

    /** SIGKILL: no shutdown hook, no store close, nothing tidied. */
    private static void kill9(ChildJvm serve) throws InterruptedException {
        serve.process().destroyForcibly();
        assertThat(serve.process().waitFor(20, java.util.concurrent.TimeUnit.SECONDS))
                .isTrue();
    }

    /** Waits until the running Paddock's API shows the sandbox in {@code state}, with an event of {@code kind}. */
    private void awaitStatus(ChildJvm serve, String state, String kind) {
        serve.await(
                ID + " " + state + " with " + kind,
                () -> {
                    try {
                        Optional<ApiClient> api = ApiClient.discover(home.instanceFile(), home.tokenFile());
                        if (api.isEmpty()) {
                            return false;
                        }
                        JsonNode s = Json.mapper().readTree(api.get().status(repo.dir()));
                        boolean inState = false;
                        for (JsonNode sb : s.get("sandboxes")) {
                            inState |= sb.get("id").asText().equals(ID)
                                    && sb.get("state").asText().equals(state);
                        }
                        boolean seen = false;
                        for (JsonNode e : s.get("recentEvents")) {
                            seen |= ID.equals(e.get("sandboxId").asText())
                                    && e.get("kind").asText().equals(kind);
                        }
                        return inState && seen;
                    } catch (PaddockException | java.io.IOException e) {
                        return false;
                    }
                },
                PATIENCE);
    }

    private void assertWorkIntact() throws Exception {
        assertThat(repo.git("log", "-1", "--format=%s", BRANCH).strip()).isEqualTo("Agent: one");
        assertThat(repo.git("show", BRANCH + ":one.txt")).isEqualTo("one\n");
        assertThat(Files.readString(worktree.resolve("two.txt"), StandardCharsets.UTF_8))
                .isEqualTo("two\n");
        assertThat(TempRepo.git(worktree, "status", "--porcelain").strip()).isEqualTo("?? two.txt");
    }

    /** The sandbox and its event kinds, read from the store (no Paddock may hold it). */
    record Stored(SandboxRecord record, List<String> kinds) {}

    private Stored read() throws PaddockException {
        try (Database db = Database.open(home.databaseBase())) {
            EventLog events = new EventLog(db, Clock.systemUTC());
            SandboxRecord s =
                    new SandboxStore(db, events, Clock.systemUTC()).find(ID).orElseThrow();
            return new Stored(s, events.ofSandbox(ID).stream().map(Event::kind).toList());
        }
    }
}
