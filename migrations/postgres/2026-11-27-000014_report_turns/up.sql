-- The report worker claims the company whose last report started longest ago (issue 29):
-- the latest start of a company is read from this index, not from its whole history.
CREATE INDEX report_jobs_org_started ON report_jobs (org_id, started_at);
