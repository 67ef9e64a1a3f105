-- Where a repository's approved work goes: 'local' (merged into the local base by the merge queue, the default)
-- or 'push' (its branch pushed to a remote instead: merge_remote, null for origin or the only remote; with
-- merge_pull_request, a pull request opened through the GitHub CLI as well).
ALTER TABLE repositories ADD COLUMN merge_target VARCHAR(16) NOT NULL DEFAULT 'local';
ALTER TABLE repositories ADD COLUMN merge_remote VARCHAR(255);
ALTER TABLE repositories ADD COLUMN merge_pull_request BOOLEAN NOT NULL DEFAULT FALSE;
