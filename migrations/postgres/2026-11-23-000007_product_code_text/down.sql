DROP INDEX products_code_text;
