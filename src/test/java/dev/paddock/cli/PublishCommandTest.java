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
import dev.paddock.testing.FakeGh;
import dev.paddock.testing.TempRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock merge config --target push}, {@code paddock sandbox push} and {@code paddock sandbox pr} against a
 * real {@code paddock serve} whose sandbox commits for real; the remote is a bare repository, and gh is a fake
 * script on the server's PATH that records its arguments (the real one needs GitHub).
 */
class PublishCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    @Test
    void aPushTargetKeepsTheWorkFromTheQueueAndTheCommandsPushAndOpenThePullRequest() throws Exception {
        Path home = tmp.resolve("home");
        TempRepo repo = TempRepo.init(tmp.resolve("repo")).excludeWorktreesDir();
        Path bare = TempRepo.initBare(tmp.resolve("origin.git"), false);
        repo.git("remote", "add", "origin", bare.toString());
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path record = tmp.resolve("gh-args");
        FakeGh.install(bin, FakeGh.recording(record));
        try (ChildJvm serve = ChildJvm.start(
                tmp.resolve("serve-out"),
                Map.of("PATH", bin + ":" + System.getenv("PATH")),
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve"))) {
            serve.awaitStdout("Paddock serving on 127.0.0.1:", WAIT);

            Run config = paddock(
                    "--home",
                    home.toString(),
                    "merge",
                    "config",
                    "--repo",
                    repo.dir().toString(),
                    "--target",
                    "push",
                    "--remote",
                    "origin",
                    "--pull-request",
                    "true",
                    "--json");
            assertThat(config.exit()).as(config.describe() + serve.report()).isZero();
            JsonNode set = config.json();
            assertThat(List.of(set.get("target").asText(), set.get("remote").asText()))
                    .containsExactly("push", "origin");
            assertThat(set.get("pullRequest").asBoolean()).isTrue();
            Run bad = paddock(
                    "--home",
                    home.toString(),
                    "merge",
                    "config",
                    "--repo",
                    repo.dir().toString(),
                    "--target",
                    "github");
            assertThat(bad.exit()).isNotZero();
            assertThat(bad.err()).contains("unknown merge target \"github\": use local");
            Run shown = paddock(
                    "--home",
                    home.toString(),
                    "merge",
                    "config",
                    "--repo",
                    repo.dir().toString());
            assertThat(shown.out())
                    .contains("target        push\n")
                    .contains("remote        origin\n")
                    .contains("pull request  yes (with gh)\n");

            Run created = paddock(
                    "--home",
                    home.toString(),
                    "sandbox",
                    "new",
                    "--repo",
                    repo.dir().toString(),
                    "--task",
                    "Say hi\nin hi.txt",
                    "--cmd",
                    "printf 'hi\\n' > hi.txt && git add hi.txt && git commit -qm 'Say hi'",
                    "--retries",
                    "0",
                    "--json");
            assertThat(created.exit()).as(created.describe()).isZero();
            String id = created.json().get("id").asText();
            SandboxClient client =
                    new SandboxClient(ApiClient.discover(home.resolve("instance.json"), home.resolve("api-token"))
                            .orElseThrow());
            SandboxView done = await(client, id, "done");
            Thread.sleep(2_500); // two ticks of the merge queue
            assertThat(find(client, id).state())
                    .as("the queue does not merge a push target's work into base")
                    .isEqualTo("done");
            String tip = repo.git("rev-parse", "refs/heads/" + done.branch()).strip();

            Run push = paddock("--home", home.toString(), "sandbox", "push", id);
            assertThat(push.exit()).as(push.describe() + serve.report()).isZero();
            assertThat(push.out()).startsWith("Pushed " + done.branch() + " at " + tip.substring(0, 10) + " to origin");
            assertThat(TempRepo.open(bare).git("ls-remote", bare.toString(), "refs/heads/" + done.branch()))
                    .startsWith(tip);

            Run unknown = paddock("--home", home.toString(), "sandbox", "push", id, "--remote", "upstream");
            assertThat(unknown.exit()).isNotZero();
            assertThat(unknown.err()).contains("has no remote named \"upstream\"; its remotes: origin");

            Run pr = paddock("--home", home.toString(), "sandbox", "pr", id, "--draft");
            assertThat(pr.exit()).as(pr.describe() + serve.report()).isZero();
            assertThat(pr.out()).contains("Pull request: " + FakeGh.URL);
            assertThat(Files.readString(record))
                    .startsWith("pr\n--\ncreate\n--\n--head=" + done.branch() + "\n--\n--base=main\n--\n"
                            + "--title=Say hi\n--\n--body=")
                    .contains("- Say hi\n")
                    .endsWith("--draft\n--\n");
        }
    }

    private static SandboxView find(SandboxClient client, String id) throws Exception {
        return client.list(null).stream()
                .filter(v -> v.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    private static SandboxView await(SandboxClient client, String id, String state) throws Exception {
        long end = System.nanoTime() + WAIT.toNanos();
        SandboxView s = find(client, id);
        while (!s.state().equals(state) && System.nanoTime() < end) {
            Thread.sleep(200);
            s = find(client, id);
        }
        assertThat(s.state()).as(s.toString()).isEqualTo(state);
        return s;
    }
}
