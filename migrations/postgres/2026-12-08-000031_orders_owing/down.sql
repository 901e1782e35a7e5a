DROP INDEX orders_owing;
