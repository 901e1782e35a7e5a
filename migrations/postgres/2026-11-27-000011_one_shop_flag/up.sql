-- One field for one fact (issue 29, docs/decisions.md "The shop sells only what is priced and
-- shown"): whether customers see a product was two columns, the product form's show_for_shop
-- and the price dialog's is_customer_show, and the shop read only the second. A product stays
-- shown only where neither said no; is_customer_show goes.
UPDATE products SET show_for_shop = (show_for_shop AND is_customer_show);
ALTER TABLE products DROP COLUMN is_customer_show;
