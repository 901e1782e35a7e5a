CREATE INDEX orders_customer ON orders (org_id, customer_id, order_date);
CREATE INDEX orders_supplier ON orders (org_id, supplier_id, order_date);
DROP INDEX orders_customer_type;
DROP INDEX orders_supplier_type;
DROP INDEX products_search_trgm;
DROP INDEX customers_search_trgm;
DROP INDEX suppliers_search_trgm;
DROP INDEX orders_no_trgm;
DROP INDEX orders_reference_trgm;
