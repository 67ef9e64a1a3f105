-- The id Claude Code gives a tool call (its PreToolUse hook's tool_use_id, the tool_use block's id in its
-- stream-json output): the panel's transcript shows each tool call with the decision stored for it. Null for
-- requests made before, and for those that do not come from Claude Code's hook.
ALTER TABLE approvals ADD COLUMN tool_use_id VARCHAR(256);
CREATE INDEX approvals_by_sandbox ON approvals (sandbox_id, id);
