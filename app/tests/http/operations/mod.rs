//! Running the server: backup and copy to PostgreSQL, the seed, the schema on both backends,
//! several processes on one database, concurrency, word search and round trips per page.

mod backup;
mod concurrency;
mod job_queue;
pub(crate) mod object_storage;
mod cluster;
mod query_count;
pub(crate) mod scale_out;
mod schema;
mod search;
mod seed;
