DROP INDEX report_jobs_org_started;
