DROP INDEX IF EXISTS products_tag3;
DROP INDEX IF EXISTS products_tag2;
DROP INDEX IF EXISTS orders_type_status_date;
