-- Quotations (issue 33, docs/decisions/documents.md "Quotations, statements and purchase
-- orders"): the quoting cart saved for a customer at the customer's prices, numbered
-- Q-000001 per company (order_sequences, order_type 100), valid for the company's days.
ALTER TABLE organisations ADD COLUMN quotation_valid_days INTEGER NOT NULL DEFAULT 7;

CREATE TABLE quotations (
    id INTEGER PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    no TEXT NOT NULL,
    customer_id BIGINT NOT NULL REFERENCES customers(id),
    quote_date TEXT NOT NULL,
    valid_until TEXT NOT NULL,
    total_qty BIGINT NOT NULL,
    total_amount BIGINT NOT NULL,
    total_gst BIGINT NOT NULL,
    created_by BIGINT REFERENCES users(id),
    created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX quotations_no ON quotations (org_id, no);
CREATE INDEX quotations_customer ON quotations (org_id, customer_id, quote_date);

-- A line keeps the product's code and the description as quoted, so a renamed or deleted
-- product does not change a quotation that was sent; never its cost.
CREATE TABLE quotation_lines (
    id INTEGER PRIMARY KEY,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    quotation_id BIGINT NOT NULL REFERENCES quotations(id),
    seq INTEGER NOT NULL,
    product_id BIGINT REFERENCES products(id),
    code TEXT NOT NULL,
    description TEXT NOT NULL,
    quantity BIGINT NOT NULL,
    price BIGINT NOT NULL,
    amount BIGINT NOT NULL
);
CREATE INDEX quotation_lines_quotation ON quotation_lines (quotation_id, seq);
