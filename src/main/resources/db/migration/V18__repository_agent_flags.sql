-- A repository's extra flags for an agent preset (paddock sandbox flags): words added to the preset's command line
-- at every run of that agent in the repository, after Paddock's own options. Checked before they are stored
-- (dev.paddock.agent.AgentFlags); flags holds them as a JSON array of strings.
CREATE TABLE repository_agent_flags (
    repository_id  BIGINT         NOT NULL REFERENCES repositories (id) ON DELETE CASCADE,
    agent          VARCHAR(32)    NOT NULL,
    flags          VARCHAR(70000) NOT NULL,
    PRIMARY KEY (repository_id, agent)
);
