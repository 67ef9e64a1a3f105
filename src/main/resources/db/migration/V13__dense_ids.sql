-- Ids people read and type (`paddock merge approve 7`, `POST /v1/approvals/12/allow`, a repository's number) are
-- dense: H2 keeps 32 values of an identity column ahead in memory by default, and a Paddock that was killed came
-- back 32 further on. CACHE 1 writes each value with the row that takes it, so the next id after any stop is the
-- last one plus one. The event log keeps H2's cache: its ids only order events, and it is written most often.
-- CACHE 1 is what H2 records for NO CACHE, which this file said before (store.Migrations accepts both checksums);
-- PostgreSQL takes CACHE 1 (its default) but not NO CACHE.
ALTER TABLE repositories ALTER COLUMN id SET CACHE 1;
ALTER TABLE approvals ALTER COLUMN id SET CACHE 1;
ALTER TABLE merge_requests ALTER COLUMN id SET CACHE 1;
ALTER TABLE conflicts ALTER COLUMN id SET CACHE 1;
ALTER TABLE checkpoints ALTER COLUMN id SET CACHE 1;
