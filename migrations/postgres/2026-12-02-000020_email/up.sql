-- E-mail through the company's own SMTP relay (issue 33, docs/decisions/documents.md
-- "E-mail"). One row of settings per company (role 4, audited): the relay, its sign-in
-- (the password sealed like the Xero secret), From and Reply-To, whether an approved tax
-- invoice is e-mailed by itself, and a subject and text per document type (JSON; a type
-- left out uses the built-in default).
CREATE TABLE email_settings (
    org_id BIGINT PRIMARY KEY REFERENCES organisations(id),
    host TEXT NOT NULL DEFAULT '',
    port INTEGER NOT NULL DEFAULT 587,
    security TEXT NOT NULL DEFAULT 'starttls',
    username TEXT NOT NULL DEFAULT '',
    password_sealed TEXT NOT NULL DEFAULT '',
    from_address TEXT NOT NULL DEFAULT '',
    reply_to TEXT NOT NULL DEFAULT '',
    invoice_on_approval BOOLEAN NOT NULL DEFAULT FALSE,
    templates TEXT NOT NULL DEFAULT '',
    updated_at TIMESTAMP NOT NULL
);

-- Every e-mail sent or to send, its history: what (the document type, the sheet or another
-- reference), to whom, the subject, the Message-ID it is sent with (made of the row's id,
-- company and a random token kept here, so a resend reuses it), the outcome (queued,
-- sending, sent, failed), the attempts and the last error. A job of the `email` queue sends
-- it (`jobs.params` names the row).
CREATE TABLE emails (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    job_id BIGINT REFERENCES jobs(id),
    kind TEXT NOT NULL,
    order_id BIGINT REFERENCES orders(id),
    target_id BIGINT,
    reference TEXT NOT NULL DEFAULT '',
    recipients TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    token TEXT NOT NULL,
    message_id TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'queued',
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    created_by BIGINT REFERENCES users(id),
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP
);
CREATE INDEX emails_org_order ON emails (org_id, order_id, created_at);
CREATE INDEX emails_org_created ON emails (org_id, created_at);
