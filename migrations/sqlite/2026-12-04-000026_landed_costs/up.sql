-- Landed costs (issue 35, docs/decisions/purchasing.md "Landed costs"): a cost bill (freight,
-- duty, insurance, brokerage) or one line of it spread over stock bills (its targets) by
-- value or quantity. kind 1 freight, 2 duty, 3 insurance, 4 brokerage, 5 other; method 1
-- value, 2 quantity; status 1 draft, 2 approved. amount is AUD cents ex GST (GST is
-- claimable, so it is never part of a cost). The result lines are written on approval and
-- kept, so unapproving reverses exactly what was done.
CREATE TABLE landed_costs (
    id INTEGER PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    source_id BIGINT NOT NULL REFERENCES orders(id),
    source_line_id BIGINT REFERENCES order_lines(id),
    kind INTEGER NOT NULL,
    method INTEGER NOT NULL,
    amount BIGINT NOT NULL,
    status INTEGER NOT NULL DEFAULT 1,
    created_by BIGINT REFERENCES users(id),
    created_at TEXT NOT NULL,
    approved_by BIGINT REFERENCES users(id),
    approved_at TEXT,
    version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX landed_costs_org ON landed_costs (org_id, created_at);
CREATE INDEX landed_costs_source ON landed_costs (source_id);

CREATE TABLE landed_cost_targets (
    id INTEGER PRIMARY KEY,
    landed_cost_id BIGINT NOT NULL REFERENCES landed_costs(id),
    order_id BIGINT NOT NULL REFERENCES orders(id)
);
CREATE UNIQUE INDEX landed_cost_targets_pair ON landed_cost_targets (landed_cost_id, order_id);
CREATE INDEX landed_cost_targets_order ON landed_cost_targets (order_id);

CREATE TABLE landed_cost_lines (
    id INTEGER PRIMARY KEY,
    landed_cost_id BIGINT NOT NULL REFERENCES landed_costs(id),
    order_id BIGINT NOT NULL REFERENCES orders(id),
    order_line_id BIGINT NOT NULL REFERENCES order_lines(id),
    product_id BIGINT NOT NULL REFERENCES products(id),
    qty_received BIGINT NOT NULL,
    qty_in_stock BIGINT NOT NULL,
    share BIGINT NOT NULL,
    to_stock BIGINT NOT NULL,
    to_cogs BIGINT NOT NULL,
    old_cost BIGINT NOT NULL,
    new_cost BIGINT NOT NULL
);
CREATE INDEX landed_cost_lines_lc ON landed_cost_lines (landed_cost_id);

-- Product cost history: every move of products.cost_price by a bill's approval or a landed
-- cost (and their reversal), newest read first per product.
CREATE TABLE cost_changes (
    id INTEGER PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    product_id BIGINT NOT NULL REFERENCES products(id),
    old_cost BIGINT NOT NULL,
    new_cost BIGINT NOT NULL,
    reason TEXT NOT NULL,
    order_id BIGINT REFERENCES orders(id),
    landed_cost_id BIGINT REFERENCES landed_costs(id),
    user_id BIGINT REFERENCES users(id),
    created_at TEXT NOT NULL
);
CREATE INDEX cost_changes_product ON cost_changes (org_id, product_id, created_at);
