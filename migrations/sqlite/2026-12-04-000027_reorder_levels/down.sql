ALTER TABLE memberships DROP COLUMN is_buyer;
DROP TABLE reorder_levels;
