DROP TABLE login_failures;
