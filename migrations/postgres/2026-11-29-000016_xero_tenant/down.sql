ALTER TABLE xero_connections DROP COLUMN tenant_id;
