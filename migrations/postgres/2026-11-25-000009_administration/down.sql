DROP TABLE audit_log;
ALTER TABLE memberships DROP COLUMN active;
ALTER TABLE users DROP COLUMN must_change_password;
ALTER TABLE organisations DROP COLUMN version;
ALTER TABLE brands DROP COLUMN version;
ALTER TABLE warehouses DROP COLUMN version;
ALTER TABLE suppliers DROP COLUMN version;
