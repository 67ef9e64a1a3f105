-- Requests of any length the hook's input limit lets through (1 MiB, HttpIo.MAX_BODY_BYTES) are stored whole: every
-- column written from a request's own text takes that many characters. The command itself (approvals.request) is a
-- CLOB already; approvals.reason stays 4096: Paddock writes a bounded reason that quotes a long command shortened.
-- SET DATA TYPE and CHARACTER VARYING(n) are standard SQL that H2 and PostgreSQL both take (PostgreSQL allows n up to
-- 10485760). Numbered 8.1: migration 8 is the Java one that hashes sandbox tokens.
ALTER TABLE approvals ALTER COLUMN tool SET DATA TYPE CHARACTER VARYING(1048576);
ALTER TABLE approvals ALTER COLUMN cwd SET DATA TYPE CHARACTER VARYING(1048576);
ALTER TABLE approvals ALTER COLUMN matched_rule SET DATA TYPE CHARACTER VARYING(1048576);
ALTER TABLE approvals ALTER COLUMN session_id SET DATA TYPE CHARACTER VARYING(1048576);
ALTER TABLE approvals ALTER COLUMN decider SET DATA TYPE CHARACTER VARYING(1048576);
-- A sandbox's agent command and task, and a repository's test command, come from API requests too.
ALTER TABLE sandboxes ALTER COLUMN task SET DATA TYPE CHARACTER VARYING(1048576);
ALTER TABLE sandboxes ALTER COLUMN agent_command SET DATA TYPE CHARACTER VARYING(1048576);
ALTER TABLE repositories ALTER COLUMN test_command SET DATA TYPE CHARACTER VARYING(1048576);
