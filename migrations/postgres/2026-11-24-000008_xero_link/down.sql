ALTER TABLE suppliers DROP COLUMN xero_synced_at;
ALTER TABLE suppliers DROP COLUMN xero_contact_id;
ALTER TABLE products DROP COLUMN xero_synced_version;
ALTER TABLE customers DROP COLUMN xero_balance_at;
ALTER TABLE customers DROP COLUMN xero_synced_version;
DROP TABLE xero_jobs;
DROP TABLE xero_connections;
CREATE TABLE accounting_outbox (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    order_id BIGINT REFERENCES orders(id),
    kind TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '',
    state INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    idempotency_key TEXT NOT NULL,
    next_attempt_at TIMESTAMP NOT NULL,
    last_error TEXT NOT NULL DEFAULT '',
    locked_by TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX accounting_outbox_state ON accounting_outbox (state, next_attempt_at);
