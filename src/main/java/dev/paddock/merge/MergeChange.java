package dev.paddock.merge;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Columns of a merge queue entry ({@code merge_requests}) that change together with a move, a step or a fact of the
 * running attempt, each set with its Java type: callers name a {@link Column}, never an SQL column, and only
 * {@link MergeStore} turns them into SQL. Package-private: other packages change entries through
 * {@link MergeService}.
 */
final class MergeChange {
    /** A column of {@code merge_requests} that a change may set, with how its value is stored. */
    static final class Column<T> {
        private final String sql;
        private final Function<T, Object> toSql;

        private Column(String sql, Function<T, Object> toSql) {
            this.sql = sql;
            this.toSql = toSql;
        }

        private static <T> Column<T> plain(String sql) {
            return new Column<>(sql, v -> v);
        }

        /** The SQL name (for {@link MergeStore} only). */
        String sql() {
            return sql;
        }

        @Override
        public String toString() {
            return sql;
        }
    }

    static final Column<MergeStep> STEP = new Column<>("step", MergeStep::id);
    static final Column<Integer> ATTEMPTS = Column.plain("attempts");
    static final Column<Boolean> LAST_TEST_PASSED = Column.plain("last_test_passed");
    static final Column<String> RESULT = Column.plain("result");
    static final Column<String> MERGE_COMMIT = Column.plain("merge_commit");
    static final Column<String> BASE_BEFORE = Column.plain("base_before");
    static final Column<String> THEIRS_COMMIT = Column.plain("theirs_commit");
    static final Column<MergeStrategy> STRATEGY = new Column<>("strategy", MergeStrategy::id);
    static final Column<Path> WORKTREE = new Column<>("worktree_path", Path::toString);
    static final Column<Path> TEST_LOG = new Column<>("test_log", Path::toString);
    static final Column<Long> TEST_PID = Column.plain("test_pid");
    static final Column<Instant> TEST_PID_STARTED_AT = Column.plain("test_pid_started_at");
    static final Column<String> TEST_CONTAINER = Column.plain("test_container");
    static final Column<Boolean> MAIN_TREE_PENDING = Column.plain("main_tree_pending");
    static final Column<Instant> STARTED_AT = Column.plain("started_at");
    static final Column<Instant> STEP_STARTED_AT = Column.plain("step_started_at");
    static final Column<Instant> FINISHED_AT = Column.plain("finished_at");
    static final Column<String> REVIEW_COMMIT = Column.plain("review_commit");
    static final Column<List<String>> REVIEW_FILES = new Column<>("review_files", MergeRows::filesJson);
    static final Column<String> APPROVED_COMMIT = Column.plain("approved_commit");
    static final Column<String> APPROVED_BY = Column.plain("approved_by");
    static final Column<Instant> APPROVED_AT = Column.plain("approved_at");

    /** Column → the value as given (null clears the column), in the order set. */
    private final Map<Column<?>, Object> values = new LinkedHashMap<>();

    private MergeChange() {}

    /** An empty change. */
    static MergeChange of() {
        return new MergeChange();
    }

    /** A change of one column. */
    static <T> MergeChange of(Column<T> column, T value) {
        return new MergeChange().set(column, value);
    }

    /** Sets {@code column} to {@code value} (null clears it); a later set of the same column wins. */
    <T> MergeChange set(Column<T> column, T value) {
        values.put(Objects.requireNonNull(column, "column"), value);
        return this;
    }

    /** Adds every column of {@code other} (its values win). */
    MergeChange with(MergeChange other) {
        values.putAll(other.values);
        return this;
    }

    /**
     * Drops what an attempt left on the entry when it leaves running without merging: no step, no candidate, no
     * merge worktree, no checked-out tree to update.
     */
    MergeChange clearAttempt() {
        return set(STEP, null).set(MERGE_COMMIT, null).set(WORKTREE, null).set(MAIN_TREE_PENDING, false);
    }

    /** Drops the record of a test run's process (not its container). */
    MergeChange clearTestProcess() {
        return set(TEST_PID, null).set(TEST_PID_STARTED_AT, null);
    }

    /** Whether the change sets {@code column}. */
    boolean sets(Column<?> column) {
        return values.containsKey(column);
    }

    /** The value given for {@code column}, or null. */
    @SuppressWarnings("unchecked")
    <T> T get(Column<T> column) {
        return (T) values.get(column);
    }

    /** SQL name → stored value, in the order set (for {@link MergeStore} only). */
    Map<String, Object> sql() {
        Map<String, Object> out = new LinkedHashMap<>();
        values.forEach((c, v) -> out.put(c.sql(), v == null ? null : stored(c, v)));
        return Collections.unmodifiableMap(out);
    }

    @SuppressWarnings("unchecked")
    private static <T> Object stored(Column<T> column, Object value) {
        return column.toSql.apply((T) value);
    }

    @Override
    public String toString() {
        return values.toString();
    }

    /**
     * Appends {@code column = ?} for each column of this change (the first after {@code first}, the others after a
     * comma), and its stored value to {@code params}.
     */
    void appendSets(StringBuilder sql, List<Object> params, String first) {
        Map<String, Object> columns = sql();
        if (columns.isEmpty() && first.isEmpty()) {
            throw new IllegalArgumentException("a change of a merge request sets at least one column");
        }
        columns.forEach((column, value) -> {
            sql.append(params.size() == (first.isEmpty() ? 0 : 1) ? first : ", ")
                    .append(column)
                    .append(" = ?");
            params.add(value);
        });
    }
}
