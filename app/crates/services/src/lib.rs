//! Use cases that combine the database and the domain rules, each in one transaction, and
//! the background work that runs them (the report and import queue's worker). The pages,
//! the JSON API and the shop call the same functions, so a rule is enforced once; nothing
//! here knows HTTP, sessions or templates: a caller says who acts with a `domain::Actor`.

pub mod admin;
pub mod delivery;
pub mod dispatch;
pub mod dispatch_print;
pub mod email;
pub mod exchange_rates;
pub mod exports;
pub mod imports;
pub mod jobs;
pub mod landed;
pub mod line_import;
pub mod masters;
pub mod ocop_import;
pub mod orders;
pub mod prices;
pub mod password;
pub mod po_print;
pub mod pricing;
pub mod print;
pub mod quotations;
pub mod printing;
pub mod quoting;
pub mod reference_data;
pub mod reports;
pub mod shop;
pub mod sign_in;
pub mod statements;
pub mod store;
pub mod suggestions;
pub mod throttle;
pub mod xero;

use std::path::PathBuf;
use std::sync::Arc;

use db::Db;

/// What the services and their workers work with: the database, the data folder, the
/// report queue, the accounting link and the sign-in throttle (one per process, shared).
pub struct Core {
    pub db: Db,
    /// Exports' temporary files live under it (and, by default, the shared files).
    pub data_dir: PathBuf,
    /// Report files and queued uploads: the data directory or an S3-compatible store.
    pub store: store::Store,
    /// Rows an export reads from the database at a time.
    pub export_chunk: usize,
    /// The most sheets an export writes while its request waits; past it, a Download Center
    /// job ([`domain::exports::DIRECT_MAX`]; tests use a small one).
    pub export_direct_max: i64,
    pub throttle: throttle::LoginThrottle,
    /// The report queue's worker name and wake-up bell.
    pub reports: reports::Queue,
    /// The accounting link: client, secret key, clock and worker (issue 12).
    pub xero: Arc<::xero::Link>,
    /// The e-mail worker's name, bell and waits (issue 33).
    pub email: email::Outbox,
    /// Purchase suggestions worked out lately (issue 35).
    pub suggestions: suggestions::Cache,
}
