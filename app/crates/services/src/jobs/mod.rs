//! Background work, one set of loops per server process: the queue of report and import
//! jobs (`queue`: claimed with a lease, kept alive by a heartbeat, fair between companies),
//! the accounting link's queue of Xero calls (`xero::worker`, its own table and rate
//! budget), and the hourly upkeep. Every loop survives its failures and logs them.

pub mod queue;
pub mod upkeep;

use std::sync::Arc;

use crate::Core;

/// Starts this process's background loops on the Tokio runtime.
pub fn start(core: Arc<Core>) {
    tokio::spawn(queue::run(core.clone()));
    tokio::spawn(::xero::worker::run(core.db.clone(), core.xero.clone()));
    tokio::spawn(upkeep::run(core));
}
