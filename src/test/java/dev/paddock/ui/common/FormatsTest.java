package dev.paddock.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The live figures of the sandboxes table, in steps that change seldom. */
class FormatsTest {
    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");

    @Test
    void agesMoveInStepsOfTenSecondsUnderAMinute() {
        assertThat(Formats.agoInSteps(NOW.minusSeconds(0), NOW)).isEqualTo("just now");
        assertThat(Formats.agoInSteps(NOW.minusSeconds(9), NOW)).isEqualTo("just now");
        assertThat(Formats.agoInSteps(NOW.minusSeconds(10), NOW)).isEqualTo("10 s ago");
        assertThat(Formats.agoInSteps(NOW.minusSeconds(59), NOW)).isEqualTo("50 s ago");
        assertThat(Formats.agoInSteps(NOW.minusSeconds(61), NOW)).isEqualTo("1 min ago");
        assertThat(Formats.agoInSteps(NOW.plusSeconds(3), NOW)).isEqualTo("just now");
        assertThat(Formats.agoInSteps(null, NOW)).isEmpty();
    }

    @Test
    void aLeaseCountsWholeMinutesUntilTheLastTwo() {
        assertThat(Formats.leftInSteps(NOW.plusSeconds(14 * 60 + 1), NOW)).isEqualTo("15 min left");
        assertThat(Formats.leftInSteps(NOW.plusSeconds(15 * 60), NOW)).isEqualTo("15 min left");
        assertThat(Formats.leftInSteps(NOW.plusSeconds(120), NOW)).isEqualTo("2 min left");
        assertThat(Formats.leftInSteps(NOW.plusSeconds(119), NOW)).isEqualTo("1:59 left");
        assertThat(Formats.leftInSteps(NOW.plusSeconds(99 * 60), NOW)).isEqualTo("99 min left");
        assertThat(Formats.leftInSteps(NOW.plusSeconds(150 * 60), NOW)).isEqualTo("3 h left");
        assertThat(Formats.leftInSteps(NOW.minusSeconds(1), NOW)).isEqualTo("expired");
        assertThat(Formats.leftInSteps(null, NOW)).isEmpty();
    }
}
