-- Word search without scanning (issue 10): trigram GIN indexes let `search_text LIKE
-- '%word%'` use an index for words of three or more characters. pg_trgm ships with
-- PostgreSQL and is a trusted extension (13+), so the database owner can create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX products_search_trgm ON products USING gin (search_text gin_trgm_ops);
CREATE INDEX customers_search_trgm ON customers USING gin (search_text gin_trgm_ops);
CREATE INDEX suppliers_search_trgm ON suppliers USING gin (search_text gin_trgm_ops);
CREATE INDEX orders_no_trgm ON orders USING gin (no gin_trgm_ops);
CREATE INDEX orders_reference_trgm ON orders USING gin (reference gin_trgm_ops);

-- Sheets of one customer or supplier of a type, newest first (see the SQLite migration).
CREATE INDEX orders_customer_type ON orders (org_id, customer_id, order_type, order_date, id);
CREATE INDEX orders_supplier_type ON orders (org_id, supplier_id, order_type, order_date, id);
DROP INDEX orders_customer;
DROP INDEX orders_supplier;

-- Customer self-orders awaiting staff (the header badge on every page, and their list):
-- rare among a million sheets, but the old (org_id, drafter_type, status) index averaged them
-- with the staff's sheets, and the planner walked all drafts of the type instead.
CREATE INDEX orders_self ON orders (org_id, drafter_type, order_type, status, order_date, id);
DROP INDEX orders_drafter;
