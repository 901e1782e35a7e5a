DROP TABLE shop_checkouts;
