-- Running the company (issue 13, docs/decisions.md "Running the company"): suppliers,
-- warehouses, brands and the company's settings are edited in the app with version checks;
-- staff get a per-company active flag and one-time passwords; every change is audited.
ALTER TABLE suppliers ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE warehouses ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE brands ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE organisations ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN must_change_password BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE memberships ADD COLUMN active BOOLEAN NOT NULL DEFAULT 1;

CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    user_id BIGINT NOT NULL REFERENCES users(id),
    at TEXT NOT NULL,
    entity TEXT NOT NULL,
    entity_id BIGINT,
    action TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_org ON audit_log (org_id, id);
