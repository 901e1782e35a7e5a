ALTER TABLE suppliers DROP COLUMN email;
