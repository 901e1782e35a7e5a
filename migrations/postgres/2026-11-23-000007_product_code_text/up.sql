-- A product word search in many products (at scale L 'michelin' is in 1,153 of a company's
-- 20,000) walks the company's products in code order and keeps those whose text contains
-- the word, stopping after a page. With the text in the index the walk never reads the
-- table: 3.3 ms instead of 19.6 ms for a page of 20 (docs/decisions.md, Scale). SQLite
-- answers the same walk from its FTS index (`search::filters`) and needs no such index.
CREATE INDEX products_code_text ON products (org_id, code, id) INCLUDE (search_text);
