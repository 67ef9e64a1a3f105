-- Real agents: the preset a sandbox runs (claude, codex, gemini, aider; custom runs agent_command as before),
-- the model asked for (null: the agent's default), and the session id Paddock chose for its last run (Claude Code's
-- --session-id; null for agents that pick their own or have none).
ALTER TABLE sandboxes ADD COLUMN agent VARCHAR(32) NOT NULL DEFAULT 'custom';
ALTER TABLE sandboxes ADD COLUMN model VARCHAR(256);
ALTER TABLE sandboxes ADD COLUMN agent_session VARCHAR(128);
