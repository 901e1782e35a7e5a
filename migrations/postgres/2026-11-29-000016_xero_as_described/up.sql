-- The accounting link as Xero describes itself (issue 31, docs/decisions/xero.md).
-- Xero's description requires the header `xero-tenant-id` on every Accounting call: the
-- organisation a connection reaches, read from `GET /connections` when the connection is
-- tested, and by the first job of a connection made before this column.
ALTER TABLE xero_connections ADD COLUMN tenant_id TEXT NOT NULL DEFAULT '';
-- The company's chart of accounts and tax rates as last read from Xero (JSON lists), and
-- where its sheets post (JSON: four accounts, four tax types). Proposed from the chart on
-- connecting, changed in Settings, checked on every test; nothing is sent while incomplete.
ALTER TABLE xero_connections ADD COLUMN chart TEXT NOT NULL DEFAULT '';
ALTER TABLE xero_connections ADD COLUMN rates TEXT NOT NULL DEFAULT '';
ALTER TABLE xero_connections ADD COLUMN mapping TEXT NOT NULL DEFAULT '';
