-- "Connect to Xero" (issue 31, docs/decisions/xero.md): the OAuth 2.0 authorization-code
-- flow with PKCE beside the Custom Connection. A connection says which grant it uses; a
-- code connection keeps its refresh token sealed like the secret (single-use, replaced on
-- every refresh, 60 days), the organisations Xero offered (JSON, until one is picked) and
-- why it must be made again (empty while Xero accepts it).
ALTER TABLE xero_connections ADD COLUMN grant_type TEXT NOT NULL DEFAULT 'client_credentials';
ALTER TABLE xero_connections ADD COLUMN login_url TEXT NOT NULL DEFAULT '';
ALTER TABLE xero_connections ADD COLUMN refresh_sealed TEXT NOT NULL DEFAULT '';
ALTER TABLE xero_connections ADD COLUMN refresh_expires_at TEXT;
ALTER TABLE xero_connections ADD COLUMN tenants TEXT NOT NULL DEFAULT '';
ALTER TABLE xero_connections ADD COLUMN reconnect TEXT NOT NULL DEFAULT '';

-- A sign-in under way: the state the callback must bring back (single use, ten minutes),
-- for which company and approver, with the PKCE verifier and the app's secret sealed.
CREATE TABLE xero_sign_ins (
    state TEXT PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    client_id TEXT NOT NULL,
    secret_sealed TEXT NOT NULL,
    verifier_sealed TEXT NOT NULL,
    login_url TEXT NOT NULL,
    identity_url TEXT NOT NULL,
    api_url TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    created_at TEXT NOT NULL
);
