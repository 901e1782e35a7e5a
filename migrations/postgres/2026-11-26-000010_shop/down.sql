DROP TABLE shop_cart_lines;
DROP TABLE shop_tokens;
DROP TABLE shop_sessions;
ALTER TABLE customers DROP COLUMN shop_must_change;
ALTER TABLE customers DROP COLUMN shop_password_hash;
