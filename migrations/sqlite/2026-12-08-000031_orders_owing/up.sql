-- The customer lists and pickers show each customer's overdue amount: their invoices sent to
-- Xero that still owe something. Through `orders_customer_type` that read every invoice of
-- the page's customers from the table (20 customers of about 120 invoices each at scale L:
-- the picker's answer took three times its own search). This index holds only the invoices
-- that owe, with every column the query reads, so it never goes to the table: with a table
-- look-up a row each, SQLite's planner still preferred `orders_customer_type` (issue 37).
-- The query states the index's conditions as constants, so both backends can use it.
CREATE INDEX orders_owing ON orders (org_id, customer_id, due_date, order_date, xero_amount_due, order_type, xero_sent)
    WHERE order_type = 1 AND xero_sent = 1 AND xero_amount_due > 0;
