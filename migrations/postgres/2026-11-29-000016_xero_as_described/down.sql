ALTER TABLE xero_connections DROP COLUMN mapping;
ALTER TABLE xero_connections DROP COLUMN rates;
ALTER TABLE xero_connections DROP COLUMN chart;
ALTER TABLE xero_connections DROP COLUMN tenant_id;
