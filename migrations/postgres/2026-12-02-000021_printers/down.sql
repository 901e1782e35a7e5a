DROP TABLE print_jobs;
DROP TABLE printers;
