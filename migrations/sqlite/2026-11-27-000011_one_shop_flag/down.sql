ALTER TABLE products ADD COLUMN is_customer_show BOOLEAN NOT NULL DEFAULT 1;
UPDATE products SET is_customer_show = show_for_shop;
