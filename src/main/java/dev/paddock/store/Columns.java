package dev.paddock.store;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns a query selects, in order: their SQL list and each one's position in the result. A mapper that reads
 * many rows reads by position: H2 looks a column label up by upper-casing and hashing it anew on every call, which
 * over hundreds of rows of 37 columns costs more than the query itself.
 */
public final class Columns {
    private final String sql;
    private final Map<String, Integer> positions = new HashMap<>();

    private Columns(List<String> names) {
        for (int i = 0; i < names.size(); i++) {
            if (positions.put(names.get(i), i + 1) != null) {
                throw new IllegalArgumentException("Column " + names.get(i) + " is listed twice.");
            }
        }
        this.sql = String.join(", ", names);
    }

    /** The columns, named as in the table (lower case). */
    public static Columns of(String... names) {
        return new Columns(List.of(names));
    }

    /** The list for {@code SELECT}, separated by commas. */
    public String sql() {
        return sql;
    }

    /**
     * The 1-based position of a column in a result of {@link #sql()}.
     *
     * @throws IllegalArgumentException when it is not one of these columns (a programming error)
     */
    public int at(String name) {
        Integer at = positions.get(name);
        if (at == null) {
            throw new IllegalArgumentException("Column " + name + " is not selected.");
        }
        return at;
    }
}
