-- PostgreSQL only (an index that carries the search text for ordered walks); SQLite answers
-- the same walk from its FTS index. Kept so both backends have the same migrations.
SELECT 1;
