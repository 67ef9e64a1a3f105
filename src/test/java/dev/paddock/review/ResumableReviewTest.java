package dev.paddock.review;

import static org.assertj.core.api.Assertions.assertThat;

import dev.paddock.sandbox.SandboxState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request for changes to an agent that resumes its session: the comments reach it as a follow-up prompt, with
 * file, line and the quoted line. The agent is a stand-in {@code claude} on Paddock's PATH that records the command
 * line each run gets (what the launcher gave it) and edits {@code a.txt}.
 */
class ResumableReviewTest {
    @TempDir
    Path tmp;

    private ReviewRig rig;
    private Path calls;

    @BeforeEach
    void open() throws Exception {
        rig = new ReviewRig(tmp);
        calls = Files.createDirectories(tmp.resolve("calls"));
        rig.fakeAgent(
                "claude",
                "n=$(ls '" + calls + "' | wc -l)\n"
                        + "for a in \"$@\"; do printf '%s\\0' \"$a\"; done > '" + calls + "'/call-$n\n"
                        + "printf 'alpha\\nBETA\\ngamma\\n' > a.txt && git add a.txt && (git commit -qm 'Shout beta' ||"
                        + " true) >/dev/null 2>&1\n"
                        + "echo '{\"type\":\"result\",\"subtype\":\"success\",\"result\":\"Done.\"}'\n");
    }

    @AfterEach
    void close() {
        rig.close();
    }

    private List<List<String>> calls() throws Exception {
        try (Stream<Path> files = Files.list(calls)) {
            return files.sorted()
                    .map(f -> {
                        try {
                            return List.of(Files.readString(f).split("\0"));
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .toList();
        }
    }

    @Test
    void theCommentsGoToTheAgentAsAFollowUpWithFileLineAndQuotedText() throws Exception {
        rig.preset("rev-claude", "claude");
        assertThat(rig.finishAndGate("rev-claude").state()).isEqualTo(SandboxState.REVIEW);
        String session = rig.find("rev-claude").run().agentSession();
        assertThat(session).isNotBlank();
        rig.reviews().comment("rev-claude", "a.txt", 2, null, "Lower case, please.", "ann");

        ChangeRequests.Sent sent = rig.reviews().requestChanges("rev-claude", "Then run the tests.", "ann");

        assertThat(sent.followUp()).isTrue();
        assertThat(rig.await("rev-claude", SandboxState.DONE)).isNotNull();
        List<List<String>> runs = calls();
        assertThat(runs).hasSize(2);
        List<String> resumed = runs.get(1);
        assertThat(resumed).contains("--resume", session);
        String prompt = resumed.get(resumed.size() - 1);
        assertThat(prompt)
                .contains("`a.txt:2`", "> BETA", "Lower case, please.", "Then run the tests.", "ann")
                .contains(ReviewFile.RELATIVE);
        assertThat(rig.wiring
                        .sandboxService()
                        .followUp("rev-claude")
                        .orElseThrow()
                        .text())
                .isEqualTo(prompt);
        assertThat(ReviewServiceTest.last(
                                rig.history("rev-claude"), dev.paddock.events.EventKinds.REVIEW_CHANGES_REQUESTED)
                        .details())
                .contains("\"via\":\"follow-up\"");
    }
}
