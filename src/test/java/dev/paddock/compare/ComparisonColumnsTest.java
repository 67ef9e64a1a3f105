package dev.paddock.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The cells of {@link ComparisonColumns}: what the CLI and the panel both show for a row. */
class ComparisonColumnsTest {
    private static List<String> cells(MemberResult m) {
        return ComparisonColumns.ALL.stream().map(c -> c.of(m)).toList();
    }

    @Test
    void aRowWithEveryFigureAndOneWithNone() {
        MemberResult full = new MemberResult(
                "g-claude-1",
                "claude",
                "opus",
                "merged",
                "agent/g-claude-1",
                2,
                3,
                1234L,
                5L,
                "merged",
                true,
                14,
                1,
                2,
                15_000L,
                3_230L,
                1.5,
                2,
                3_723_000L);
        MemberResult bare = new MemberResult(
                "g-custom-2",
                "custom",
                null,
                "closed",
                "agent/g-custom-2",
                null,
                null,
                null,
                null,
                null,
                null,
                0,
                0,
                0,
                null,
                null,
                null,
                0,
                null);

        assertThat(cells(full))
                .containsExactly(
                        "g-claude-1",
                        "claude opus",
                        "merged",
                        "2",
                        "3",
                        "+1,234 −5",
                        "passed",
                        "merged",
                        "14",
                        "1",
                        "2",
                        "18,230",
                        "$1.50",
                        "1h 02m");
        assertThat(cells(bare))
                .containsExactly(
                        "g-custom-2", "custom", "closed", "–", "–", "–", "–", "–", "0", "0", "0", "–", "–", "–");
        assertThat(ComparisonColumns.ALL)
                .extracting(ComparisonColumns.Column::header)
                .containsExactly(
                        "ID", "Agent", "State", "Commits", "Files", "Lines", "Tests", "Merge", "Calls", "Denied",
                        "Errors", "Tokens", "Cost", "Time");
    }

    @Test
    void timesAndCosts() {
        assertThat(ComparisonColumns.duration(45_900L)).isEqualTo("45s");
        assertThat(ComparisonColumns.duration(252_000L)).isEqualTo("4m 12s");
        assertThat(ComparisonColumns.duration(3_600_000L)).isEqualTo("1h 00m");
        assertThat(ComparisonColumns.dollars(0.000756)).isEqualTo("$0.0008");
        assertThat(ComparisonColumns.dollars(12.345)).isEqualTo("$12.35");
    }
}
