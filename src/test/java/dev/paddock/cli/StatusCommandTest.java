package dev.paddock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Paddock;
import dev.paddock.api.ApiClient;
import dev.paddock.api.InstanceFile;
import dev.paddock.common.Json;
import dev.paddock.testing.ChildJvm;
import dev.paddock.testing.TempRepo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock status}: run in-process through {@link Paddock#run} (stdout and stderr captured) on
 * real repositories, alone and while a real {@code paddock serve} process holds the store.
 */
class StatusCommandTest {
    private static final String LOCK_REASON = "agent fix-auth-20261130-001 is running";

    @TempDir
    Path tmp;

    private Path home;
    private TempRepo repo;
    private Path login;
    private Path detached;

    /** Exit code and captured output of one in-process run. */
    record Run(int exit, String out, String err) {
        JsonNode json() throws IOException {
            return Json.mapper().readTree(out);
        }

        String describe() {
            return "exit " + exit + "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
        }
    }

    @BeforeEach
    void setUp() {
        home = tmp.resolve("home");
        repo = TempRepo.init(tmp.resolve("repo"));
        login = repo.addWorktree(tmp.resolve("wt-login"), "feature/login");
        repo.lockWorktree(login, LOCK_REASON);
        detached = repo.addDetachedWorktree(tmp.resolve("wt-detached"));
    }

    /**
     * Runs Paddock in this JVM. picocli takes System.out/err when its CommandLine is built, which
     * {@link Paddock#run} does on every call, so replacing them around the call captures everything.
     */
    static synchronized Run paddock(String... args) {
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = Paddock.run(args);
        } finally {
            System.out.flush();
            System.err.flush();
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Run statusJson(Path repoPath) {
        return paddock("--home", home.toString(), "status", "--repo", repoPath.toString(), "--json");
    }

    @Test
    void statusJsonDescribesTheRepositoryAndEveryWorktree() throws Exception {
        Run run = statusJson(repo.dir());

        assertThat(run.exit()).as(run.describe()).isZero();
        JsonNode s = run.json(); // stdout is the JSON document and nothing else
        assertThat(s.at("/repository/path").asText()).isEqualTo(repo.dir().toString());
        assertThat(s.at("/repository/name").asText()).isEqualTo("repo");
        assertThat(s.at("/repository/baseBranch").asText()).isEqualTo("main");
        assertThat(s.at("/repository/registered").asBoolean()).isFalse();

        JsonNode main = worktree(s, repo.dir());
        assertThat(main.get("main").asBoolean()).isTrue();
        assertThat(main.get("branch").asText()).isEqualTo("main");
        assertThat(main.get("detached").asBoolean()).isFalse();
        assertThat(main.get("locked").asBoolean()).isFalse();
        assertThat(main.get("lockedReason").isNull()).isTrue();
        assertThat(main.get("head").asText()).isEqualTo(repo.head());
        assertThat(main.get("subject").asText()).isEqualTo("Initial commit");
        assertThat(main.get("dirty").asBoolean()).isFalse();
        JsonNode linked = worktree(s, login);
        assertThat(linked.get("main").asBoolean()).isFalse();
        assertThat(linked.get("branch").asText()).isEqualTo("feature/login");
        assertThat(linked.get("detached").asBoolean()).isFalse();
        assertThat(linked.get("locked").asBoolean()).isTrue();
        assertThat(linked.get("lockedReason").asText()).isEqualTo(LOCK_REASON);
        JsonNode det = worktree(s, detached);
        assertThat(det.get("branch").isNull()).isTrue();
        assertThat(det.get("detached").asBoolean()).isTrue();
        assertThat(det.get("locked").asBoolean()).isFalse();
        assertThat(det.get("head").asText()).isEqualTo(repo.head());
        assertThat(s.get("worktrees")).hasSize(3);
        assertThat(s.get("worktrees").get(0).get("path").asText())
                .isEqualTo(repo.dir().toString());
        s.get("counts")
                .fields()
                .forEachRemaining(
                        c -> assertThat(c.getValue().asLong()).as(c.getKey()).isZero());
        assertThat(s.get("counts")).hasSize(7);
        assertThat(s.get("counts").has("waitingForYou")).isTrue();
        assertThat(s.get("counts").has("readyForReview")).isTrue();
        assertThat(s.get("sandboxes")).isEmpty();
    }

    @Test
    void statusFromALinkedWorktreeDescribesTheWholeRepository() throws Exception {
        Run run = statusJson(login.resolve("README.md"));

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.json().at("/repository/path").asText())
                .isEqualTo(repo.dir().toString());
        assertThat(run.json().get("worktrees")).hasSize(3);
    }

    @Test
    void statusAsTextShowsEveryWorktreeForPeople() {
        Run run = paddock(
                "--home", home.toString(), "status", "--repo", repo.dir().toString());

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.out())
                .contains("Repository  " + repo.dir())
                .contains("Worktrees (3)")
                .contains("feature/login")
                .contains("(detached HEAD)")
                .contains("clean, locked")
                .contains("active 0 · pending 0");
    }

    @Test
    void statusAnswersThroughTheApiWhileAServerHoldsTheStore() throws Exception {
        Run alone = statusJson(repo.dir());
        assertThat(alone.exit()).as(alone.describe()).isZero();

        try (ChildJvm serve = ChildJvm.start(
                tmp.resolve("serve-out"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve", "--repo", repo.dir().toString()))) {
            ApiClient client = awaitApi(serve, home);
            assertThat(Json.mapper()
                            .readTree(client.get("/v1/health"))
                            .get("pid")
                            .asLong())
                    .isEqualTo(serve.pid());

            // At once: the server may still be opening the repository. This process cannot open the
            // store (the server holds it), so a 0 exit means the answer came through the API.
            Run busy = statusJson(repo.dir());

            assertThat(busy.exit()).as(busy.describe() + serve.report()).isZero();
            assertThat(busy.json().at("/repository/path").asText())
                    .isEqualTo(repo.dir().toString());
            assertThat(worktreeFacts(busy.json())).isEqualTo(worktreeFacts(alone.json()));

            serve.awaitStdout("Paddock serving on 127.0.0.1:", Duration.ofSeconds(20));
            Run watched = statusJson(login);

            assertThat(watched.exit()).as(watched.describe() + serve.report()).isZero();
            JsonNode s = watched.json();
            // Registered and numbered by the server, which watches it since `serve --repo`.
            assertThat(s.at("/repository/registered").asBoolean()).isTrue();
            assertThat(s.at("/repository/id").isIntegralNumber()).isTrue();
            assertThat(worktreeFacts(s)).isEqualTo(worktreeFacts(alone.json()));
            assertThat(s.get("recentEvents").findValuesAsText("kind")).contains("repository.registered");

            Run second = paddock("--home", home.toString(), "serve");
            assertThat(second.exit()).as(second.describe()).isEqualTo(1);
            assertThat(second.err())
                    .contains("Another Paddock (`paddock serve`, pid " + serve.pid() + ") is running on this home ("
                            + home + ") and holds its store");

            serve.close();
            assertThat(serve.isAlive()).isFalse();
            assertThat(home.resolve("instance.json"))
                    .as("removed by the shutdown hook" + serve.report())
                    .doesNotExist();
        }
    }

    @Test
    void anInstanceFileLeftByACrashedServerDoesNotGetInTheWay() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.createDirectories(home);
        new InstanceFile(gone.pid(), 9, "serve", java.time.Instant.now()).write(home.resolve("instance.json"));

        Run run = statusJson(repo.dir());

        assertThat(run.exit()).as(run.describe()).isZero();
        assertThat(run.json().get("worktrees")).hasSize(3);
    }

    @Test
    void aPathThatDoesNotExistFailsWithExitCode1AndSaysSo() {
        Run run = statusJson(Path.of("/not/a/repo"));

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("paddock: /not/a/repo does not exist.");
    }

    @Test
    void aFolderOutsideAnyRepositoryFailsWithExitCode1AndSaysItIsNotAGitRepository() throws IOException {
        Path plain = Files.createDirectories(tmp.resolve("plain folder"));

        Run run = statusJson(plain);

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("paddock: " + plain + " is not inside a git repository.");
    }

    @Test
    void aBareRepositoryFailsWithExitCode1AndSaysItIsBare() {
        Path bare = TempRepo.initBare(tmp.resolve("bare.git"), true);

        Run run = statusJson(bare);

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("paddock: " + bare + " is a bare repository");
    }

    @Test
    void aRepositoryPathWithSpacesAndNonAsciiCharactersComesBackIntact() throws Exception {
        TempRepo odd = TempRepo.init(tmp.resolve("Проекты").resolve("My Répo"));
        Path wt = odd.addWorktree(tmp.resolve("Проекты").resolve("ветка ü"), "feature/ü-login");

        Run run = statusJson(odd.dir());

        assertThat(run.exit()).as(run.describe()).isZero();
        JsonNode s = run.json();
        assertThat(s.at("/repository/path").asText())
                .isEqualTo(odd.dir().toString())
                .endsWith("Проекты/My Répo");
        assertThat(s.at("/repository/name").asText()).isEqualTo("My Répo");
        assertThat(worktree(s, wt).get("branch").asText()).isEqualTo("feature/ü-login");
    }

    @Test
    void anUnusableHomeFailsWithExitCode1NamingTheDirectoryAndTheHomeOption() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain-file"), "x");
        Path badHome = file.resolve("home");

        Run run = paddock(
                "--home", badHome.toString(), "status", "--repo", repo.dir().toString(), "--json");

        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .contains("paddock: Paddock home " + badHome + " is not writable")
                .contains("--home DIR");
    }

    @Test
    void anUnknownOptionIsABadUsageWithExitCode2() {
        Run run = paddock("--home", home.toString(), "status", "--frobnicate");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--frobnicate'").contains("Usage:");
    }

    /** Waits until the child announced its API in {@code home}'s instance.json and /v1/health answers. */
    private static ApiClient awaitApi(ChildJvm serve, Path home) {
        Path instance = home.resolve("instance.json");
        Path token = home.resolve("api-token");
        ApiClient[] found = new ApiClient[1];
        serve.await(
                "instance.json and an answer on /v1/health",
                () -> {
                    try {
                        Optional<ApiClient> c = InstanceFile.live(instance).isPresent()
                                ? ApiClient.discover(instance, token)
                                : Optional.empty();
                        if (c.isPresent()) {
                            c.get().get("/v1/health");
                            found[0] = c.get();
                            return true;
                        }
                    } catch (Exception notYet) {
                        // the token file or the port may not be there yet
                    }
                    return false;
                },
                Duration.ofSeconds(30));
        return found[0];
    }

    private static JsonNode worktree(JsonNode status, Path path) {
        for (JsonNode w : status.get("worktrees")) {
            if (w.get("path").asText().equals(path.toString())) {
                return w;
            }
        }
        throw new AssertionError("no worktree " + path + " in " + status.get("worktrees"));
    }

    /** What git says of each worktree, without what may legitimately differ between two answers. */
    private static List<String> worktreeFacts(JsonNode status) {
        List<String> out = new ArrayList<>();
        for (JsonNode w : status.get("worktrees")) {
            out.add(String.join(
                    "|",
                    w.get("path").asText(),
                    w.get("branch").asText(),
                    w.get("detached").asText(),
                    w.get("main").asText(),
                    w.get("head").asText(),
                    w.get("locked").asText(),
                    w.get("lockedReason").asText(),
                    w.get("prunable").asText()));
        }
        return out;
    }
}
