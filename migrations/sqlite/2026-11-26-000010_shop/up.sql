-- The customer shop (issue 14, docs/decisions.md "The customer shop"): customers with shop
-- access sign in with their e-mail and a password of their own, in sessions and tokens
-- apart from staff ones; their cart (carts_csr) is kept on the server.
ALTER TABLE customers ADD COLUMN shop_password_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE customers ADD COLUMN shop_must_change BOOLEAN NOT NULL DEFAULT 0;

CREATE TABLE shop_sessions (
    id TEXT PRIMARY KEY NOT NULL,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    customer_id BIGINT NOT NULL REFERENCES customers(id),
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX shop_sessions_customer ON shop_sessions (customer_id);

CREATE TABLE shop_tokens (
    id TEXT PRIMARY KEY NOT NULL,
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    customer_id BIGINT NOT NULL REFERENCES customers(id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX shop_tokens_customer ON shop_tokens (customer_id);

CREATE TABLE shop_cart_lines (
    customer_id BIGINT NOT NULL REFERENCES customers(id),
    product_id BIGINT NOT NULL REFERENCES products(id),
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    qty BIGINT NOT NULL,
    price_seen BIGINT NOT NULL,
    added_at TEXT NOT NULL,
    PRIMARY KEY (customer_id, product_id)
);
