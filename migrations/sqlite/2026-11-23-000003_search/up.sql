-- Word search without scanning (issue 10). Each searchable table gets an FTS5 index over its
-- `search_text` with the trigram tokenizer, so a word of three or more characters matches
-- anywhere inside the text exactly as `LIKE '%word%'` did ('r16' inside '205/55r16').
-- The index is an external-content table: it stores only the index, not a second copy of
-- the text, and the triggers below keep it in step with every write of `search_text`,
-- whichever code path (forms, imports, seeding) writes the row.
CREATE VIRTUAL TABLE products_fts USING fts5(search_text, content='products', content_rowid='id', tokenize='trigram');
CREATE VIRTUAL TABLE customers_fts USING fts5(search_text, content='customers', content_rowid='id', tokenize='trigram');
CREATE VIRTUAL TABLE suppliers_fts USING fts5(search_text, content='suppliers', content_rowid='id', tokenize='trigram');

CREATE TRIGGER products_fts_insert AFTER INSERT ON products BEGIN
    INSERT INTO products_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER products_fts_delete AFTER DELETE ON products BEGIN
    INSERT INTO products_fts (products_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
CREATE TRIGGER products_fts_update AFTER UPDATE OF search_text ON products BEGIN
    INSERT INTO products_fts (products_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    INSERT INTO products_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;
INSERT INTO products_fts (products_fts) VALUES ('rebuild');

CREATE TRIGGER customers_fts_insert AFTER INSERT ON customers BEGIN
    INSERT INTO customers_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER customers_fts_delete AFTER DELETE ON customers BEGIN
    INSERT INTO customers_fts (customers_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
CREATE TRIGGER customers_fts_update AFTER UPDATE OF search_text ON customers BEGIN
    INSERT INTO customers_fts (customers_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    INSERT INTO customers_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;
INSERT INTO customers_fts (customers_fts) VALUES ('rebuild');

CREATE TRIGGER suppliers_fts_insert AFTER INSERT ON suppliers BEGIN
    INSERT INTO suppliers_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER suppliers_fts_delete AFTER DELETE ON suppliers BEGIN
    INSERT INTO suppliers_fts (suppliers_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
CREATE TRIGGER suppliers_fts_update AFTER UPDATE OF search_text ON suppliers BEGIN
    INSERT INTO suppliers_fts (suppliers_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    INSERT INTO suppliers_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;
INSERT INTO suppliers_fts (suppliers_fts) VALUES ('rebuild');

-- Sheet numbers and references are searched anywhere inside them too ('No.' and 'Reference'
-- filters), through one trigram index over both columns.
CREATE VIRTUAL TABLE orders_fts USING fts5(no, reference, content='orders', content_rowid='id', tokenize='trigram');
CREATE TRIGGER orders_fts_insert AFTER INSERT ON orders BEGIN
    INSERT INTO orders_fts (rowid, no, reference) VALUES (new.id, new.no, new.reference);
END;
CREATE TRIGGER orders_fts_delete AFTER DELETE ON orders BEGIN
    INSERT INTO orders_fts (orders_fts, rowid, no, reference) VALUES ('delete', old.id, old.no, old.reference);
END;
CREATE TRIGGER orders_fts_update AFTER UPDATE OF no, reference ON orders BEGIN
    INSERT INTO orders_fts (orders_fts, rowid, no, reference) VALUES ('delete', old.id, old.no, old.reference);
    INSERT INTO orders_fts (rowid, no, reference) VALUES (new.id, new.no, new.reference);
END;
INSERT INTO orders_fts (orders_fts) VALUES ('rebuild');

-- Sheets of one customer or supplier of a type, newest first: the index that drives a list
-- filtered by 'To CSR' / supplier whichever way the planner's statistics lean.
CREATE INDEX orders_customer_type ON orders (org_id, customer_id, order_type, order_date, id);
CREATE INDEX orders_supplier_type ON orders (org_id, supplier_id, order_type, order_date, id);
DROP INDEX orders_customer;
DROP INDEX orders_supplier;

-- Customer self-orders awaiting staff (the header badge on every page, and their list):
-- rare among a million sheets, but the old (org_id, drafter_type, status) index averaged them
-- with the staff's sheets, and the planner walked all drafts of the type instead.
CREATE INDEX orders_self ON orders (org_id, drafter_type, order_type, status, order_date, id);
DROP INDEX orders_drafter;
