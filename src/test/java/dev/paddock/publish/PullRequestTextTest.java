package dev.paddock.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.agent.Transcript;
import dev.paddock.agent.TranscriptEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

class PullRequestTextTest {
    @Test
    void theLastAssistantMessageWithTextIsTheOneQuoted() {
        Transcript t = new Transcript(List.of(
                new TranscriptEntry.Message("user", "Do it", false),
                new TranscriptEntry.Message("assistant", "First I look.", false),
                new TranscriptEntry.ToolCall("1", "Bash", "{}"),
                new TranscriptEntry.Message("assistant", "Done: the greeting is in hello.txt.", false),
                new TranscriptEntry.Message("assistant", "  ", false),
                new TranscriptEntry.Output("=== run 1 ended ===")));

        assertThat(PullRequestText.lastAssistantMessage(t)).isEqualTo("Done: the greeting is in hello.txt.");
        assertThat(PullRequestText.lastAssistantMessage(Transcript.EMPTY)).isNull();
    }
}
