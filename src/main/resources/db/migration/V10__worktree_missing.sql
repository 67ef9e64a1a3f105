-- A worktree whose folder is gone while git still lists it (a locked worktree is never prunable, so git says
-- nothing): remembered like the other flags, so the change is recorded once, not again after every start.
ALTER TABLE worktrees_seen ADD COLUMN missing BOOLEAN NOT NULL DEFAULT FALSE;
