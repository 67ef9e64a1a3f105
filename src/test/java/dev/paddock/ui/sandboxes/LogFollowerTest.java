package dev.paddock.ui.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Following a real log file as an agent appends to it. */
class LogFollowerTest {
    @TempDir
    Path temp;

    private void append(Path file, byte[] bytes) throws IOException {
        Files.write(file, bytes, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private void append(Path file, String text) throws IOException {
        append(file, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aMissingFileIsAnEmptyLogUntilItAppears() throws IOException {
        Path log = temp.resolve("agent.log");
        LogFollower f = new LogFollower(log);
        assertThat(f.poll()).isEqualTo(new LogFollower.Chunk(true, ""));
        assertThat(f.poll()).isEqualTo(new LogFollower.Chunk(false, ""));

        append(log, "started\n");
        assertThat(f.poll()).isEqualTo(new LogFollower.Chunk(false, "started\n"));
    }

    @Test
    void laterPollsReturnOnlyWhatWasAppended() throws IOException {
        Path log = temp.resolve("agent.log");
        append(log, "one\n");
        LogFollower f = new LogFollower(log);
        assertThat(f.poll()).isEqualTo(new LogFollower.Chunk(true, "one\n"));
        assertThat(f.poll().text()).isEmpty();

        append(log, "two\nthr");
        assertThat(f.poll()).isEqualTo(new LogFollower.Chunk(false, "two\nthr"));
        append(log, "ee\n");
        assertThat(f.poll()).isEqualTo(new LogFollower.Chunk(false, "ee\n"));
    }

    @Test
    void aLongLogStartsWithItsTailAtALineStart() throws IOException {
        Path log = temp.resolve("agent.log");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            sb.append("line ").append(i).append('\n');
        }
        append(log, sb.toString());

        LogFollower.Chunk c = new LogFollower(log).poll();

        assertThat(c.reset()).isTrue();
        assertThat(c.text().length()).isLessThanOrEqualTo(LogFollower.TAIL_BYTES);
        assertThat(c.text()).startsWith("line ").endsWith("line 19999\n");
        String first = c.text().substring(0, c.text().indexOf('\n'));
        assertThat(sb.toString()).contains("\n" + first + "\n");
    }

    @Test
    void aCharacterSplitBetweenTwoWritesComesOutWhole() throws IOException {
        Path log = temp.resolve("agent.log");
        byte[] e = "é".getBytes(StandardCharsets.UTF_8); // two bytes
        append(log, "caf");
        LogFollower f = new LogFollower(log);
        f.poll();

        append(log, new byte[] {e[0]});
        assertThat(f.poll().text()).isEmpty();
        append(log, new byte[] {e[1]});
        append(log, " ✓\n");
        assertThat(f.poll().text()).isEqualTo("é ✓\n");
    }

    @Test
    void aLogThatWasReplacedStartsOver() throws IOException {
        Path log = temp.resolve("agent.log");
        append(log, "old run with a long line\n");
        LogFollower f = new LogFollower(log);
        f.poll();

        Files.writeString(log, "new\n");
        assertThat(f.poll()).isEqualTo(new LogFollower.Chunk(true, "new\n"));
    }

    @Test
    void theTextOnScreenKeepsTheNewestLinesFromALineStart() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; sb.length() <= SandboxDetailsViewModel.MAX_LOG_CHARS; i++) {
            sb.append("output line ").append(i).append('\n');
        }
        String kept = SandboxDetailsViewModel.trim(sb.toString());

        assertThat(kept.length()).isLessThan(SandboxDetailsViewModel.MAX_LOG_CHARS);
        assertThat(kept).startsWith("output line ").endsWith(sb.substring(sb.lastIndexOf("output line")));
        assertThat(SandboxDetailsViewModel.trim("short\n")).isEqualTo("short\n");
    }
}
