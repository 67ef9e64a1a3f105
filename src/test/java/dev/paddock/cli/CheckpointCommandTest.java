package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Paddock;
import dev.paddock.api.ApiClient;
import dev.paddock.api.SandboxClient;
import dev.paddock.api.SandboxView;
import dev.paddock.cli.StatusCommandTest.Run;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock checkpoint} run by a real agent inside its sandbox (with the sandbox's own token), and
 * {@code paddock sandbox checkpoints|rollback}, against a real {@code paddock serve} process and a real repository.
 */
class CheckpointCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path shared;

    private static Path home;
    private static ChildJvm serve;
    private static String paddock;
    private static SandboxClient client;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startServer() throws Exception {
        home = shared.resolve("home");
        Path bin = shared.resolve("bin");
        Files.createDirectories(bin);
        Path script = bin.resolve("paddock");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(
                script,
                "#!/bin/sh\nexec " + quote(java) + " -XX:TieredStopAtLevel=1 -Xshare:auto -cp "
                        + quote(System.getProperty("java.class.path")) + " " + Paddock.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        paddock = quote(script.toString());
        serve = ChildJvm.start(
                shared.resolve("serve-out"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve"));
        serve.awaitStdout("Paddock serving on 127.0.0.1:", WAIT);
        client = new SandboxClient(ApiClient.discover(home.resolve("instance.json"), home.resolve("api-token"))
                .orElseThrow());
    }

    @AfterAll
    static void stopServer() throws Exception {
        for (SandboxView s : client.list(null)) {
            if (List.of("pending", "running", "retrying").contains(s.state())) {
                try {
                    client.stop(s.id(), "the test's clean-up");
                } catch (dev.paddock.api.ApiAnswerException endedMeanwhile) {
                    // it ended on its own
                }
            }
        }
        serve.close();
    }

    @Test
    void anAgentTakesACheckpointAndAPersonListsItAndRollsBackToIt() throws Exception {
        TempRepo repo = TempRepo.init(tmp.resolve("repo"));
        Run created = sandbox(
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Draft notes",
                "--json",
                "--retries",
                "0",
                "--cmd",
                "echo one > notes.txt && " + paddock + " checkpoint first draft"
                        + " && PADDOCK_SANDBOX_ID=someone-else " + paddock + " checkpoint sneaky;"
                        + " echo two > notes.txt && mkdir -p extra && echo x > extra/new.txt"
                        + " && paddock checkpoint 'second, \"quoted\" \\ back' && echo wr''itten"
                        + " && sleep 300");
        assertThat(created.exit()).as(created.describe()).isZero();
        String id = created.json().get("id").asText();
        Path wt = Path.of(created.json().get("worktreePath").asText());

        String log = awaitLog(id, "written");

        assertThat(log)
                .contains("Checkpoint 1 of " + id + ": 1 added, 0 modified, 0 deleted.")
                .contains("Checkpoint 2 of " + id + " taken.") // by the sandbox's own paddock script
                .contains("paddock: this token belongs to sandbox " + id + "; it cannot take checkpoints of"
                        + " someone-else");

        Run list = sandbox("checkpoints", id);
        Run json = sandbox("checkpoints", id, "--json");

        assertThat(list.exit()).as(list.describe()).isZero();
        String time = "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d";
        assertThat(list.out())
                .matches("  1  " + time + "  first draft  \\[1 added, 0 modified, 0 deleted\\]\n"
                        + "     A notes.txt\n"
                        + "  2  " + time + "  second, \"quoted\" \\\\ back  \\[1 added, 1 modified, 0 deleted\\]\n"
                        + "     A extra/new.txt\n"
                        + "     M notes.txt\n");
        JsonNode first = json.json().get("checkpoints").get(0);
        assertThat(first.get("number").asInt()).isEqualTo(1);
        assertThat(first.get("message").asText()).isEqualTo("first draft");
        assertThat(first.get("ref").asText()).isEqualTo("refs/paddock/checkpoints/" + id + "/1");
        assertThat(first.get("added").get(0).asText()).isEqualTo("notes.txt");

        Run rollback = sandbox("rollback", id, "1");

        assertThat(rollback.exit()).as(rollback.describe()).isZero();
        assertThat(rollback.out())
                .isEqualTo("Rolled " + id + " back to checkpoint 1: 1 restored, 1 removed.\n"
                        + "     restored notes.txt\n"
                        + "     removed extra/new.txt\n"
                        + "Its agent was stopped first; start it again with: paddock sandbox retry " + id + "\n"
                        + "Undo with: paddock sandbox rollback " + id + " 3\n");
        assertThat(wt.resolve("notes.txt")).hasContent("one");
        assertThat(wt.resolve("extra")).doesNotExist();
        assertThat(client.list(null).stream()
                        .filter(s -> s.id().equals(id))
                        .findFirst()
                        .orElseThrow()
                        .state())
                .isEqualTo("awaiting_human");
        assertThat(sandbox("checkpoints", id).out()).contains("  3  ").contains("before rollback to 1  [no change]");

        // A commit on the branch after checkpoint 1, then a rollback that resets the branch too.
        String start = TempRepo.git(wt, "rev-parse", "HEAD").strip();
        TempRepo.git(wt, "add", "-A");
        TempRepo.git(wt, "-c", "user.name=t", "-c", "user.email=t@x", "commit", "-q", "-m", "later");
        String later = TempRepo.git(wt, "rev-parse", "HEAD").strip();
        Run reset = sandbox("rollback", id, "1", "--reset-branch");

        assertThat(reset.exit()).as(reset.describe()).isZero();
        assertThat(reset.out())
                .contains("Its branch was reset from " + later.substring(0, 8) + " to " + start.substring(0, 8)
                        + " (the commits left behind are kept in checkpoint 4).\n")
                .endsWith("Undo with: paddock sandbox rollback " + id + " 4 --reset-branch\n");
        assertThat(TempRepo.git(wt, "rev-parse", "HEAD").strip()).isEqualTo(start);

        Run missing = sandbox("rollback", id, "9");
        Run unknown = sandbox("checkpoints", "nobody-20260101-001");

        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err())
                .isEqualTo("paddock: " + id + " has no checkpoint 9 (list them with: paddock sandbox" + " checkpoints "
                        + id + ").\n");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).contains("nobody-20260101-001");
    }

    @Test
    void checkpointOutsideASandboxSaysWhatIsMissingAndExits1() throws Exception {
        Map<String, String> bare = new HashMap<>();
        for (String v : List.of("PADDOCK_API", "PADDOCK_TOKEN", "PADDOCK_SANDBOX_ID", "PADDOCK_HEARTBEAT_FILE")) {
            bare.put(v, null);
        }
        try (ChildJvm outside =
                ChildJvm.start(tmp.resolve("out"), bare, Paddock.class.getName(), List.of("checkpoint", "hello"))) {
            assertThat(outside.waitFor(WAIT)).isEqualTo(1);
            assertThat(outside.stderr())
                    .isEqualTo("paddock: paddock checkpoint runs inside a sandbox: PADDOCK_API,"
                            + " PADDOCK_TOKEN and PADDOCK_SANDBOX_ID are not set. Paddock sets them for every agent it starts;"
                            + " from outside, list them with: paddock sandbox checkpoints ID.\n");
        }
    }

    private static Run sandbox(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "--home";
        all[1] = home.toString();
        all[2] = "sandbox";
        System.arraycopy(args, 0, all, 3, args.length);
        return paddock(all);
    }

    private static String awaitLog(String id, String text) throws InterruptedException {
        Path log = home.resolve("logs/sandboxes").resolve(id + ".log");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!readOrEmpty(log).contains(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "the log of " + id + " never said \"" + text + "\":\n" + readOrEmpty(log) + serve.report());
            }
            Thread.sleep(50);
        }
        return readOrEmpty(log);
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
