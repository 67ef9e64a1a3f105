package dev.paddock.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Host;
import dev.paddock.common.Json;
import dev.paddock.diff.ChangeKind;
import dev.paddock.diff.DiffOptions;
import dev.paddock.diff.FileChange;
import dev.paddock.diff.FilePatch;
import dev.paddock.diff.SandboxDiff;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.TempRepo;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The diff routes over real HTTP, against a real running Paddock ({@link Host} in this JVM) and a real repository;
 * the sandbox's agent only sleeps while the test changes its worktree.
 */
class DiffApiTest {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    static Path shared;

    private static Host host;
    private static String token;
    private static DiffClient client;

    @BeforeAll
    static void start() throws Exception {
        PaddockHome home = PaddockHome.resolve(shared.resolve("home"), Map.of());
        host = Host.start(home, "serve");
        token = ApiToken.read(home.tokenFile()).value();
        client = new DiffClient(
                ApiClient.discover(home.instanceFile(), home.tokenFile()).orElseThrow());
    }

    @AfterAll
    static void stop() throws Exception {
        for (SandboxRecord s : host.wiring().sandboxService().list(null)) {
            if (s.state() == dev.paddock.sandbox.SandboxState.RUNNING
                    || s.state() == dev.paddock.sandbox.SandboxState.PENDING
                    || s.state() == dev.paddock.sandbox.SandboxState.RETRYING) {
                host.wiring().sandboxService().stop(s.id(), "the test's clean-up");
            }
        }
        host.close();
    }

    @Test
    void theRoutesAnswerTheFileListAFilesHunksAndThePatch() throws Exception {
        SandboxRecord s = sandbox("api-ok-001");
        Path wt = s.workspace().worktree();
        TempRepo.write(wt, "a.txt", "alpha\nbeta\n");
        String commit = TempRepo.commitAll(wt, "Add beta");
        TempRepo.write(wt, "ws.txt", "one  two\n");
        TempRepo.write(wt, "new.txt", "untracked\n");

        HttpResponse<String> list = get("/v1/sandboxes/api-ok-001/diff");
        HttpResponse<String> file = get("/v1/sandboxes/api-ok-001/diff/file?path=" + enc("a.txt"));
        HttpResponse<String> patch = get("/v1/sandboxes/api-ok-001/diff/patch");
        HttpResponse<String> noWs = get("/v1/sandboxes/api-ok-001/diff?ignoreWhitespace=true");
        HttpResponse<String> one = get("/v1/sandboxes/api-ok-001/diff?commit=" + commit);

        assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
        JsonNode d = Json.mapper().readTree(list.body());
        assertThat(d.get("baseCommit").asText()).isEqualTo(s.workspace().baseCommit());
        assertThat(d.get("files"))
                .extracting(f -> f.get("path").asText())
                .containsExactly("a.txt", "new.txt", "ws.txt");
        assertThat(d.at("/commits/0/subject").asText()).isEqualTo("Add beta");
        assertThat(file.statusCode()).as(file.body()).isEqualTo(200);
        assertThat(Json.mapper()
                        .readTree(file.body())
                        .at("/hunks/0/lines/1/text")
                        .asText())
                .isEqualTo("beta");
        assertThat(patch.statusCode()).isEqualTo(200);
        assertThat(patch.headers().firstValue("Content-Type")).contains("text/plain; charset=utf-8");
        assertThat(patch.body())
                .isEqualTo(host.wiring().diffs().patch("api-ok-001", DiffOptions.whole()))
                .startsWith("diff --git a/a.txt b/a.txt\n");
        assertThat(Json.mapper().readTree(noWs.body()).get("files")).hasSize(2);
        assertThat(Json.mapper().readTree(one.body()).get("files")).hasSize(1);

        SandboxDiff typed = client.diff("api-ok-001", DiffOptions.whole());
        FilePatch typedFile = client.file("api-ok-001", "new.txt", new DiffOptions(true, null));
        assertThat(typed.files())
                .extracting(FileChange::kind)
                .containsExactly(ChangeKind.MODIFIED, ChangeKind.ADDED, ChangeKind.MODIFIED);
        assertThat(typed.commits().get(0).time()).isNotNull();
        assertThat(typedFile.hunks().get(0).lines()).hasSize(1);
        assertThat(client.patch("api-ok-001", new DiffOptions(false, commit)))
                .contains("+beta")
                .doesNotContain("new.txt");

        // A file asked at the list's snapshot shows that state, whatever the agent wrote since.
        TempRepo.write(wt, "a.txt", "alpha\nbeta\ngamma\n");
        String snapshot = d.get("snapshot").asText();
        HttpResponse<String> then =
                get("/v1/sandboxes/api-ok-001/diff/file?path=" + enc("new.txt") + "&snapshot=" + snapshot);
        assertThat(then.statusCode()).as(then.body()).isEqualTo(200);
        assertThat(client.file("api-ok-001", "a.txt", DiffOptions.whole().at(snapshot))
                        .file()
                        .added())
                .isEqualTo(1);
        assertThat(client.file("api-ok-001", "a.txt", DiffOptions.whole())
                        .file()
                        .added())
                .isEqualTo(2);
    }

    @Test
    void badRequestsGetClearErrors() throws Exception {
        SandboxRecord s = sandbox("api-bad-001");
        String onMain = TempRepo.git(repoOf(s), "rev-parse", "HEAD").strip();

        assertError(get("/v1/sandboxes/nope-001/diff"), 404, "No sandbox nope-001");
        assertError(get("/v1/sandboxes/api-bad-001/diff?commit=" + onMain), 400, "not on the branch of sandbox");
        assertError(get("/v1/sandboxes/api-bad-001/diff?commit=zzz"), 400, "No commit zzz");
        assertError(get("/v1/sandboxes/api-bad-001/diff/file?path=" + enc("../../etc/passwd")), 400, "leaves the");
        assertError(get("/v1/sandboxes/api-bad-001/diff/file?path=" + enc("/etc/passwd")), 400, "not inside");
        assertError(get("/v1/sandboxes/api-bad-001/diff/file"), 400, "say which file");
        assertError(get("/v1/sandboxes/api-bad-001/diff/file?path=a.txt"), 404, "does not touch a.txt");
        assertError(get("/v1/sandboxes/api-bad-001/diff/file?path=a.txt&snapshot=HEAD"), 400, "40 hex digits");
        assertError(
                get("/v1/sandboxes/api-bad-001/diff/file?path=a.txt&snapshot=" + "0".repeat(40)),
                404,
                "read its list of files again");
        HttpResponse<String> post = HTTP.send(
                request("/v1/sandboxes/api-bad-001/diff")
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertError(post, 405, "use GET");
        assertThatThrownBy(() -> client.diff("api-bad-001", new DiffOptions(false, onMain)))
                .isInstanceOf(ApiAnswerException.class)
                .hasMessageContaining("not on the branch");

        TempRepo.deleteTree(s.workspace().worktree());

        // The running agent may write its files there again; the folder is no git worktree any more either way.
        assertError(get("/v1/sandboxes/api-bad-001/diff"), 404, "The worktree of sandbox api-bad-001");
        assertError(get("/v1/sandboxes/api-bad-001/diff/patch"), 404, "The worktree of sandbox api-bad-001");
    }

    private static SandboxRecord sandbox(String id) throws Exception {
        TempRepo repo = TempRepo.init(shared.resolve(id));
        repo.write("a.txt", "alpha\n");
        repo.write("ws.txt", "one two\n");
        repo.commitAll("Base");
        return host.wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Change files", "sleep 120")
                        .id(id)
                        .maxRetries(0)
                        .build());
    }

    private static Path repoOf(SandboxRecord s) {
        return shared.resolve(s.id());
    }

    private static void assertError(HttpResponse<String> r, int status, String text) throws Exception {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        assertThat(Json.mapper().readTree(r.body()).get("error").asText()).contains(text);
    }

    private static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return HTTP.send(request(pathAndQuery).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.apiPort() + pathAndQuery))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
