-- A repository's shared layers (paddock layers): the dependency folders its namespace sandboxes see read-only
-- through an overlay, and the command that builds them (blank: they are copied from the main checkout). folders
-- holds them as a JSON array of strings, checked before they are stored (dev.paddock.layer.LayerFolders).
CREATE TABLE repository_layers (
    repository_id  BIGINT         NOT NULL PRIMARY KEY REFERENCES repositories (id) ON DELETE CASCADE,
    folders        VARCHAR(10000) NOT NULL,
    setup_command  VARCHAR(10000)
);
