-- Lockfiles and generated files are regenerated, never merged as text: per repository, the file (a name such as
-- package-lock.json, or a repository-relative path) and the command that regenerates it, run with /bin/sh -c in
-- the merge worktree in the tier of the entry's sandbox (as the test command is).
CREATE TABLE merge_regenerate_commands (
    repository_id BIGINT        NOT NULL REFERENCES repositories(id) ON DELETE CASCADE,
    file_pattern  VARCHAR(1024) NOT NULL,
    command       VARCHAR(4096) NOT NULL,
    PRIMARY KEY (repository_id, file_pattern)
);
