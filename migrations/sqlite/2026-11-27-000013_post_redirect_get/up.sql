-- Post/redirect/get everywhere (issue 29): what a form post has to say once (a one-time
-- password, an import's outcome, the Xero link's answer) waits here for the page the post
-- redirects to, which takes it; a reload shows the page without it and posts nothing again.
CREATE TABLE session_notices (
    session_id TEXT PRIMARY KEY NOT NULL,
    level TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL
);
-- Imports remember the file (its SHA-256) and what they did, so the same file imported
-- twice in a row is refused unless confirmed.
ALTER TABLE imports ADD COLUMN digest TEXT NOT NULL DEFAULT '';
ALTER TABLE imports ADD COLUMN message TEXT NOT NULL DEFAULT '';
CREATE INDEX imports_latest ON imports (org_id, kind, id);
