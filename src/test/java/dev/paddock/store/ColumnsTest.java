package dev.paddock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class ColumnsTest {
    @Test
    void positionsFollowTheListAndReadTheSameValuesAsLabels() throws Exception {
        Columns c = Columns.of("id", "name", "size");
        assertThat(c.sql()).isEqualTo("id, name, size");
        try (Connection conn = DriverManager.getConnection("jdbc:h2:mem:columns");
                Statement st = conn.createStatement()) {
            st.execute("CREATE TABLE t (size INT, id VARCHAR(10), name VARCHAR(10))");
            st.execute("INSERT INTO t VALUES (3, 'a', 'first')");
            try (ResultSet rs = st.executeQuery("SELECT " + c.sql() + " FROM t")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(c.at("id")))
                        .isEqualTo(rs.getString("id"))
                        .isEqualTo("a");
                assertThat(rs.getString(c.at("name"))).isEqualTo("first");
                assertThat(rs.getInt(c.at("size"))).isEqualTo(3);
            }
        }
    }

    @Test
    void anUnknownOrRepeatedColumnIsAProgrammingError() {
        Columns c = Columns.of("id");
        assertThatThrownBy(() -> c.at("ID"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ID");
        assertThatThrownBy(() -> Columns.of("id", "id"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("twice");
    }
}
