-- The Paddock that owns a store on a database server (dev.paddock.store.StoreLease): one row (id 1) while a
-- Paddock runs on it, renewed every few seconds until expires; a Paddock starting finds it and refuses to start
-- while it has not expired. A store in an H2 file has its file lock instead and leaves this table empty.
CREATE TABLE store_owner (
    id         INTEGER                  NOT NULL PRIMARY KEY,
    owner      VARCHAR(300)             NOT NULL,
    host       VARCHAR(255)             NOT NULL,
    pid        BIGINT                   NOT NULL,
    since      TIMESTAMP WITH TIME ZONE NOT NULL,
    heartbeat  TIMESTAMP WITH TIME ZONE NOT NULL,
    expires    TIMESTAMP WITH TIME ZONE NOT NULL
);
