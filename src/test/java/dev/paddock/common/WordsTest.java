package dev.paddock.common;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Counted words read right for one, two and many, as the merge queue, supervisor and fingerprint use them. */
class WordsTest {
    @Test
    void oneIsSingularAndEveryOtherCountPlural() {
        assertThat(Words.count(1, "change", "changes")).isEqualTo("1 change");
        assertThat(Words.count(0, "change", "changes")).isEqualTo("0 changes");
        assertThat(Words.count(12, "process", "processes")).isEqualTo("12 processes");
        assertThat(Words.countIs(1, "retry", "retries")).isEqualTo("1 retry is");
        assertThat(Words.countIs(3, "retry", "retries")).isEqualTo("3 retries are");
    }

    @Test
    void repeatsAreOnceTwiceThenCounted() {
        assertThat(Words.times(1)).isEqualTo("once");
        assertThat(Words.times(2)).isEqualTo("twice");
        assertThat(Words.times(5)).isEqualTo("5 times");
    }
}
