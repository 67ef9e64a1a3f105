-- Running sandboxes. What the supervisor needs to find a sandbox's process again after a
-- restart, the per-sandbox API token, the health fingerprint taken at creation, and settings.

ALTER TABLE sandboxes ADD COLUMN token VARCHAR(64);            -- bearer token of this sandbox alone
ALTER TABLE sandboxes ADD COLUMN fingerprint CLOB;             -- JSON: status, toplevel, branch, config
ALTER TABLE sandboxes ADD COLUMN pid_started_at TIMESTAMP WITH TIME ZONE; -- start time of pid, to tell a reused pid
ALTER TABLE sandboxes ADD COLUMN state_changed_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE sandboxes ADD COLUMN stop_reason VARCHAR(1024);    -- why Paddock or a person stopped it

CREATE INDEX sandboxes_by_state ON sandboxes (state);
CREATE UNIQUE INDEX sandboxes_by_token ON sandboxes (token);

-- Small settings (key → value text), e.g. sandbox.maxRetries, approval.timeoutMs.
CREATE TABLE settings (
    name                VARCHAR(128)  PRIMARY KEY,
    setting_value       VARCHAR(4096) NOT NULL   -- "value" is a reserved word in H2
);
