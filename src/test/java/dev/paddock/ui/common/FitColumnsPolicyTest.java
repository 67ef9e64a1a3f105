package dev.paddock.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The widths {@link FitColumnsPolicy} gives, from the table's width and the columns' own widths alone. */
class FitColumnsPolicyTest {
    private static final double[] MIN = {191, 64, 53, 128, 79, 110};
    private static final double[] PREF = {290, 260, 53, 128, 227, 120};
    private static final double[] MAX = {290, 5000, 65, 140, 227, 5000};
    private static final double[] WEIGHT = {2, 1, 1, 1, 2, 1};

    @Test
    void tooNarrowTakesFromTheRoomAboveEachMinimumByWeight() {
        double[] w = FitColumnsPolicy.widths(1018, MIN, PREF, MAX, WEIGHT);
        assertThat(Arrays.stream(w).sum()).isEqualTo(1018);
        // 60 px over; room×weight: id 198, task 196, branch 296, heartbeat 10 (700 in all)
        assertThat(w[1]).isBetween(243.0, 244.0);
        assertThat(w[0]).isBetween(273.0, 274.0);
        assertThat(w[4]).isBetween(201.0, 202.0);
        assertThat(w[2]).isEqualTo(53);
        assertThat(w[3]).isEqualTo(128);
    }

    @Test
    void aColumnAtItsMinimumStopsAndTheOthersGiveTheRest() {
        double[] w = FitColumnsPolicy.widths(700, MIN, PREF, MAX, WEIGHT);
        assertThat(Arrays.stream(w).sum()).isEqualTo(700);
        for (int i = 0; i < w.length; i++) {
            assertThat(w[i]).as("column " + i).isGreaterThanOrEqualTo(MIN[i]);
        }
        // id and branch (weight 2) reach their minimum in the first round; task and heartbeat give the rest
        assertThat(w[0]).isEqualTo(191);
        assertThat(w[4]).isEqualTo(79);
        assertThat(w[1]).isBetween(135.0, 137.0);
    }

    @Test
    void belowTheMinimumsEveryColumnKeepsItsMinimumAndTheTableScrolls() {
        assertThat(FitColumnsPolicy.widths(300, MIN, PREF, MAX, WEIGHT)).containsExactly(MIN);
    }

    @Test
    void roomToSpareGoesToColumnsBelowTheirMaximum() {
        double[] w = FitColumnsPolicy.widths(1400, MIN, PREF, MAX, WEIGHT);
        assertThat(Arrays.stream(w).sum()).isEqualTo(1400);
        assertThat(w[0]).isEqualTo(290);
        assertThat(w[2]).isEqualTo(65);
        assertThat(w[3]).isEqualTo(140);
        assertThat(w[4]).isEqualTo(227);
        // task and heartbeat share the rest by their preferred widths (260:120)
        assertThat(w[1] / w[5]).isBetween(1.9, 2.4);
    }

    @Test
    void theSameInputsGiveTheSameWidths() {
        assertThat(FitColumnsPolicy.widths(1100, MIN, PREF, MAX, WEIGHT))
                .containsExactly(FitColumnsPolicy.widths(1100, MIN, PREF, MAX, WEIGHT));
    }
}
