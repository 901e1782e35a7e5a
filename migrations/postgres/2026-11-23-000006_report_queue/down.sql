DROP INDEX report_jobs_active;
ALTER TABLE report_jobs DROP COLUMN dedupe_key;
ALTER TABLE report_jobs DROP COLUMN heartbeat_at;
ALTER TABLE report_jobs DROP COLUMN attempts;
