-- A check-out is idempotent (issue 29): the cart is consumed exactly once. The order each
-- confirmed check-out placed is kept, so the same check-out sent again (a double click, a
-- reload, a retry after a lost answer) is answered with that order instead of a second one.
CREATE TABLE shop_checkouts (
    org_id BIGINT NOT NULL REFERENCES organisations(id),
    customer_id BIGINT NOT NULL REFERENCES customers(id),
    confirmed TEXT NOT NULL,
    order_id BIGINT NOT NULL REFERENCES orders(id),
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (org_id, customer_id, confirmed)
);
