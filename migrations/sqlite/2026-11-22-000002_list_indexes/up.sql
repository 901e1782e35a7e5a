-- Indexes measured with `tyredesk bench --scale M`: status-filtered sheet lists sorted by
-- date, and the distinct tag values of the product list's filter selects.
CREATE INDEX orders_type_status_date ON orders (org_id, order_type, status, order_date, id);
CREATE INDEX products_tag2 ON products (org_id, tag2);
CREATE INDEX products_tag3 ON products (org_id, tag3);
