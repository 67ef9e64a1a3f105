package dev.paddock.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a fan-out's agents are written, and the ids its sandboxes take. */
class AgentCountsTest {
    @Test
    void agentsWithTheirCountsInTheOrderGiven() {
        AgentCounts c = AgentCounts.parse(" Claude:2 , codex:1,gemini");

        assertThat(c.entries())
                .containsExactly(
                        new AgentCounts.Entry("claude", 2),
                        new AgentCounts.Entry("codex", 1),
                        new AgentCounts.Entry("gemini", 1));
        assertThat(c.total()).isEqualTo(4);
        assertThat(c).hasToString("claude:2,codex:1,gemini:1");
        assertThat(AgentCounts.parse("aider:20").total()).isEqualTo(20);
    }

    @Test
    void badSpecsSayWhatIsWrong() {
        assertThatThrownBy(() -> AgentCounts.parse("claude:0"))
                .hasMessage("'claude:0': a count is a whole number from 1 to 20");
        assertThatThrownBy(() -> AgentCounts.parse("claude:21")).hasMessageContaining("from 1 to 20");
        assertThatThrownBy(() -> AgentCounts.parse("claude:two")).hasMessageContaining("a count is a whole number");
        assertThatThrownBy(() -> AgentCounts.parse("claude:")).hasMessageContaining("a count is a whole number");
        assertThatThrownBy(() -> AgentCounts.parse("claude:-1")).hasMessageContaining("a count is a whole number");
        assertThatThrownBy(() -> AgentCounts.parse("claude:1,,codex:1")).hasMessageContaining("has an empty item");
        assertThatThrownBy(() -> AgentCounts.parse("claude:1,")).hasMessageContaining("has an empty item");
        assertThatThrownBy(() -> AgentCounts.parse(":2"))
                .hasMessage("':2' does not start with an agent's name, e.g." + " claude:2");
        assertThatThrownBy(() -> AgentCounts.parse("../x:1")).hasMessageContaining("does not start with an agent's");
        assertThatThrownBy(() -> AgentCounts.parse("claude:1,CLAUDE:2"))
                .hasMessage("'claude:1,CLAUDE:2' names claude twice: give each agent once, with its count");
        assertThatThrownBy(() -> AgentCounts.parse(" ")).hasMessageContaining("name the agents");
    }

    @Test
    void aFanOutsIdLeavesRoomForItsSandboxesAndCountsWithOtherIdsOfTheTask() {
        LocalDate day = LocalDate.of(2026, 12, 7);
        String longTask = "Internationalization reconfiguration decentralization";

        String group = SandboxIds.nextGroup(longTask, day, List.of(), "-gemini-20".length());
        assertThat(group).isEqualTo("internationaliza-reconfiguration-decentra-20261207-001");
        assertThat((group + "-gemini-20").length()).isEqualTo(SandboxIds.MAX_LENGTH);
        assertThat(SandboxIds.next(longTask, day, List.of()))
                .isEqualTo("internationaliza-reconfiguration-decentralization-20261207-001");
        // A short task keeps its words; ids of a fan-out's sandboxes count for the next number.
        assertThat(SandboxIds.nextGroup("Fix login", day, List.of("fix-login-20261207-001"), 9))
                .isEqualTo("fix-login-20261207-002");
        assertThat(SandboxIds.next(
                        "Fix login", day, List.of("fix-login-20261207-002-claude-1", "fix-login-20261207-002-codex-1")))
                .isEqualTo("fix-login-20261207-003");
    }
}
