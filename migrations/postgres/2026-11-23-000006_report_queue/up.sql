-- The report job queue (issue 11, docs/decisions.md "Reports"): a worker claims a queued job,
-- beats its heartbeat while it runs, and a job whose heartbeat went stale (its worker died)
-- is claimed again, at most a few attempts. An identical request of a company while one is
-- queued or running returns that job: the partial unique index makes that true even for two
-- requests at the same instant on two server processes.
ALTER TABLE report_jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE report_jobs ADD COLUMN heartbeat_at TIMESTAMP;
ALTER TABLE report_jobs ADD COLUMN dedupe_key TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX report_jobs_active ON report_jobs (org_id, dedupe_key) WHERE state IN (0, 1);
