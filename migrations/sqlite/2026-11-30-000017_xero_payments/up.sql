-- Payments read back for sent sales invoices (issue 31, docs/decisions/xero.md "Payments
-- read back"). What Xero said an invoice sent from this sheet still owes and has been paid,
-- the day it was fully paid and when that was read (all NULL until first read).
ALTER TABLE orders ADD COLUMN xero_amount_due BIGINT;
ALTER TABLE orders ADD COLUMN xero_amount_paid BIGINT;
ALTER TABLE orders ADD COLUMN xero_paid_on TEXT;
ALTER TABLE orders ADD COLUMN xero_payments_at TEXT;
-- The company's cursor: the next read asks Xero only for invoices changed after it.
ALTER TABLE xero_connections ADD COLUMN payments_read_at TEXT;
-- The approval guard's overdue rule: days past due after which a customer's invoice stops
-- an approval (NULL: off).
ALTER TABLE organisations ADD COLUMN overdue_guard_days INTEGER;
-- A payments read finds each invoice's sheet by the id Xero gave it: one index lookup per
-- invoice rather than a walk of the company's sheets (only sheets sent to Xero are in it).
CREATE INDEX orders_xero_id ON orders (org_id, xero_id) WHERE xero_id <> '';
