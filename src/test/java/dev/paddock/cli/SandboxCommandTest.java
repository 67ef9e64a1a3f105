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
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock sandbox new|list|stop|retry|rm} and {@code paddock heartbeat}, run in-process through
 * {@link Paddock#run} (or as child processes where the environment matters) against a real
 * {@code paddock serve} process, real repositories and real agents. The agents here run the JVM's
 * {@code paddock heartbeat} by its path (on their PATH, {@code paddock} is the sandbox's own small script,
 * which writes the heartbeat file; SandboxLifecycleTest and NamespaceTierTest cover that one).
 */
class SandboxCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path shared;

    private static Path home;
    private static ChildJvm serve;
    /** The test's launcher of this build's {@code paddock} (a JVM). */
    private static String paddock;

    private static SandboxClient client;

    @TempDir
    Path tmp;

    private TempRepo repo;

    @BeforeAll
    static void startServer() throws Exception {
        home = shared.resolve("home");
        Path bin = paddockScript(shared.resolve("bin"));
        paddock = quote(bin.resolve("paddock").toString());
        serve = ChildJvm.start(
                shared.resolve("serve-out"),
                Map.of("PATH", bin + ":" + System.getenv("PATH")),
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve"));
        serve.awaitStdout("Paddock serving on 127.0.0.1:", WAIT);
        client = new SandboxClient(ApiClient.discover(home.resolve("instance.json"), home.resolve("api-token"))
                .orElseThrow());
    }

    @AfterAll
    static void stopServer() {
        serve.close();
    }

    @BeforeEach
    void makeRepository() {
        repo = TempRepo.init(tmp.resolve("repo"));
    }

    /** Agents outlive the server (a restart adopts them): stop every one this test left running. */
    @AfterEach
    void stopAgents() throws Exception {
        for (SandboxView s : client.list(null)) {
            if (List.of("pending", "running", "retrying").contains(s.state())) {
                client.stop(s.id(), "the test's clean-up");
            }
        }
    }

    @Test
    void newListStopAndRetryDriveASandboxThroughTheRunningServer() throws Exception {
        Run created = sandbox(
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Write the docs",
                "--cmd",
                "sleep 300",
                "--branch",
                "docs/write",
                "--lease-minutes",
                "5",
                "--retries",
                "0");

        assertThat(created.exit()).as(created.describe() + serve.report()).isZero();
        String id = created.out().lines().findFirst().orElseThrow().replaceAll("Created sandbox (\\S+) .*", "$1");
        assertThat(id).matches("write-docs-\\d{8}-\\d{3}");
        Path worktree = repo.dir().resolve(".worktrees").resolve(id).resolve("docs/write");
        assertThat(created.out())
                .isEqualTo("Created sandbox " + id + " (worktree tier); Paddock starts its agent now.\n"
                        + "  branch    docs/write (from main at " + repo.head().substring(0, 8) + ")\n"
                        + "  worktree  " + worktree + "\n");
        assertThat(worktree).isDirectory();

        Run json = sandbox(
                "new", "--repo", repo.dir().toString(), "--task", "Check the links", "--cmd", "sleep 300", "--json");

        assertThat(json.exit()).as(json.describe()).isZero();
        JsonNode second = json.json();
        assertThat(second.get("branch").asText()).isEqualTo("agent/check-links");
        assertThat(second.get("leaseMs").asLong()).isEqualTo(15 * 60_000L);
        String other = second.get("id").asText();
        SandboxView first = awaitSandbox(id, s -> s.state().equals("running"));
        assertThat(first.leaseMs()).isEqualTo(5 * 60_000L);
        assertThat(first.maxRetries()).isZero();

        Run list = sandbox("list", "--repo", repo.dir().toString());
        Run listJson = sandbox("list", "--repo", worktree.toString(), "--json");

        assertThat(list.exit()).as(list.describe()).isZero();
        assertThat(list.out()).startsWith("ID").contains(id).contains(other).contains("docs/write");
        assertThat(listJson.json().get("sandboxes").findValuesAsText("id")).containsExactly(other, id);

        Run stop = sandbox("stop", id);
        Run stopAgain = sandbox("stop", id);

        assertThat(stop.exit()).as(stop.describe()).isZero();
        assertThat(stop.out()).startsWith("Stopped " + id + "; it is awaiting_human");
        assertThat(client.list(repo.dir()).stream()
                        .filter(s -> s.id().equals(id))
                        .findFirst()
                        .orElseThrow()
                        .state())
                .isEqualTo("awaiting_human");
        assertThat(stopAgain.exit()).isEqualTo(1);
        assertThat(stopAgain.err())
                .isEqualTo("paddock: " + id + " is awaiting_human, not running: there is nothing" + " to stop.\n");

        Run retry = sandbox("retry", id);

        assertThat(retry.exit()).as(retry.describe()).isZero();
        assertThat(retry.out()).isEqualTo("Retrying " + id + " (run 2).\n");
        assertThat(awaitSandbox(id, s -> s.state().equals("running") && s.iteration() == 2)
                        .pid())
                .isNotNull();
    }

    @Test
    void removalSaysWhichIgnoredFilesGoWithTheWorktreeInItsPlanAndItsOutput() throws Exception {
        java.nio.file.Files.writeString(
                repo.dir().resolve(".git/info/exclude"), "build/\n", java.nio.file.StandardOpenOption.APPEND);
        Run created = sandbox(
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Build it",
                "--cmd",
                "mkdir -p build/classes && echo a > build/classes/A.class && echo jar > build/app.jar",
                "--json");
        assertThat(created.exit()).as(created.describe()).isZero();
        String id = created.json().get("id").asText();
        awaitSandbox(id, s -> s.state().equals("done"));

        dev.paddock.sandbox.RemovalPlan plan = client.removalPlan(id);

        assertThat(plan.ignored().files()).as("GET /v1/sandboxes/{id}/removal").isGreaterThanOrEqualTo(2);
        assertThat(plan.ignored().folders()).contains("build/");
        Run rm = sandbox("rm", id);

        assertThat(rm.exit()).as(rm.describe()).isZero();
        assertThat(rm.out())
                .isEqualTo("Removed " + id + " (closed); that also deleted "
                        + plan.ignored().summary() + " (git ignores them).\n");
        assertThat(rm.out()).contains(" ignored files in ").contains("build/");
    }

    @Test
    void badInputIsRefusedWithTheServersMessageAndExitCode1() throws Exception {
        Run badBranch = sandbox(
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Bad",
                "--cmd",
                "true",
                "--branch",
                "no spaces allowed");
        Run badId = sandbox("new", "--repo", repo.dir().toString(), "--task", "Bad", "--cmd", "true", "--id", "a/../b");
        Run emptyCmd = sandbox("new", "--repo", repo.dir().toString(), "--task", "Bad", "--cmd", "");
        Run ghost = sandbox("rm", "ghost");
        Run both = sandbox("rm", "ghost", "--commit", "--force");

        assertThat(badBranch.exit()).isEqualTo(1);
        assertThat(badBranch.err())
                .isEqualTo("paddock: \"no spaces allowed\" is not a valid branch name"
                        + " (git check-ref-format refuses it).\n");
        assertThat(badId.exit()).isEqualTo(1);
        assertThat(badId.err()).startsWith("paddock: \"a/../b\" is not a valid sandbox id");
        assertThat(emptyCmd.exit()).isEqualTo(1);
        assertThat(emptyCmd.err()).startsWith("paddock: The agent command is empty");
        assertThat(ghost.exit()).isEqualTo(1);
        assertThat(ghost.err()).isEqualTo("paddock: No sandbox ghost.\n");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("--commit", "--force").contains("mutually exclusive");
        assertThat(repo.dir().resolve(".worktrees")).doesNotExist();
        assertThat(client.list(repo.dir())).isEmpty();
    }

    @Test
    void anUnknownAgentOrACommandWithAPresetIsBadUsageWithExitCode2() throws Exception {
        Run unknown = sandbox("new", "--repo", repo.dir().toString(), "--task", "Bad", "--agent", "cursor");
        Run cmdWithPreset = sandbox(
                "new", "--repo", repo.dir().toString(), "--task", "Bad", "--agent", "claude", "--cmd", "claude -p hi");
        Run neither = sandbox("new", "--repo", repo.dir().toString(), "--task", "Bad");
        Run modelWithCustom =
                sandbox("new", "--repo", repo.dir().toString(), "--task", "Bad", "--cmd", "true", "--model", "gpt-5");

        assertThat(unknown.exit()).as(unknown.describe()).isEqualTo(2);
        assertThat(unknown.err())
                .contains("Invalid value for option '--agent': 'cursor' is not one of claude, codex,"
                        + " gemini, aider, custom");
        assertThat(cmdWithPreset.exit()).as(cmdWithPreset.describe()).isEqualTo(2);
        assertThat(cmdWithPreset.err())
                .contains("--cmd is for the custom agent only: Paddock builds the claude"
                        + " agent's command line itself. Leave out --cmd, or use --agent custom --cmd CMD.");
        assertThat(neither.exit()).as(neither.describe()).isEqualTo(2);
        assertThat(neither.err())
                .contains("Missing --cmd: the custom agent runs a command line of your own. Give"
                        + " --cmd CMD, or pick an agent with --agent claude|codex|gemini|aider|custom.");
        assertThat(modelWithCustom.exit()).as(modelWithCustom.describe()).isEqualTo(2);
        assertThat(modelWithCustom.err()).contains("--model is for an agent preset");
        Run engineOfAWorktree = sandbox(
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Bad",
                "--cmd",
                "true",
                "--tier",
                "worktree",
                "--engine",
                "build");
        assertThat(engineOfAWorktree.exit()).as(engineOfAWorktree.describe()).isEqualTo(2);
        assertThat(engineOfAWorktree.err())
                .contains("--engine and --engine-label are for the container tier, not --tier worktree");
        assertThat(repo.dir().resolve(".worktrees")).doesNotExist();
        assertThat(client.list(repo.dir())).isEmpty();
    }

    @Test
    void aCustomAgentGetsItsTaskInPaddockTaskAndListsAsCustom() throws Exception {
        Run created = sandbox(
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Echo 'this' task",
                "--cmd",
                "printf 'task=%s\\n' \"$PADDOCK_TASK\"",
                "--json");

        assertThat(created.exit()).as(created.describe()).isZero();
        String id = created.json().get("id").asText();
        assertThat(created.json().get("agent").asText()).isEqualTo("custom");
        assertThat(created.json().get("model").isNull()).isTrue();
        awaitSandbox(id, s -> s.state().equals("done"));
        assertThat(client.list(repo.dir()))
                .singleElement()
                .satisfies(s -> assertThat(s.agent()).isEqualTo("custom"));
        Run transcript = sandbox("transcript", id);
        assertThat(transcript.exit()).as(transcript.describe()).isZero();
        assertThat(transcript.out()).contains("task=Echo 'this' task\n");
        Run status = paddock(
                "--home", home.toString(), "status", "--repo", repo.dir().toString(), "--json");
        assertThat(status.json().get("sandboxes").findValuesAsText("agent")).containsExactly("custom");
    }

    @Test
    void anAgentReportsProgressWithPaddockHeartbeat() throws Exception {
        Run created = sandbox(
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Compile things",
                "--json",
                "--cmd",
                paddock + " heartbeat compiling — step 1 && sleep 300");
        String id = created.json().get("id").asText();

        SandboxView beat = awaitSandbox(id, s -> "compiling — step 1".equals(s.progress()));

        assertThat(beat.state()).isEqualTo("running");
        assertThat(beat.lastHeartbeatAt()).isNotNull();
        assertThat(beat.leaseExpiresAt()).isEqualTo(beat.lastHeartbeatAt().plusMillis(beat.leaseMs()));
        assertThat(awaitLog(id, "Heartbeat sent for " + id + ".")).isNotEmpty();
    }

    @Test
    void anAgentThatCannotReachTheApiLeavesItsProgressInTheHeartbeatFile() throws Exception {
        // As in a namespace sandbox without network: the API's address answers nothing.
        Run created = sandbox(
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Offline work",
                "--json",
                "--cmd",
                "PADDOCK_API=http://127.0.0.1:9 " + paddock + " heartbeat offline, 40 % && sleep 300");
        String id = created.json().get("id").asText();

        SandboxView beat = awaitSandbox(id, s -> "offline, 40 %".equals(s.progress()));

        assertThat(beat.lastHeartbeatAt()).isNotNull();
        Path file = repo.dir().resolve(".worktrees").resolve(id).resolve(".paddock/heartbeat");
        assertThat(Files.readString(file)).isEqualTo("offline, 40 %\nseq 1\n");
        assertThat(awaitLog(id, "(Paddock reads it)."))
                .contains("Paddock's API at http://127.0.0.1:9 does not answer")
                .contains("wrote the progress to " + file + " instead (Paddock reads it).");
    }

    @Test
    void heartbeatOutsideASandboxSaysWhatIsMissingAndExits1() throws Exception {
        Map<String, String> bare = new HashMap<>();
        for (String v : List.of("PADDOCK_API", "PADDOCK_TOKEN", "PADDOCK_SANDBOX_ID", "PADDOCK_HEARTBEAT_FILE")) {
            bare.put(v, null);
        }
        Map<String, String> unreachable = new HashMap<>(bare);
        unreachable.putAll(
                Map.of("PADDOCK_API", "http://127.0.0.1:9", "PADDOCK_TOKEN", "t", "PADDOCK_SANDBOX_ID", "x"));

        try (ChildJvm nothing = heartbeat(bare, "hello");
                ChildJvm noFile = heartbeat(unreachable, "hello")) {
            assertThat(nothing.waitFor(WAIT)).isEqualTo(1);
            assertThat(nothing.stderr())
                    .isEqualTo("paddock: paddock heartbeat runs inside a sandbox: PADDOCK_API,"
                            + " PADDOCK_TOKEN and PADDOCK_SANDBOX_ID (or PADDOCK_HEARTBEAT_FILE) are not set. Paddock sets"
                            + " them for every agent it starts.\n");
            assertThat(noFile.waitFor(WAIT)).isEqualTo(1);
            assertThat(noFile.stderr())
                    .startsWith("paddock: Paddock's API at http://127.0.0.1:9 does not answer")
                    .endsWith("; and PADDOCK_HEARTBEAT_FILE is not set, so the heartbeat was not recorded.\n");
        }
    }

    @Test
    void commandsThatNeedTheSupervisorSayWhenNoPaddockIsRunning() throws Exception {
        Path idle = tmp.resolve("idle-home");
        String expected = "paddock: No Paddock is running for " + idle + ": start the panel (paddock) or the server"
                + " (paddock serve).\n";

        List<Run> runs = List.of(
                paddock(
                        "--home",
                        idle.toString(),
                        "sandbox",
                        "new",
                        "--repo",
                        repo.dir().toString(),
                        "--task",
                        "T",
                        "--cmd",
                        "true"),
                paddock("--home", idle.toString(), "sandbox", "stop", "some-id"),
                paddock("--home", idle.toString(), "sandbox", "retry", "some-id"),
                paddock("--home", idle.toString(), "sandbox", "rm", "some-id", "--force"));

        assertThat(runs).allSatisfy(r -> {
            assertThat(r.exit()).as(r.describe()).isEqualTo(1);
            assertThat(r.err()).isEqualTo(expected);
            assertThat(r.out()).isEmpty();
        });
        assertThat(repo.dir().resolve(".worktrees")).doesNotExist();

        Run list = paddock(
                "--home",
                idle.toString(),
                "sandbox",
                "list",
                "--repo",
                repo.dir().toString());
        assertThat(list.exit())
                .as("list reads the store itself: " + list.describe())
                .isZero();
        assertThat(list.out())
                .isEqualTo("No open sandboxes in " + repo.dir().toAbsolutePath().normalize() + ".\n");
    }

    @Test
    void aFanOutMakesASandboxPerAgentAndCountInOneGroupThatListAndStatusShow() throws Exception {
        Run created = sandbox(
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Compare the approaches",
                "--agents",
                "custom:3",
                "--cmd",
                "echo \"$PADDOCK_SANDBOX_ID\"; exit 0",
                "--retries",
                "0");

        assertThat(created.exit()).as(created.describe()).isZero();
        String group = created.out()
                .lines()
                .findFirst()
                .orElseThrow()
                .replaceAll("^Created 3 sandboxes in the group (\\S+); Paddock starts their agents now\\.$", "$1");
        assertThat(group).matches("compare-approaches-\\d{8}-\\d{3}");
        assertThat(created.out())
                .containsPattern(group + "-custom-2\\s+custom\\s+worktree\\s+" + "agent/compare-approaches-custom-2\n");
        Run listJson = sandbox("list", "--repo", repo.dir().toString(), "--json");
        assertThat(listJson.exit()).as(listJson.describe()).isZero();
        JsonNode list = listJson.json().get("sandboxes");
        assertThat(list.findValuesAsText("group")).containsExactly(group, group, group);
        assertThat(list.findValuesAsText("id"))
                .containsExactlyInAnyOrder(group + "-custom-1", group + "-custom-2", group + "-custom-3");
        for (String id : list.findValuesAsText("id")) {
            awaitSandbox(id, s -> s.state().equals("done"));
        }
        Run status = paddock(
                "--home", home.toString(), "status", "--repo", repo.dir().toString(), "--json");
        assertThat(status.json().get("sandboxes").findValuesAsText("group")).containsExactly(group, group, group);

        // The same id again: refused before anything is made, with the server's message.
        Run again = sandbox(
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Again",
                "--agents",
                "custom:2",
                "--cmd",
                "true",
                "--id",
                group);
        assertThat(again.exit()).as(again.describe()).isEqualTo(1);
        assertThat(again.err()).contains("The fan-out's sandbox " + group + "-custom-1 exists already");
        assertThat(client.list(repo.dir())).hasSize(3);
    }

    @Test
    void anAgentsExtraFlagsAreSetShownAndClearedFromTheCommandLine() {
        Run set = sandbox(
                "flags",
                "--repo",
                repo.dir().toString(),
                "claude",
                "--",
                "--max-turns",
                "30",
                "--append-system-prompt",
                "Answer in one line.");
        assertThat(set.exit()).as(set.describe()).isZero();
        assertThat(set.out())
                .isEqualTo("Sandboxes of claude in " + repo.dir() + " run with the extra flags"
                        + " --max-turns 30 --append-system-prompt 'Answer in one line.' from their next run on.\n");
        Run shown = sandbox("flags", "--repo", repo.dir().toString());
        assertThat(shown.out()).isEqualTo("claude: --max-turns 30 --append-system-prompt 'Answer in one line.'\n");

        Run refused = sandbox("flags", "--repo", repo.dir().toString(), "claude", "--", "--settings", "x.json");
        assertThat(refused.exit()).as(refused.describe()).isEqualTo(1);
        assertThat(refused.err()).contains("\"--settings\" cannot be an extra flag of claude");
        Run custom = sandbox("flags", "--repo", repo.dir().toString(), "custom", "--", "-x");
        assertThat(custom.exit()).isEqualTo(1);
        assertThat(custom.err()).contains("The custom agent takes no extra flags");

        Run cleared = sandbox("flags", "--repo", repo.dir().toString(), "claude", "--clear");
        assertThat(cleared.exit()).as(cleared.describe()).isZero();
        assertThat(sandbox("flags", "--repo", repo.dir().toString(), "claude").out())
                .isEqualTo("claude: no extra flags\n");
        Run both = sandbox("flags", "--repo", repo.dir().toString(), "claude", "--clear", "--", "-x");
        assertThat(both.exit()).isEqualTo(2);
    }

    @Test
    void theContainerImageOfARepositoryIsSetAndClearedFromTheCommandLine() {
        Run set = sandbox("image", "--repo", repo.dir().toString(), "paddock-test:git");
        assertThat(set.exit()).as(set.describe()).isZero();
        assertThat(set.out()).isEqualTo("Container sandboxes of " + repo.dir() + " run in paddock-test:git.\n");

        Run cleared = sandbox("image", "--repo", repo.dir().toString(), "--clear");
        assertThat(cleared.exit()).as(cleared.describe()).isZero();
        assertThat(cleared.out()).startsWith("Container sandboxes of " + repo.dir() + " have no image now");

        Run neither = sandbox("image", "--repo", repo.dir().toString());
        assertThat(neither.exit()).isEqualTo(2);
        assertThat(neither.err()).contains("Give an IMAGE, or --clear.");
    }

    // --- helpers ---------------------------------------------------------------------------------------

    private static Run sandbox(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "--home";
        all[1] = home.toString();
        all[2] = "sandbox";
        System.arraycopy(args, 0, all, 3, args.length);
        return paddock(all);
    }

    private ChildJvm heartbeat(Map<String, String> env, String progress) {
        return ChildJvm.start(
                tmp.resolve("heartbeat-out"), env, Paddock.class.getName(), List.of("heartbeat", progress));
    }

    /** Polls the server until sandbox {@code id} satisfies {@code condition}; returns it. */
    private static SandboxView awaitSandbox(String id, Predicate<SandboxView> condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        SandboxView last = null;
        while (System.nanoTime() < deadline) {
            last = client.list(null).stream()
                    .filter(s -> s.id().equals(id))
                    .findFirst()
                    .orElse(null);
            if (last != null && condition.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("sandbox " + id + " never got there; last seen: " + last + "\nlog:\n"
                + readOrEmpty(home.resolve("logs/sandboxes").resolve(id + ".log")) + serve.report());
    }

    /** Waits until the agent's log contains {@code text} (the agent writes it after the server saw its work). */
    private static String awaitLog(String id, String text) throws InterruptedException {
        Path log = home.resolve("logs/sandboxes").resolve(id + ".log");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!readOrEmpty(log).contains(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the log of " + id + " never said \"" + text + "\":\n" + readOrEmpty(log));
            }
            Thread.sleep(50);
        }
        return readOrEmpty(log);
    }

    /**
     * A {@code paddock} command for agents: a script running {@code java -cp <the test class path>
     * dev.paddock.Paddock "$@"}.
     */
    private static Path paddockScript(Path bin) throws IOException {
        Files.createDirectories(bin);
        Path script = bin.resolve("paddock");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(
                script,
                "#!/bin/sh\nexec " + quote(java) + " -XX:TieredStopAtLevel=1 -Xshare:auto -cp "
                        + quote(System.getProperty("java.class.path")) + " " + Paddock.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
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
