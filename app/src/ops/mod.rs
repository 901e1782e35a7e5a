//! Operations commands (docs/operations.md): `tyredesk backup` and `tyredesk
//! copy-to-postgres`. Plain functions over a [`Config`](web::config::Config) so the tests
//! call what the command line calls. (`web::files` keeps what the server writes private.)

pub mod backup;
pub mod copy;

