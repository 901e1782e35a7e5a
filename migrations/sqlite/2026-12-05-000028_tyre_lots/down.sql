ALTER TABLE customers DROP COLUMN accepts_old_tyres;
ALTER TABLE organisations DROP COLUMN old_tyre_years;
ALTER TABLE organisations DROP COLUMN shop_shows_dot;
ALTER TABLE organisations DROP COLUMN dot_on_documents;
DROP TABLE line_lots;
DROP TABLE stock_lots;
ALTER TABLE stock_moves DROP COLUMN dot;
ALTER TABLE order_lines DROP COLUMN dot;
ALTER TABLE products DROP COLUMN dot_tracked;
