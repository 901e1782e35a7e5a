-- Purchase suggestions (issue 35, docs/decisions/purchasing.md): a product's reorder point and
-- order-up-to level per warehouse, as a buyer entered them (a product without a row takes the
-- levels proposed from its sales), and the buyer flag on a membership (who may use the
-- suggestions screen besides approvers). SQLite cannot drop a column with REFERENCES, so the
-- ids carry none here (PostgreSQL's do).
CREATE TABLE reorder_levels (
    id INTEGER PRIMARY KEY,
    org_id BIGINT NOT NULL,
    product_id BIGINT NOT NULL,
    warehouse_id BIGINT NOT NULL,
    reorder_point BIGINT NOT NULL,
    order_up_to BIGINT NOT NULL,
    updated_by BIGINT,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX reorder_levels_key ON reorder_levels (org_id, warehouse_id, product_id);

ALTER TABLE memberships ADD COLUMN is_buyer BOOLEAN NOT NULL DEFAULT FALSE;
