-- Purchase suggestions (issue 35, docs/decisions/purchasing.md): a product's reorder point and
-- order-up-to level per warehouse, as a buyer entered them (a product without a row takes the
-- levels proposed from its sales), and the buyer flag on a membership (who may use the
-- suggestions screen besides approvers).
CREATE TABLE reorder_levels (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    product_id BIGINT NOT NULL REFERENCES products(id),
    warehouse_id BIGINT NOT NULL REFERENCES warehouses(id),
    reorder_point BIGINT NOT NULL,
    order_up_to BIGINT NOT NULL,
    updated_by BIGINT REFERENCES users(id),
    updated_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX reorder_levels_key ON reorder_levels (org_id, warehouse_id, product_id);

ALTER TABLE memberships ADD COLUMN is_buyer BOOLEAN NOT NULL DEFAULT FALSE;
