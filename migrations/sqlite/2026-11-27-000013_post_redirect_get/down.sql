DROP INDEX imports_latest;
ALTER TABLE imports DROP COLUMN message;
ALTER TABLE imports DROP COLUMN digest;
DROP TABLE session_notices;
