package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.paddock.Paddock;
import dev.paddock.Wiring;
import dev.paddock.api.ApiClient;
import dev.paddock.api.SettingsClient;
import dev.paddock.cli.StatusCommandTest.Run;
import dev.paddock.events.Event;
import dev.paddock.settings.PaddockHome;
import dev.paddock.settings.SettingsStore;
import dev.paddock.testing.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code paddock config [list|get|set|reset]} run in-process through {@link Paddock#run}: on the store
 * directly when no Paddock runs, and through the API of a real {@code paddock serve} process when one does.
 */
class ConfigCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private Run config(Path home, String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "--home";
        all[1] = home.toString();
        all[2] = "config";
        System.arraycopy(args, 0, all, 3, args.length);
        return paddock(all);
    }

    /**
     * What the command said on stderr: its own lines (in tests the log goes to stderr too, and opening the
     * store logs a line; the packaged launcher logs to a file).
     */
    private static List<String> said(Run run) {
        return run.err().lines().filter(l -> l.startsWith("paddock:")).toList();
    }

    @Test
    void withoutARunningPaddockTheCommandsUseTheStoreDirectly() throws Exception {
        Path home = tmp.resolve("home");

        Run list = config(home);

        assertThat(list.exit()).as(list.describe()).isZero();
        assertThat(list.out().lines().toList()).hasSize(16);
        assertThat(list.out())
                .startsWith("NAME ")
                .contains("VALUE", "DEFAULT", "DESCRIPTION")
                .containsPattern("sandbox\\.maxRetries\\s+2 retries\\s+2 retries\\s+Automatic retries")
                .containsPattern("sandbox\\.leaseMs\\s+900000 ms\\s+900000 ms\\s+Lease of a new sandbox")
                .containsPattern("agents\\.claude\\.executable\\s+\"\"\\s+\"\"\\s+The Claude Code program");

        Run set = config(home, "set", "sandbox.maxRetries", "5");
        Run get = config(home, "get", "sandbox.maxRetries");
        Run listJson = config(home, "list", "--json");

        assertThat(set.exit()).as(set.describe()).isZero();
        assertThat(set.out()).isEqualTo("sandbox.maxRetries is now 5 retries (default 2 retries).\n");
        assertThat(get.out()).isEqualTo("5\n");
        JsonNode retries = listJson.json().get("settings").get(13);
        assertThat(retries.get("name").asText()).isEqualTo("sandbox.maxRetries");
        assertThat(retries.get("value").asText()).isEqualTo("5");
        assertThat(retries.get("isDefault").asBoolean()).isFalse();

        Run reset = config(home, "reset", "sandbox.maxRetries");

        assertThat(reset.exit()).as(reset.describe()).isZero();
        assertThat(reset.out()).isEqualTo("sandbox.maxRetries is back to its default, 2 retries.\n");
        try (Wiring wiring = Wiring.open(PaddockHome.resolve(home, Map.of()))) {
            assertThat(wiring.settings().get(SettingsStore.SANDBOX_MAX_RETRIES)).isEqualTo(2);
            String who = System.getProperty("user.name") + " via the CLI";
            assertThat(wiring.events().recent(-1, 5))
                    .extracting(Event::message)
                    .containsExactly(
                            "Setting sandbox.maxRetries reset 5 → 2 (the default) by " + who,
                            "Setting sandbox.maxRetries changed 2 → 5 by " + who);
        }
    }

    @Test
    void badValuesUnknownNamesAndBadUsageExitWithOneLineAndChangeNothing() throws Exception {
        Path home = tmp.resolve("home");

        Run bad = config(home, "set", "sandbox.killGraceMs", "-5");
        Run unknown = config(home, "set", "sandbox.lease", "5");
        Run unknownGet = config(home, "get", "nope");
        Run missing = config(home, "set", "sandbox.maxRetries");

        assertThat(bad.exit()).isEqualTo(1);
        assertThat(said(bad))
                .containsExactly("paddock: Setting sandbox.killGraceMs cannot be \"-5\": it takes a whole"
                        + " number from 0 to 600000 (ms).");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(said(unknown))
                .containsExactly("paddock: There is no setting \"sandbox.lease\". Known settings:"
                        + " agents.aider.executable, agents.claude.executable, agents.codex.executable, agents.gemini.executable,"
                        + " approval.timeoutMs, checkpoints.everySeconds, checkpoints.keep, checkpoints.retentionDays,"
                        + " events.retentionDays, layers.capMb, reconcile.intervalMs, sandbox.killGraceMs,"
                        + " sandbox.leaseMs,"
                        + " sandbox.maxRetries, ui.notifications.desktop.");
        assertThat(unknownGet.exit()).isEqualTo(1);
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("VALUE");
        try (Wiring wiring = Wiring.open(PaddockHome.resolve(home, Map.of()))) {
            assertThat(wiring.settings().all())
                    .allSatisfy(e -> assertThat(e.isDefault()).isTrue());
            assertThat(wiring.events().recent(-1, 5)).isEmpty();
        }
    }

    @Test
    void withARunningPaddockTheCommandsGoThroughItsApi() throws Exception {
        Path home = tmp.resolve("home");
        try (ChildJvm serve = ChildJvm.start(
                tmp.resolve("serve-out"),
                Map.of(),
                Paddock.class.getName(),
                List.of("--home", home.toString(), "serve"))) {
            serve.awaitStdout("Paddock serving on 127.0.0.1:", WAIT);
            SettingsClient client =
                    new SettingsClient(ApiClient.discover(home.resolve("instance.json"), home.resolve("api-token"))
                            .orElseThrow());

            // The server holds the store: a 0 exit means the answer came through the API.
            Run set = config(home, "set", "reconcile.intervalMs", "60000");
            Run get = config(home, "get", "reconcile.intervalMs", "--json");
            Run list = config(home, "list");
            Run bad = config(home, "set", "reconcile.intervalMs", "5");

            assertThat(set.exit()).as(set.describe() + serve.report()).isZero();
            assertThat(set.out()).isEqualTo("reconcile.intervalMs is now 60000 ms (default 300000 ms).\n");
            assertThat(client.get("reconcile.intervalMs").value()).isEqualTo("60000");
            assertThat(get.json().get("value").asText()).isEqualTo("60000");
            assertThat(get.json().get("defaultValue").asText()).isEqualTo("300000");
            assertThat(list.out()).containsPattern("reconcile\\.intervalMs\\s+60000 ms\\s+300000 ms");
            assertThat(bad.exit()).isEqualTo(1);
            assertThat(bad.err())
                    .isEqualTo("paddock: Setting reconcile.intervalMs cannot be \"5\": it takes a whole"
                            + " number from 10000 to 86400000 (ms).\n");
            assertThat(client.get("reconcile.intervalMs").value()).isEqualTo("60000");

            Run reset = config(home, "reset", "reconcile.intervalMs");

            assertThat(reset.exit()).as(reset.describe()).isZero();
            assertThat(client.get("reconcile.intervalMs").isDefault()).isTrue();
        }
    }
}
