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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock sandbox comment|comments|approve|reject|request-changes} and {@code paddock merge config --review},
 * run in-process against a real {@code paddock serve} process (its supervisor and merge queue running) and real
 * custom agents that commit.
 */
class ReviewCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String AGENT =
            "printf 'alpha\\nBETA\\ngamma\\n' > a.txt && git add a.txt && (git commit -qm 'Shout beta' || true)";

    @TempDir
    static Path shared;

    private static Path home;
    private static ChildJvm serve;
    private static SandboxClient client;
    private static TempRepo repo;

    @BeforeAll
    static void startServer() throws Exception {
        home = shared.resolve("home");
        repo = TempRepo.init(shared.resolve("repo")).excludeWorktreesDir();
        repo.commitFile("a.txt", "alpha\nbeta\ngamma\n", "Add a.txt");
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
    static void stopServer() {
        serve.close();
    }

    private static Run run(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--home";
        all[1] = home.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return paddock(all);
    }

    /** A custom sandbox whose agent commits a change, once it is ready for review. */
    private static String readyForReview(String branch) throws Exception {
        Run created = run(
                "sandbox",
                "new",
                "--repo",
                repo.dir().toString(),
                "--task",
                "Shout",
                "--cmd",
                AGENT,
                "--branch",
                branch,
                "--retries",
                "0");
        assertThat(created.exit()).as(created.describe() + serve.report()).isZero();
        String id = created.out().lines().findFirst().orElseThrow().replaceAll("Created sandbox (\\S+) .*", "$1");
        await(id, "review");
        return id;
    }

    private static SandboxView await(String id, String state) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        SandboxView last = null;
        while (System.nanoTime() < deadline) {
            last = client.list(null).stream()
                    .filter(s -> s.id().equals(id))
                    .findFirst()
                    .orElse(null);
            if (last != null && last.state().equals(state)) {
                return last;
            }
            if (last == null && state.equals("closed")) {
                return null;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(id + " never became " + state + " (last: " + last + ")" + serve.report());
    }

    @Test
    void theReviewSettingIsRequiredByDefaultAndSetWithMergeConfig() {
        Run shown = run("merge", "config", "--repo", repo.dir().toString());
        assertThat(shown.exit()).as(shown.describe()).isZero();
        assertThat(shown.out()).contains("review        required");
        Run status = run("status", "--repo", repo.dir().toString());
        assertThat(status.exit())
                .as("the other routes answer beside the review routes: " + status.describe())
                .isZero();
        assertThat(status.out()).contains("ready for review");
        Run bad = run("merge", "config", "--repo", repo.dir().toString(), "--review", "sometimes");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("required", "auto");
    }

    @Test
    void commentListApproveAndTheMergeLands() throws Exception {
        String id = readyForReview("review/approve");
        String base = repo.git("rev-parse", "main").strip();

        Run c = run("sandbox", "comment", id, "--file", "a.txt", "--line", "2", "Not", "so", "loud");
        assertThat(c.exit()).as(c.describe()).isZero();
        assertThat(c.out()).startsWith("Comment ").contains("(a.txt:2): > BETA");
        Run general = run("sandbox", "comment", id, "Fine otherwise");
        assertThat(general.exit()).as(general.describe()).isZero();
        Run noFile = run("sandbox", "comment", id, "--line", "2", "x");
        assertThat(noFile.exit()).isEqualTo(2);
        assertThat(noFile.err()).contains("--line needs --file");

        Run list = run("sandbox", "comments", id);
        assertThat(list.exit()).as(list.describe()).isZero();
        assertThat(list.out())
                .contains("a.txt:2", "> BETA", "Not so loud", "general", "Fine otherwise", "not sent yet");
        Run json = run("sandbox", "comments", id, "--json");
        assertThat(json.exit()).as(json.describe()).isZero();
        JsonNode first = json.json().get("comments").get(0);
        assertThat(first.get("path").asText()).isEqualTo("a.txt");
        assertThat(first.get("line").asInt()).isEqualTo(2);
        assertThat(first.get("side").asText()).isEqualTo("new");
        assertThat(first.get("quoted").asText()).isEqualTo("BETA");
        assertThat(first.get("round").isNull()).isTrue();
        assertThat(repo.git("rev-parse", "main").strip())
                .as("nothing merged before approval")
                .isEqualTo(base);

        Run approve = run("sandbox", "approve", id);
        assertThat(approve.exit()).as(approve.describe()).isZero();
        assertThat(approve.out()).startsWith("Approved " + id + ": entry #");
        await(id, "merged");
        assertThat(repo.git("show", "main:a.txt")).isEqualTo("alpha\nBETA\ngamma\n");

        Run again = run("sandbox", "approve", id);
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("merged");
    }

    @Test
    void requestChangesRunsTheAgentAgainAndRejectDiscards() throws Exception {
        String id = readyForReview("review/changes");
        Run none = run("sandbox", "request-changes", id);
        assertThat(none.exit()).isEqualTo(1);
        assertThat(none.err()).contains("No comment");

        Run sent = run("sandbox", "request-changes", id, "--comment", "Add a test");
        assertThat(sent.exit()).as(sent.describe()).isZero();
        assertThat(sent.out())
                .startsWith("Sent 1 comment to " + id + " (round 1): its agent cannot resume")
                .contains(".paddock-review/review-comments.md");
        await(id, "review");
        assertThat(run("sandbox", "comments", id).out()).contains("sent in round 1");

        Run rejected = run("sandbox", "reject", id, "--comment", "Not needed after all");
        assertThat(rejected.exit()).as(rejected.describe()).isZero();
        assertThat(rejected.out()).contains("Rejected " + id, "its branch review/changes is kept");
        assertThat(repo.git("rev-parse", "--verify", "refs/heads/review/changes"))
                .isNotBlank();
    }
}
