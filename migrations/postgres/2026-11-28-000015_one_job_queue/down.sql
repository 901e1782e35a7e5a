CREATE TABLE report_jobs (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    params TEXT NOT NULL,
    date_range TEXT NOT NULL DEFAULT '',
    state INTEGER NOT NULL DEFAULT 0,
    progress INTEGER NOT NULL DEFAULT 0,
    file_name TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    locked_by TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    started_at TIMESTAMP,
    finished_at TIMESTAMP,
    attempts INTEGER NOT NULL DEFAULT 0,
    heartbeat_at TIMESTAMP,
    dedupe_key TEXT NOT NULL DEFAULT ''
);
INSERT INTO report_jobs (id, org_id, user_id, kind, params, date_range, state, progress, file_name, error, locked_by, created_at,
                         started_at, finished_at, attempts, heartbeat_at, dedupe_key)
SELECT id, org_id, requested_by, kind, params, summary, state, progress, file_name, error, locked_by, created_at,
       started_at, finished_at, attempts, heartbeat_at, dedupe_key
FROM jobs WHERE queue IN ('report', 'import') AND requested_by IS NOT NULL;
SELECT setval(pg_get_serial_sequence('report_jobs', 'id'), COALESCE((SELECT MAX(id) FROM report_jobs), 0) + 1, false);
CREATE INDEX report_jobs_state ON report_jobs (state, created_at);
CREATE INDEX report_jobs_org ON report_jobs (org_id, created_at);
CREATE UNIQUE INDEX report_jobs_active ON report_jobs (org_id, dedupe_key) WHERE state IN (0, 1);
CREATE INDEX report_jobs_org_started ON report_jobs (org_id, started_at);

CREATE TABLE xero_jobs (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    target TEXT NOT NULL,
    order_id BIGINT REFERENCES orders(id),
    kind INTEGER NOT NULL,
    state INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    not_before TIMESTAMP NOT NULL,
    idempotency_key TEXT NOT NULL,
    outcome_unknown BOOLEAN NOT NULL DEFAULT FALSE,
    error TEXT NOT NULL DEFAULT '',
    locked_by TEXT NOT NULL DEFAULT '',
    heartbeat_at TIMESTAMP,
    requested_by BIGINT REFERENCES users(id),
    created_at TIMESTAMP NOT NULL,
    finished_at TIMESTAMP
);
INSERT INTO xero_jobs (org_id, target, order_id, kind, state, attempts, not_before, idempotency_key, outcome_unknown, error, locked_by,
                       heartbeat_at, requested_by, created_at, finished_at)
SELECT org_id, dedupe_key, order_id, CASE kind WHEN 'send' THEN 1 WHEN 'recall' THEN 2 ELSE 3 END, state, attempts, not_before,
       idempotency_key, outcome_unknown, error, locked_by, heartbeat_at, requested_by, created_at, finished_at
FROM jobs WHERE queue = 'xero' ORDER BY id;
CREATE UNIQUE INDEX xero_jobs_active ON xero_jobs (org_id, target) WHERE state IN (0, 1);
CREATE INDEX xero_jobs_due ON xero_jobs (state, not_before);
CREATE INDEX xero_jobs_order ON xero_jobs (order_id);

DROP TABLE jobs;
