package dev.paddock.cli.thin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.paddock.api.InstanceFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The thin client's reading of the instance file agrees with {@link InstanceFile}'s (Jackson's). */
class LiveApiTest {
    @TempDir
    Path home;

    @Test
    void timesAreReadAsInstantParseReadsThem() {
        for (String t : List.of(
                "2026-12-06T14:25:41.590335206Z",
                "2026-12-06T14:25:41Z",
                "2026-12-06T14:25:41.5Z",
                "2024-02-29T23:59:59.123Z",
                "1970-01-01T00:00:00.000001Z",
                "2026-12-06T14:25:41+01:00",
                "2026-12-06T24:00:00Z",
                "2026-12-06T14:25:41.Z")) {
            assertThat(LiveApi.instant(t)).as(t).isEqualTo(Instant.parse(t));
        }
        for (String t : List.of(
                "2026-13-06T14:25:41Z",
                "2026-02-30T14:25:41Z",
                "2026-12-06T14:60:41Z",
                "2026-12-06T14:25:41.1234567890Z",
                "2026-12-06 14:25:41Z",
                "2026-12-0６T14:25:41Z",
                "yesterday")) {
            assertThatThrownBy(() -> Instant.parse(t)).as(t).isInstanceOf(DateTimeException.class);
            assertThatThrownBy(() -> LiveApi.instant(t)).as(t).isInstanceOf(DateTimeException.class);
        }
    }

    @Test
    void theInstanceFileOfALiveProcessIsFoundAsInstanceFileFindsIt() throws Exception {
        InstanceFile written = new InstanceFile(ProcessHandle.current().pid(), 41234, "serve", Instant.now());
        written.write(home.resolve("instance.json"));
        Files.writeString(home.resolve("api-token"), "abc-DEF_123\n");

        Optional<LiveApi> found = LiveApi.find(home, Map.of());

        assertThat(InstanceFile.live(home.resolve("instance.json"))).isPresent();
        assertThat(found).contains(new LiveApi(41234, "abc-DEF_123"));
        assertThat(LiveApi.find(null, Map.of("PADDOCK_HOME", home.toString()))).isEqualTo(found);
    }

    @Test
    void aStaleOrStrangeInstanceFileFindsNothing() throws Exception {
        Files.writeString(home.resolve("api-token"), "abc\n");
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        for (String json : List.of(
                "{\"pid\":" + gone.pid() + ",\"port\":41234,\"mode\":\"serve\",\"startedAt\":\"" + Instant.now()
                        + "\"}",
                // this process, but the file was written before it started: its pid was another's
                "{\"pid\":" + ProcessHandle.current().pid() + ",\"port\":41234,\"startedAt\":\"2001-01-01T00:00:00Z\"}",
                "{\"pid\":" + ProcessHandle.current().pid() + ",\"port\":\"41234\"}",
                "{\"pid\":" + ProcessHandle.current().pid() + ",\"port\":99999}",
                "{\"port\":41234}",
                "not json")) {
            Files.writeString(home.resolve("instance.json"), json);
            assertThat(LiveApi.find(home, Map.of())).as(json).isEmpty();
        }
        Files.writeString(
                home.resolve("instance.json"),
                "{\"pid\":" + ProcessHandle.current().pid() + ",\"port\":41234}");
        Files.writeString(home.resolve("api-token"), "two words\n");
        assertThat(LiveApi.find(home, Map.of())).isEmpty();
    }
}
