DROP INDEX orders_xero_id;
ALTER TABLE organisations DROP COLUMN overdue_guard_days;
ALTER TABLE xero_connections DROP COLUMN payments_read_at;
ALTER TABLE orders DROP COLUMN xero_payments_at;
ALTER TABLE orders DROP COLUMN xero_paid_on;
ALTER TABLE orders DROP COLUMN xero_amount_paid;
ALTER TABLE orders DROP COLUMN xero_amount_due;
