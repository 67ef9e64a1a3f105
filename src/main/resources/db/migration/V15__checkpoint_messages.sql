-- Checkpoints of a sandbox's working state (dev.paddock.checkpoint): the message it was taken with, the agent's
-- turn that ended when it was taken automatically (null otherwise), the commit the sandbox's branch pointed at
-- then, the tree the snapshot holds, and, on the checkpoint taken before a rollback, the tree the rollback then wrote
-- into the worktree (the next checkpoint's changes are counted from there). A sandbox numbers its checkpoints 1, 2, ...
-- once each.
ALTER TABLE checkpoints ADD COLUMN message VARCHAR(1000);
ALTER TABLE checkpoints ADD COLUMN turn INT;
ALTER TABLE checkpoints ADD COLUMN head_commit VARCHAR(64);
ALTER TABLE checkpoints ADD COLUMN tree_id VARCHAR(64);
ALTER TABLE checkpoints ADD COLUMN restored_tree VARCHAR(64);
DROP INDEX checkpoints_by_sandbox;
CREATE UNIQUE INDEX checkpoints_by_sandbox ON checkpoints (sandbox_id, iteration);
