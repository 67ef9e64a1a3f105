-- The merge queue's test runs in the tier of the entry's sandbox: a container-tier entry's test runs in a
-- container, whose id is recorded here while it runs (as test_pid is for a host or bubblewrap run) so that a
-- restarted Paddock can remove a run the previous one left. Numbered 7, not 6: another change adds a V6.
ALTER TABLE merge_requests ADD COLUMN test_container VARCHAR(128);
