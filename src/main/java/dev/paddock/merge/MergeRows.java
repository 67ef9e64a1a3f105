package dev.paddock.merge;

import dev.paddock.common.Json;
import dev.paddock.events.EventDraft;
import dev.paddock.store.Jdbc;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * How {@link MergeStore}'s rows become objects and back: the columns of an entry and the {@link MergeEntry} of a
 * row, the JSON array of the review's files, and an event's details with the entry's id added.
 */
final class MergeRows {
    /** The columns {@link #entry} reads, in a {@code SELECT}. */
    static final String COLUMNS = "id, repository_id, sandbox_id, branch, state, step, attempts,"
            + " last_test_passed, result, merge_commit, base_before, theirs_commit, strategy, requested_by,"
            + " worktree_path, test_log, test_pid, test_pid_started_at, test_container, main_tree_pending, enqueued_at,"
            + " started_at, step_started_at, finished_at";

    private MergeRows() {}

    /** The entry of a row read with {@link #COLUMNS}. */
    static MergeEntry entry(ResultSet rs) throws SQLException {
        String wt = rs.getString("worktree_path");
        String log = rs.getString("test_log");
        return MergeEntry.builder()
                .id(rs.getLong("id"))
                .repositoryId(rs.getLong("repository_id"))
                .sandboxId(rs.getString("sandbox_id"))
                .branch(rs.getString("branch"))
                .state(MergeState.of(rs.getString("state")))
                .step(MergeStep.of(rs.getString("step")))
                .attempts(rs.getInt("attempts"))
                .lastTestPassed(Jdbc.nullableBoolean(rs, "last_test_passed"))
                .result(rs.getString("result"))
                .mergeCommit(rs.getString("merge_commit"))
                .baseBefore(rs.getString("base_before"))
                .theirsCommit(rs.getString("theirs_commit"))
                .strategy(MergeStrategy.of(rs.getString("strategy")))
                .requestedBy(rs.getString("requested_by"))
                .worktree(wt == null ? null : Path.of(wt))
                .testLog(log == null ? null : Path.of(log))
                .testPid(Jdbc.nullableLong(rs, "test_pid"))
                .testPidStartedAt(Jdbc.instant(rs, "test_pid_started_at"))
                .testContainer(rs.getString("test_container"))
                .mainTreePending(rs.getBoolean("main_tree_pending"))
                .enqueuedAt(Jdbc.instant(rs, "enqueued_at"))
                .startedAt(Jdbc.instant(rs, "started_at"))
                .stepStartedAt(Jdbc.instant(rs, "step_started_at"))
                .finishedAt(Jdbc.instant(rs, "finished_at"))
                .build();
    }

    /** The review columns' JSON array of files, as stored by {@link #filesJson}. */
    static List<String> files(String json) throws SQLException {
        if (json == null || json.isBlank()) {
            return List.of();
        }
        try {
            return List.of(Json.mapper().readValue(json, String[].class));
        } catch (java.io.IOException e) {
            throw new SQLException("review_files is not a JSON array of paths: " + json, e);
        }
    }

    /** {@code files} as the JSON array stored in {@code review_files}. */
    static String filesJson(List<String> files) {
        try {
            return Json.mapper().writeValueAsString(files);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The event with {@code mergeRequestId} added to its details (the feed links it to the entry). */
    static EventDraft withEntry(EventDraft e, long id) {
        try {
            com.fasterxml.jackson.databind.node.ObjectNode n =
                    e.details() == null || e.details().isBlank()
                            ? Json.mapper().createObjectNode()
                            : (com.fasterxml.jackson.databind.node.ObjectNode)
                                    Json.mapper().readTree(e.details());
            n.put("mergeRequestId", id);
            return new EventDraft(
                    e.repositoryId(),
                    e.sandboxId(),
                    e.kind(),
                    e.message(),
                    Json.mapper().writeValueAsString(n));
        } catch (java.io.IOException | ClassCastException ex) {
            throw new IllegalArgumentException("event details are not a JSON object: " + e.details(), ex);
        }
    }
}
