-- The approval broker: which Claude Code session asked (a re-sent request of the same session
-- with the same content attaches to its pending approval instead of adding one), and who decided (the
-- person's name; decided_by says only policy | human | timeout).
ALTER TABLE approvals ADD COLUMN session_id VARCHAR(256);
ALTER TABLE approvals ADD COLUMN decider VARCHAR(256);
CREATE INDEX approvals_by_sandbox_state ON approvals (sandbox_id, state);
