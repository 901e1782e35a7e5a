-- A sheet list filtered by many customers or suppliers (e.g. 'To CSR' = a word in 150 names)
-- walks the list's date index and keeps the sheets of those counterparties (issue 10). With
-- the counterparty columns in the index, SQLite tests each entry inside the index and reads
-- only the table rows it keeps, instead of reading a row for every entry it walks past
-- (docs/decisions.md has the measurement).
-- Both backends keep the same index (PostgreSQL can answer the same walk from the index
-- alone when it only needs ids, e.g. to count).
DROP INDEX orders_type_date;
CREATE INDEX orders_type_date ON orders (org_id, order_type, order_date, id, customer_id, supplier_id);
