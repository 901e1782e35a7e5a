-- Lists and exports of every sheet type (the API's `GET /api/orders`, `format=xlsx`) walk the
-- company's sheets by date with no type to start from: without this index both backends
-- sorted the whole company for every page, and an export's keyset walk did so for every
-- chunk (1.4 s a page on SQLite at scale L; the API export of every sheet answered 408 on
-- PostgreSQL after 60 s). The counterparty columns let a search by customer or supplier
-- name test each entry inside the index, as `orders_type_date` does (issue 37).
CREATE INDEX orders_date ON orders (org_id, order_date, id, customer_id, supplier_id);
