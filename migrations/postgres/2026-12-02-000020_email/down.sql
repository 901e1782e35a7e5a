DROP TABLE emails;
DROP TABLE email_settings;
