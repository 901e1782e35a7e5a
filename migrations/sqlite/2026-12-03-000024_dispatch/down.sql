DROP INDEX orders_dispatch;
DROP TABLE run_proofs;
DROP TABLE run_stops;
DROP TABLE dispatch_runs;
