package dev.paddock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A store URL shown in a message or a log never carries its password, whatever form it was given in. */
class StoreUrlRedactionTest {
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "jdbc:postgresql://db:5432/paddock?user=p&password=SECRET | jdbc:postgresql://db:5432/paddock",
                "jdbc:postgresql://p:SECRET@127.0.0.1:5432/paddock | jdbc:postgresql://127.0.0.1:5432/paddock",
                "postgres://p:SECRET@127.0.0.1/paddock | postgres://127.0.0.1/paddock",
                "postgres://p:SE/CR@ET@127.0.0.1/paddock | postgres://127.0.0.1/paddock",
                "jdbc:postgresql://127.0.0.1:5432/paddock;password=SECRET | jdbc:postgresql://127.0.0.1:5432/paddock",
                "jdbc:h2:/tmp/x;PASSWORD=SECRET | jdbc:h2:/tmp/x",
                "jdbc:mysql://db/x&password=SECRET | jdbc:mysql://db/x",
                "jdbc:postgresql://db/paddock | jdbc:postgresql://db/paddock"
            })
    void thePasswordNeverShows(String url, String shown) {
        assertThat(Database.redacted(url))
                .isEqualTo(shown)
                .doesNotContain("SECRET")
                .doesNotContain("CR@ET");
    }

    @Test
    void aUrlTheDriverRefusesIsNotQuotedWhole() {
        String url = "jdbc:postgresql://127.0.0.1:99999/paddock?user=paddock&password=SECRET";

        assertThatThrownBy(() -> Database.openServer(url))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("jdbc:postgresql://127.0.0.1:99999/paddock is not valid")
                .hasMessageNotContaining("SECRET")
                .hasNoCause();
    }
}
