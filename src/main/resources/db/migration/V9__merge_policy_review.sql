-- A branch that changes policy or hook configuration (.paddock/, .claude/) waits in state 'policy_review' for a
-- person. review_commit is the branch commit shown for review and review_files the changed configuration files
-- (a JSON array); an approval records the commit it was given for (approved_commit), who and when: the queue
-- takes the entry only while the branch is still at that commit. Numbered 9: another change adds a V8.
ALTER TABLE merge_requests ADD COLUMN review_commit VARCHAR(64);
ALTER TABLE merge_requests ADD COLUMN review_files CLOB;
ALTER TABLE merge_requests ADD COLUMN approved_commit VARCHAR(64);
ALTER TABLE merge_requests ADD COLUMN approved_by VARCHAR(256);
ALTER TABLE merge_requests ADD COLUMN approved_at TIMESTAMP WITH TIME ZONE;
