-- The Docker engine a container sandbox runs on (dev.paddock.container.EngineRegistry), by name; null for the
-- engine the docker CLI would choose ("local"), which is every sandbox made before engines could be registered.
ALTER TABLE sandboxes ADD COLUMN engine VARCHAR(40);
