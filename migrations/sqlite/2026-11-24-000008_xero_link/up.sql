-- The accounting link (issue 12, docs/decisions.md "Xero"). The unused outbox of the first
-- schema gives way to xero_jobs, shaped like report_jobs: a worker claims a due job, beats
-- its heartbeat, and a job whose worker died is claimed again. One active job per target
-- (a sheet, or a company's balances) at a time, even across server processes.
DROP TABLE accounting_outbox;

-- One Custom Connection per company. The client secret is sealed with a key kept outside
-- the database (TYREDESK_SECRET_KEY or <data dir>/secret.key); the rate budget (GCRA
-- theoretical arrival time, the day's count, a 429's block) is shared by every process.
CREATE TABLE xero_connections (
    org_id BIGINT PRIMARY KEY REFERENCES organisations(id),
    client_id TEXT NOT NULL,
    secret_sealed TEXT NOT NULL,
    identity_url TEXT NOT NULL,
    api_url TEXT NOT NULL,
    xero_org_name TEXT NOT NULL DEFAULT '',
    tax_types TEXT NOT NULL DEFAULT '',
    tested_at TEXT,
    rate_tat TEXT,
    day_count INTEGER NOT NULL DEFAULT 0,
    day_of TEXT NOT NULL DEFAULT '',
    blocked_until TEXT,
    connected_by BIGINT NOT NULL REFERENCES users(id),
    connected_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE xero_jobs (
    id INTEGER PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    target TEXT NOT NULL,
    order_id BIGINT REFERENCES orders(id),
    kind INTEGER NOT NULL,
    state INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    not_before TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    outcome_unknown BOOLEAN NOT NULL DEFAULT FALSE,
    error TEXT NOT NULL DEFAULT '',
    locked_by TEXT NOT NULL DEFAULT '',
    heartbeat_at TEXT,
    requested_by BIGINT REFERENCES users(id),
    created_at TEXT NOT NULL,
    finished_at TEXT
);
CREATE UNIQUE INDEX xero_jobs_active ON xero_jobs (org_id, target) WHERE state IN (0, 1);
CREATE INDEX xero_jobs_due ON xero_jobs (state, not_before);
CREATE INDEX xero_jobs_order ON xero_jobs (order_id);

-- What Xero holds of our records: the version last sent (a later edit means "update on the
-- next send"), the item's id, the supplier's contact, and when a balance was read.
ALTER TABLE customers ADD COLUMN xero_synced_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE customers ADD COLUMN xero_balance_at TEXT;
ALTER TABLE products ADD COLUMN xero_synced_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE suppliers ADD COLUMN xero_contact_id TEXT NOT NULL DEFAULT '';
ALTER TABLE suppliers ADD COLUMN xero_synced_at TEXT;
