-- The merge queue. What an entry needs beyond V1's merge_requests: who asked, the strategy used,
-- the private merge worktree (kept while a conflict waits for a person), the branch tip being merged, the
-- test run's log and process (killed after a restart), and a flag saying the main working tree's files still
-- have to follow a moved base (crash between moving the ref and updating the files).
ALTER TABLE merge_requests ADD COLUMN requested_by VARCHAR(256);
ALTER TABLE merge_requests ADD COLUMN strategy VARCHAR(16);
ALTER TABLE merge_requests ADD COLUMN worktree_path VARCHAR(4096);
ALTER TABLE merge_requests ADD COLUMN theirs_commit VARCHAR(64);
ALTER TABLE merge_requests ADD COLUMN test_log VARCHAR(4096);
ALTER TABLE merge_requests ADD COLUMN test_pid BIGINT;
ALTER TABLE merge_requests ADD COLUMN test_pid_started_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE merge_requests ADD COLUMN main_tree_pending BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE merge_requests ADD COLUMN step_started_at TIMESTAMP WITH TIME ZONE;
CREATE INDEX merge_requests_by_sandbox ON merge_requests (sandbox_id, enqueued_at);
CREATE INDEX conflicts_by_merge_request ON conflicts (merge_request_id, path);
