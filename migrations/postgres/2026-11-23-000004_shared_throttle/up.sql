-- Sign-in failure meters shared by every server process on one database (issue 10): the
-- per-account meters of auth::throttle, as GCRA "theoretical arrival times" (UTC). A row
-- only moves forward; a successful sign-in deletes its account-and-address row.
CREATE TABLE login_failures (
    meter_key TEXT PRIMARY KEY,
    tat TIMESTAMP NOT NULL
);
CREATE INDEX login_failures_tat ON login_failures (tat);
