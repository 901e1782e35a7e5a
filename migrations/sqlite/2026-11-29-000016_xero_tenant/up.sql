-- Xero's description requires the header `xero-tenant-id` on every Accounting call (issue
-- 31, finding 7): the organisation a connection reaches, read from `GET /connections` when
-- the connection is tested, and by the first job of a connection made before this column.
ALTER TABLE xero_connections ADD COLUMN tenant_id TEXT NOT NULL DEFAULT '';
