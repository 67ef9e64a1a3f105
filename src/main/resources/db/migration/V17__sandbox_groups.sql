-- Fan-out: the sandboxes made from one task for several agents at once (paddock sandbox new --agents claude:2,codex:1)
-- share a group id, so their results can be compared side by side. Null for a sandbox made on its own, as every
-- sandbox made before this was. See docs/decisions/0018-fan-out-groups.md.
ALTER TABLE sandboxes ADD COLUMN group_id VARCHAR(128);
CREATE INDEX sandboxes_group ON sandboxes (group_id);
