DROP TABLE quotation_lines;
DROP TABLE quotations;
ALTER TABLE organisations DROP COLUMN quotation_valid_days;
