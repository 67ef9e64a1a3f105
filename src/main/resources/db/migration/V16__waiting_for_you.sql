-- "Waiting for you": a sandbox whose agent ended its turn (Claude Code's Stop hook) or waits for a person
-- (its Notification hook) has one row here while it waits. Kept beside the sandbox's row, not in it: the row is
-- removed in the same transaction as any move to a state in which the agent cannot be waiting (a follow-up or a
-- retry starting, the merge queue taking it, its removal). See docs/decisions/0016-waiting-for-you.md.
CREATE TABLE sandbox_waiting (
    sandbox_id        VARCHAR(128)  PRIMARY KEY REFERENCES sandboxes (id) ON DELETE CASCADE,
    kind              VARCHAR(16)   NOT NULL,   -- turn_ended | waiting
    run               INT           NOT NULL,   -- the run (sandboxes.iteration) that sent it
    since             TIMESTAMP WITH TIME ZONE NOT NULL,
    session_id        VARCHAR(128),
    detail            VARCHAR(1024),
    notification_type VARCHAR(64),
    -- SHA-256 of the hook's input: the same signal, by the API route and by the turn file, counts once.
    signal_key        VARCHAR(64)   NOT NULL
);

-- The follow-up prompt a person sent (paddock sandbox say): every start of the sandbox's agent while it is here
-- resumes the agent's session with this text instead of starting the task anew. A person's retry removes it.
CREATE TABLE sandbox_follow_ups (
    sandbox_id  VARCHAR(128)  PRIMARY KEY REFERENCES sandboxes (id) ON DELETE CASCADE,
    text        VARCHAR(8192) NOT NULL,
    asked_by    VARCHAR(256)  NOT NULL,
    asked_at    TIMESTAMP WITH TIME ZONE NOT NULL
);
