-- The warehouse a new sheet starts in (issue 32): a company setting, as users have no
-- branch or warehouse of their own. No foreign key: a default that is no longer one of the
-- company's warehouses is ignored where it is read, and the settings form refuses one.
ALTER TABLE organisations ADD COLUMN default_warehouse_id BIGINT;
