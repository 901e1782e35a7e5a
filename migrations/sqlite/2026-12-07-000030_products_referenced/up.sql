-- PostgreSQL's indexes for the foreign keys that name a product (see the PostgreSQL
-- migration). SQLite plans each such look-up as a query and answers it from the indexes that
-- start with `org_id` by a skip-scan: nothing to add here.
SELECT 1;
