-- One queue for every background job (issue 30, DESIGN §9, docs/decisions/operations.md
-- "One job queue"): reports, imports and Xero calls, and the e-mail and print jobs to come,
-- are rows of `jobs`. `queue` names the family (report, import, xero), `kind` the job
-- within it (the report or import kind; send, recall or balance). The mechanism is shared:
-- a worker claims a due job fairly between companies, beats its heartbeat while it runs,
-- and a job whose heartbeat went stale is claimed again. One active job per
-- (company, queue, dedupe_key) at a time, even across server processes. The columns after
-- `dedupe_key` belong to one family each and keep their defaults elsewhere.
CREATE TABLE jobs (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    queue TEXT NOT NULL,
    kind TEXT NOT NULL,
    state INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    not_before TIMESTAMP NOT NULL,
    locked_by TEXT NOT NULL DEFAULT '',
    heartbeat_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    started_at TIMESTAMP,
    finished_at TIMESTAMP,
    error TEXT NOT NULL DEFAULT '',
    requested_by BIGINT REFERENCES users(id),
    dedupe_key TEXT NOT NULL DEFAULT '',
    -- reports and imports: the request, its progress, the range or summary shown, the file
    params TEXT NOT NULL DEFAULT '',
    progress INTEGER NOT NULL DEFAULT 0,
    summary TEXT NOT NULL DEFAULT '',
    file_name TEXT NOT NULL DEFAULT '',
    -- Xero: the sheet, the key Xero dedupes creates by, and whether a create may have landed
    order_id BIGINT REFERENCES orders(id),
    idempotency_key TEXT NOT NULL DEFAULT '',
    outcome_unknown BOOLEAN NOT NULL DEFAULT FALSE
);

-- Report job ids name their files, so they are kept.
INSERT INTO jobs (id, org_id, queue, kind, state, attempts, not_before, locked_by, heartbeat_at, created_at, started_at, finished_at,
                  error, requested_by, dedupe_key, params, progress, summary, file_name)
SELECT id, org_id, CASE WHEN kind LIKE 'import-%' THEN 'import' ELSE 'report' END, kind, state, attempts, created_at, locked_by,
       heartbeat_at, created_at, started_at, finished_at, error, user_id, dedupe_key, params, progress, date_range, file_name
FROM report_jobs;
SELECT setval(pg_get_serial_sequence('jobs', 'id'), COALESCE((SELECT MAX(id) FROM jobs), 0) + 1, false);
INSERT INTO jobs (org_id, queue, kind, state, attempts, not_before, locked_by, heartbeat_at, created_at, finished_at,
                  error, requested_by, dedupe_key, order_id, idempotency_key, outcome_unknown)
SELECT org_id, 'xero', CASE kind WHEN 1 THEN 'send' WHEN 2 THEN 'recall' ELSE 'balance' END, state, attempts, not_before, locked_by,
       heartbeat_at, created_at, finished_at, error, requested_by, target, order_id, idempotency_key, outcome_unknown
FROM xero_jobs ORDER BY id;

DROP TABLE report_jobs;
DROP TABLE xero_jobs;

CREATE UNIQUE INDEX jobs_active ON jobs (org_id, queue, dedupe_key) WHERE state IN (0, 1);
-- Claiming: the due jobs of a queue, then the latest start of each candidate's company.
CREATE INDEX jobs_due ON jobs (queue, state, not_before);
CREATE INDEX jobs_org_started ON jobs (org_id, queue, started_at);
-- The downloads centre lists a company's newest; Xero looks up a sheet's jobs.
CREATE INDEX jobs_org_created ON jobs (org_id, created_at);
CREATE INDEX jobs_order ON jobs (order_id) WHERE order_id IS NOT NULL;
