-- The Failed (24 h) tile counts sandboxes whose run failed or timed out in the last day, from their events:
-- a failure usually moves on at once (retrying, or awaiting a person), so the sandbox's state alone misses it.
CREATE INDEX events_by_kind ON events (repository_id, kind, at);
