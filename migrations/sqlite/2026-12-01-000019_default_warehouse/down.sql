ALTER TABLE organisations DROP COLUMN default_warehouse_id;
