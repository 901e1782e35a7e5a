-- Tyres by DOT date (issue 36, docs/decisions/tyre-lots.md). A tyre product tracked by DOT
-- keeps its stock per warehouse and DOT code (year * 100 + week, 0 = unknown: stock from
-- before tracking, until counted); the per-warehouse `stocks` row stays the sum of its lots.
-- `line_lots` is what an approval took from or put into each lot, per line, so unapprove,
-- credit notes, the printed invoice and the picking list know the codes exactly.
ALTER TABLE products ADD COLUMN dot_tracked BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE products SET dot_tracked = TRUE
 WHERE category = 1 AND tag1 IN ('PCR tyres', 'TBR tyres', 'Trailer tyres & Wheel');

ALTER TABLE order_lines ADD COLUMN dot INTEGER;
ALTER TABLE stock_moves ADD COLUMN dot INTEGER;

CREATE TABLE stock_lots (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    warehouse_id BIGINT NOT NULL REFERENCES warehouses(id),
    product_id BIGINT NOT NULL REFERENCES products(id),
    dot INTEGER NOT NULL,
    on_hand BIGINT NOT NULL
);
CREATE UNIQUE INDEX stock_lots_key ON stock_lots (warehouse_id, product_id, dot);
CREATE INDEX stock_lots_product ON stock_lots (org_id, product_id, warehouse_id, dot);
INSERT INTO stock_lots (org_id, warehouse_id, product_id, dot, on_hand)
SELECT s.org_id, s.warehouse_id, s.product_id, 0, s.on_hand
  FROM stocks s JOIN products p ON p.id = s.product_id
 WHERE p.dot_tracked AND s.on_hand <> 0;

CREATE TABLE line_lots (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    order_id BIGINT NOT NULL REFERENCES orders(id),
    line_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL REFERENCES warehouses(id),
    product_id BIGINT NOT NULL REFERENCES products(id),
    dot INTEGER NOT NULL,
    qty BIGINT NOT NULL
);
CREATE INDEX line_lots_order ON line_lots (order_id, line_id);

ALTER TABLE organisations ADD COLUMN dot_on_documents BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE organisations ADD COLUMN shop_shows_dot BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE organisations ADD COLUMN old_tyre_years INTEGER;
ALTER TABLE customers ADD COLUMN accepts_old_tyres BOOLEAN NOT NULL DEFAULT FALSE;
