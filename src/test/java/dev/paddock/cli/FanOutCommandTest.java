package dev.paddock.cli;

import static dev.paddock.cli.StatusCommandTest.paddock;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sandbox new --agents}: what the command line takes and refuses (exit 2) before it asks a Paddock; none runs
 * here, so a request it takes ends in "No Paddock is running" (exit 1).
 */
class FanOutCommandTest {
    @TempDir
    Path tmp;

    private StatusCommandTest.Run fanOut(String... args) {
        List<String> all = new ArrayList<>(List.of(
                "--home",
                tmp.resolve("home").toString(),
                "sandbox",
                "new",
                "--repo",
                tmp.toString(),
                "--task",
                "Fix it"));
        all.addAll(List.of(args));
        return paddock(all.toArray(String[]::new));
    }

    @Test
    void goodSpecsGetAsFarAsAskingThePaddock() {
        for (String[] args : List.of(
                new String[] {"--agents", "claude:2,codex:1"},
                new String[] {"--agents", "gemini"},
                new String[] {"--agents", " Claude:20 , aider:1 "},
                new String[] {"--agents", "claude:3", "--model", "opus"},
                new String[] {"--agents", "custom:2", "--cmd", "make"},
                new String[] {"--agents=codex:1", "--branch", "topic", "--id", "topic", "--tier", "worktree"})) {
            StatusCommandTest.Run r = fanOut(args);
            assertThat(r.exit())
                    .as(String.join(" ", args) + "\n" + r.describe())
                    .isEqualTo(1);
            assertThat(r.err()).startsWith("paddock: No Paddock is running for ");
        }
    }

    @Test
    void badSpecsAndClashingOptionsAreBadUsage() {
        assertUsage(fanOut("--agents", "claude:1,,codex"), "has an empty item");
        assertUsage(fanOut("--agents", "claude:1,claude:2"), "names claude twice");
        assertUsage(fanOut("--agents", "claude:x"), "a count is a whole number from 1 to 20");
        assertUsage(fanOut("--agents", ""), "name the agents and their counts");
        assertUsage(
                fanOut("--agents", "claude:2", "--agent", "codex"),
                "--agent and --agents cannot go together: --agent makes one sandbox, --agents a fan-out");
        assertUsage(fanOut("--agents", "claude:2", "--cmd", "make"), "--cmd is for the custom agent only");
        assertUsage(fanOut("--agents", "custom:2"), "Missing --cmd");
        assertUsage(fanOut("--agents", "claude:1,codex:1", "--model", "o3"), "--model is one agent's model");
        assertUsage(fanOut("--agents", "custom:2", "--cmd", "make", "--model", "o3"), "--model is one agent's model");
        assertThat(tmp.resolve(".worktrees")).doesNotExist();
    }

    private static void assertUsage(StatusCommandTest.Run r, String says) {
        assertThat(r.exit()).as(r.describe()).isEqualTo(2);
        assertThat(r.err()).contains(says);
    }
}
