-- Which Paddock supervises each sandbox of a store on a database server (dev.paddock.sandbox.SandboxOwners): one
-- row per sandbox, naming its owner (host:pid:random, as store_owner), renewed every few seconds with the owner's
-- other rows until expires; another Paddock takes a row over once it expired. A store in an H2 file has one Paddock
-- (its file lock) and leaves this table empty.
CREATE TABLE sandbox_owner (
    sandbox_id  VARCHAR(128)             NOT NULL PRIMARY KEY REFERENCES sandboxes (id) ON DELETE CASCADE,
    owner       VARCHAR(300)             NOT NULL,
    since       TIMESTAMP WITH TIME ZONE NOT NULL,
    heartbeat   TIMESTAMP WITH TIME ZONE NOT NULL,
    expires     TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX sandbox_owner_owner ON sandbox_owner (owner);
