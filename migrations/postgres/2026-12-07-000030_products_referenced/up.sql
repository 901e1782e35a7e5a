-- Deleting a product makes PostgreSQL look, for each foreign key, for rows that still name
-- it, by `product_id` alone. The indexes of these tables start with `org_id`, which
-- PostgreSQL 15 cannot skip, so each deleted product read them whole: 48 ms for the order
-- lines alone at scale S, about half a second at L, and the benchmark's removal of the
-- 100,000 products it imports would have taken over an hour (issue 38). Measured at S:
-- 109 s with the order lines' index alone, 7 s with all six. The other tables that name a
-- product are small.
CREATE INDEX order_lines_by_product ON order_lines (product_id);
CREATE INDEX ocop_prices_by_product ON ocop_prices (product_id);
CREATE INDEX stock_lots_by_product ON stock_lots (product_id);
CREATE INDEX price_changes_by_product ON price_changes (product_id);
CREATE INDEX stocks_by_product ON stocks (product_id);
CREATE INDEX stock_moves_by_product ON stock_moves (product_id);
