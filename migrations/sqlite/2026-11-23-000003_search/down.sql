CREATE INDEX orders_customer ON orders (org_id, customer_id, order_date);
CREATE INDEX orders_supplier ON orders (org_id, supplier_id, order_date);
DROP INDEX orders_customer_type;
DROP INDEX orders_supplier_type;
DROP TRIGGER products_fts_insert; DROP TRIGGER products_fts_delete; DROP TRIGGER products_fts_update; DROP TABLE products_fts;
DROP TRIGGER customers_fts_insert; DROP TRIGGER customers_fts_delete; DROP TRIGGER customers_fts_update; DROP TABLE customers_fts;
DROP TRIGGER suppliers_fts_insert; DROP TRIGGER suppliers_fts_delete; DROP TRIGGER suppliers_fts_update; DROP TABLE suppliers_fts;
DROP TRIGGER orders_fts_insert; DROP TRIGGER orders_fts_delete; DROP TRIGGER orders_fts_update; DROP TABLE orders_fts;
