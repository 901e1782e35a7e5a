DROP TABLE xero_sign_ins;
ALTER TABLE xero_connections DROP COLUMN reconnect;
ALTER TABLE xero_connections DROP COLUMN tenants;
ALTER TABLE xero_connections DROP COLUMN refresh_expires_at;
ALTER TABLE xero_connections DROP COLUMN refresh_sealed;
ALTER TABLE xero_connections DROP COLUMN login_url;
ALTER TABLE xero_connections DROP COLUMN grant_type;
