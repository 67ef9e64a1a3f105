-- Safe conflicts resolved automatically: a repository's auto-resolve mode, 'propose' (a person confirms the
-- proposals, the default) or 'apply' (applied, tested and merged by the queue). It replaces V1's unused
-- auto_resolve_safe flag (a TRUE there becomes 'apply'), so one column says it.
ALTER TABLE repositories ADD COLUMN auto_resolve VARCHAR(16) NOT NULL DEFAULT 'propose';
UPDATE repositories SET auto_resolve = 'apply' WHERE auto_resolve_safe = TRUE;
ALTER TABLE repositories DROP COLUMN auto_resolve_safe;
