package dev.paddock.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.agent.TranscriptEntry.Message;
import dev.paddock.agent.TranscriptEntry.Output;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Following a real, growing agent log into its transcript, as the panel's Transcript tab and the API read it. */
class TranscriptFollowerTest {
    @TempDir
    Path tmp;

    private static String claudeStream() throws IOException {
        try (InputStream in = TranscriptFollowerTest.class.getResourceAsStream("claude-stream.jsonl")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsAGrowingLogAndKeepsSplitLinesAndCharactersWhole() throws Exception {
        Path log = tmp.resolve("agent.log");
        TranscriptFollower f = new TranscriptFollower(log, TranscriptFormat.CLAUDE_STREAM_JSON, 1 << 20);
        assertThat(f.poll().entries()).isEmpty();
        byte[] line =
                ("{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"héllo ✓\"}]}}\n")
                        .getBytes(StandardCharsets.UTF_8);
        int cut = new String(line, StandardCharsets.UTF_8).indexOf('✓') + 2; // inside the 3-byte check mark
        Files.write(log, Arrays.copyOf(line, cut));
        assertThat(f.poll().entries()).isEmpty();
        Files.write(log, Arrays.copyOfRange(line, cut, line.length), StandardOpenOption.APPEND);
        assertThat(f.poll().entries()).containsExactly(new Message("assistant", "héllo ✓", false));
        Files.writeString(log, "tail without newline", StandardOpenOption.APPEND);
        assertThat(f.poll().entries()).isEmpty();
        assertThat(f.finish().entries()).containsExactly(new Output("tail without newline"));
    }

    @Test
    void startsAgainWhenTheLogIsReplaced() throws Exception {
        Path log = tmp.resolve("agent.log");
        TranscriptFollower f = new TranscriptFollower(log, TranscriptFormat.TEXT, 1 << 20);
        Files.writeString(log, "first run, a long line\nand half a li");
        TranscriptFollower.Update first = f.poll();
        assertThat(first.reset()).isTrue();
        assertThat(first.entries()).containsExactly(new Output("first run, a long line"));

        Files.writeString(log, "retry\n");
        TranscriptFollower.Update again = f.poll();

        assertThat(again.reset()).isTrue();
        assertThat(again.entries())
                .as("the half line of the old log is gone with it")
                .containsExactly(new Output("retry"));
    }

    @Test
    void aLongLogReadInStepsGivesTheEntriesOfReadingItWhole() throws Exception {
        String stream = claudeStream();
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            many.append(stream);
        }
        Path log = Files.writeString(tmp.resolve("agent.log"), many);
        TranscriptParser whole = TranscriptFormat.CLAUDE_STREAM_JSON.newParser();
        List<TranscriptEntry> expected = new ArrayList<>(whole.feed(many.toString()));

        TranscriptFollower f = new TranscriptFollower(log, TranscriptFormat.CLAUDE_STREAM_JSON, 1L << 30);
        List<TranscriptEntry> got = new ArrayList<>();
        int steps = 0;
        do {
            got.addAll(f.poll(10_000).entries());
            steps++;
        } while (f.behind());

        assertThat(steps).isGreaterThan(many.length() / 10_000);
        assertThat(got).hasSize(expected.size()).isEqualTo(expected);
    }

    @Test
    void aLogLongerThanTheTailIsReadFromALineStartAndSaysWhatItLeftOut() throws Exception {
        Path log = tmp.resolve("agent.log");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            sb.append("line ").append(i).append('\n');
        }
        Files.writeString(log, sb);
        TranscriptFollower f = new TranscriptFollower(log, TranscriptFormat.TEXT, 100);

        TranscriptFollower.Update u = f.poll();

        assertThat(u.reset()).isTrue();
        assertThat(u.entries()).isNotEmpty().endsWith(new Output("line 999"));
        String first = ((Output) u.entries().get(0)).line();
        assertThat(u.skippedBytes()).isEqualTo(sb.indexOf(first + "\n"));
    }
}
