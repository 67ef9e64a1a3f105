package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Following a real log file as an agent appends to it, as the panel's log view does (its tail as text, then what
 * was appended).
 */
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
    void aLongLogArrivesInStepsOfAtMostTheBytesAsked() throws IOException {
        Path log = temp.resolve("agent.log");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 1_000; i++) {
            sb.append("line ").append(i).append(" é\n");
        }
        append(log, sb.toString());
        LogFollower f = new LogFollower(log, 1L << 30);

        StringBuilder read = new StringBuilder();
        LogFollower.Chunk first = f.poll(1000);
        assertThat(first.reset()).isTrue();
        read.append(first.text());
        int polls = 1;
        while (f.behind()) {
            LogFollower.Chunk c = f.poll(1000);
            assertThat(c.reset()).isFalse();
            assertThat(c.text().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1001);
            read.append(c.text());
            polls++;
        }

        assertThat(read.toString()).isEqualTo(sb.toString());
        assertThat(polls).isGreaterThanOrEqualTo(sb.toString().getBytes(StandardCharsets.UTF_8).length / 1000);
        assertThat(f.skipped()).isZero();
    }

    @Test
    void theTailSaysHowMuchOfTheStartItLeftOut() throws IOException {
        Path log = temp.resolve("agent.log");
        append(log, "0123456789\nabc\ndef\n");
        LogFollower f = new LogFollower(log, 6);

        LogFollower.Chunk c = f.poll();

        // The last 6 bytes are "c\ndef\n": from the first line start in them.
        assertThat(c).isEqualTo(new LogFollower.Chunk(true, "def\n"));
        assertThat(f.skipped()).isEqualTo("0123456789\nabc\n".length());
    }

    @Test
    void anIncompleteCharacterAtTheEndComesOutAsAReplacementWhenTheWriterIsDone() throws IOException {
        Path log = temp.resolve("agent.log");
        byte[] check = "✓".getBytes(StandardCharsets.UTF_8);
        append(log, "ok ");
        append(log, new byte[] {check[0], check[1]});
        LogFollower f = new LogFollower(log);

        assertThat(f.poll().text()).isEqualTo("ok ");
        assertThat(f.finish()).isEqualTo("\uFFFD");
        assertThat(f.finish()).isEmpty();
    }
}
