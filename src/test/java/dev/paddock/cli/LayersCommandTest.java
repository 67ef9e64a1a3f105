package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.Host;
import dev.paddock.api.ApiToken;
import dev.paddock.cli.StatusCommandTest.Run;
import dev.paddock.sandbox.NewSandbox;
import dev.paddock.sandbox.SandboxRecord;
import dev.paddock.sandbox.SandboxState;
import dev.paddock.sandbox.Tier;
import dev.paddock.settings.PaddockHome;
import dev.paddock.testing.AgentEnvironment;
import dev.paddock.testing.TempRepo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock layers} and its subcommands against a real running Paddock ({@link Host}), a real repository and a
 * real namespace sandbox; and the routes' refusal of everyone but Paddock's own token.
 */
class LayersCommandTest {
    @TempDir
    Path tmp;

    Path home;
    TempRepo repo;
    Host host;

    @BeforeEach
    void start() throws Exception {
        home = tmp.resolve("home");
        repo = TempRepo.init(tmp.resolve("repo"));
        repo.excludeWorktreesDir();
        repo.commitFile(".gitignore", "node_modules/\n", "Ignore the dependencies");
        repo.commitFile("vendor/lib.txt", "tracked\n", "Vendor a library");
        repo.write("node_modules/pkg/index.js", "module.exports = 1;\n");
        host = Host.start(PaddockHome.resolve(home, Map.of()), "serve");
    }

    @AfterEach
    void stop() {
        host.close();
    }

    @Test
    void setRefreshAndListWhatASandboxChanged() throws Exception {
        Run nothing = layers("--repo", repo.dir().toString());
        Run tracked = layers("set", "--repo", repo.dir().toString(), "vendor");
        Run escape = layers("set", "--repo", repo.dir().toString(), "../outside");
        Run notIgnored = layers("set", "--repo", repo.dir().toString(), "build");
        Run set = layers("set", "--repo", repo.dir().toString(), "node_modules");
        Run refresh = layers("refresh", "--repo", repo.dir().toString());

        assertThat(nothing.out()).contains("share no folders");
        assertThat(tracked.exit()).as(tracked.describe()).isEqualTo(1);
        assertThat(tracked.err()).contains("git tracks files in vendor");
        assertThat(notIgnored.exit()).isEqualTo(1);
        assertThat(notIgnored.err()).contains("git does not ignore build: an agent's git add -A would commit");
        assertThat(escape.exit()).isEqualTo(1);
        assertThat(escape.err()).contains("has a \"..\" in it");
        assertThat(set.exit()).as(set.describe()).isZero();
        assertThat(set.out()).contains("Shared folders: node_modules", "Generation:     none yet");
        assertThat(refresh.exit()).as(refresh.describe()).isZero();
        assertThat(refresh.out()).contains("Generation:     1, built ");

        SandboxRecord s = host.wiring()
                .sandboxService()
                .create(NewSandbox.custom(
                                repo.dir(),
                                "Add a dependency",
                                "echo 2 > node_modules/pkg/index.js && echo new > node_modules/added.js")
                        .tier(Tier.NAMESPACE)
                        .maxRetries(0)
                        .build());
        awaitDone(s.id());

        Run changes = layers("changes", s.id());
        Run json = layers("changes", s.id(), "--json");

        assertThat(changes.exit()).as(changes.describe()).isZero();
        assertThat(changes.out()).isEqualTo("A node_modules/added.js\nM node_modules/pkg/index.js\n");
        assertThat(json.json().get("changes").findValuesAsText("kind")).containsExactly("ADDED", "MODIFIED");

        Run none = layers("set", "--repo", repo.dir().toString(), "--none");
        assertThat(none.exit()).as(none.describe()).isZero();
        assertThat(repo.dir().resolve(".worktrees/.shared/gen-1"))
                .as("pinned by the sandbox")
                .isDirectory();
        host.wiring().sandboxService().remove(s.id(), dev.paddock.sandbox.RemoveMode.FORCE, true, "the test");
        host.wiring().layers().reclaim(repo.dir());
        assertThat(repo.dir().resolve(".worktrees/.shared/gen-1"))
                .as("no sandbox uses it")
                .doesNotExist();
    }

    @Test
    void aSandboxTokenIsRefused403AndNoTokenIs401OnEveryLayerRoute() throws Exception {
        SandboxRecord s = host.wiring()
                .sandboxService()
                .create(NewSandbox.custom(repo.dir(), "Wait", "sleep 30")
                        .maxRetries(0)
                        .build());
        String sandboxToken = AgentEnvironment.awaitToken(host.wiring().sandboxes(), s.id());
        String body = "{\"repo\": \"" + repo.dir() + "\", \"folders\": [\"node_modules\"], \"setupCommand\":"
                + " \"touch /tmp/pwned\"}";

        for (String token : new String[] {sandboxToken, null}) {
            List<HttpResponse<String>> answers = List.of(
                    call("GET", "/v1/layers?repo=" + repo.dir(), null, token),
                    call("PUT", "/v1/layers", body, token),
                    call("POST", "/v1/layers/refresh", body, token),
                    call("GET", "/v1/layers/changes?sandbox=" + s.id(), null, token));
            int expected = token == null ? 401 : 403;
            assertThat(answers)
                    .allSatisfy(r -> assertThat(r.statusCode()).as(r.body()).isEqualTo(expected));
        }
        assertThat(host.wiring().layers().status(repo.dir()).folders()).isEmpty();
        assertThat(layers("changes", s.id()).out())
                .isEqualTo(s.id() + " is not a namespace sandbox: only namespace sandboxes see shared folders.\n");
        HttpResponse<String> own = call(
                "PUT",
                "/v1/layers",
                body,
                ApiToken.read(home.resolve("api-token")).value());
        assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
        host.wiring().sandboxService().stop(s.id(), "the test");
    }

    private Run layers(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "--home";
        all[1] = home.toString();
        all[2] = "layers";
        System.arraycopy(args, 0, all, 3, args.length);
        return paddock(all);
    }

    private void awaitDone(String id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        SandboxRecord r = host.wiring().sandboxService().find(id);
        while (r.state() != SandboxState.DONE) {
            assertThat(System.nanoTime())
                    .as(
                            "%s is done; now %s: %s",
                            id, r.state().id(), host.wiring().sandboxService().logTail(id))
                    .isLessThan(deadline);
            Thread.sleep(100);
            r = host.wiring().sandboxService().find(id);
        }
    }

    private HttpResponse<String> call(String method, String path, String body, String token) throws Exception {
        String port = host.apiPort() + "";
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
