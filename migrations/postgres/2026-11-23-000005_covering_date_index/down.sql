DROP INDEX orders_type_date;
CREATE INDEX orders_type_date ON orders (org_id, order_type, order_date, id);
