DROP INDEX orders_date;
