-- Dispatch (issue 34, docs/decisions/dispatch.md): a driver's run for a day and a warehouse
-- (e.g. 'Morning North'), its stops in the office's order, and what the driver recorded at
-- each stop through the run's link (no sign-in): the outcome, who received the goods, the
-- cash collected and its pay type, and the signature or photo (run_proofs, kept apart so
-- the board's join stays narrow). A sheet is on at most one open run; a closed run keeps its
-- stops as the day's record. link_token is the capability the run sheet's QR code carries
-- ('' when revoked or never issued); it expires at link_expires_at.
CREATE TABLE dispatch_runs (
    id INTEGER PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    run_date DATE NOT NULL,
    warehouse_id BIGINT NOT NULL REFERENCES warehouses(id),
    driver_id BIGINT NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    link_token TEXT NOT NULL DEFAULT '',
    link_expires_at TEXT,
    closed_at TEXT,
    closed_by BIGINT REFERENCES users(id),
    created_by BIGINT REFERENCES users(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX dispatch_runs_name ON dispatch_runs (org_id, run_date, warehouse_id, driver_id, name);
CREATE INDEX dispatch_runs_link ON dispatch_runs (link_token) WHERE link_token <> '';

CREATE TABLE run_stops (
    id INTEGER PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    run_id BIGINT NOT NULL REFERENCES dispatch_runs(id),
    order_id BIGINT NOT NULL REFERENCES orders(id),
    position INTEGER NOT NULL,
    outcome INTEGER NOT NULL DEFAULT 0,
    reason TEXT NOT NULL DEFAULT '',
    received_by TEXT NOT NULL DEFAULT '',
    collected BIGINT NOT NULL DEFAULT 0,
    collected_pay_type INTEGER NOT NULL DEFAULT 0,
    update_key TEXT NOT NULL DEFAULT '',
    recorded_at TEXT
);
CREATE UNIQUE INDEX run_stops_run_order ON run_stops (run_id, order_id);
CREATE INDEX run_stops_order ON run_stops (order_id);

CREATE TABLE run_proofs (
    stop_id BIGINT PRIMARY KEY REFERENCES run_stops(id),
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    kind TEXT NOT NULL,
    mime TEXT NOT NULL,
    bytes BLOB NOT NULL,
    created_at TEXT NOT NULL
);

-- The board reads a warehouse's sheets by dispatch date (the delivery date, or the sheet's
-- date when it has none).
CREATE INDEX orders_dispatch ON orders (org_id, warehouse_id, delivery_date, order_date);
