-- Printing without a dialog (issue 33, docs/decisions/documents.md "Printing to IPP
-- printers"): a company's IPP printers, each used by one warehouse or by any (warehouse_id
-- NULL), and the history of the print jobs sent to them. A print job is a job of the one
-- queue (queue 'print', job_id) with this row beside it: the sheets (comma-separated ids),
-- the variant, where it got to (queued, sending, printed, failed) and the job-id the
-- printer gave it once it accepted the document.
CREATE TABLE printers (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    warehouse_id BIGINT,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX printers_org_name ON printers (org_id, name);

CREATE TABLE print_jobs (
    id BIGSERIAL PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    job_id BIGINT NOT NULL REFERENCES jobs(id),
    printer_id BIGINT NOT NULL,
    printer_name TEXT NOT NULL,
    order_ids TEXT NOT NULL,
    variant TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    printer_job_id INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    created_by BIGINT REFERENCES users(id),
    created_at TIMESTAMP NOT NULL,
    done_at TIMESTAMP
);
CREATE UNIQUE INDEX print_jobs_job ON print_jobs (job_id);
CREATE INDEX print_jobs_org ON print_jobs (org_id, id);
