//! The hourly upkeep of a server process.

use std::sync::Arc;
use std::time::Duration;

use crate::Core;

/// Hourly upkeep: refreshes the planner's statistics (`db::optimize`), so plans follow the
/// data as it grows, forgets sign-in failure meters that no longer count, removes
/// reports past their retention, and queues the refresh of stale Xero balances and the read of
/// Xero payments. A failure is logged and tried again at the next tick.
pub async fn run(core: Arc<Core>) {
    let db = core.db.clone();
    let mut every = tokio::time::interval(Duration::from_secs(3600));
    every.tick().await; // the first tick is immediate; `open` has just optimised
    loop {
        every.tick().await;
        // It may write statistics, so on SQLite it queues with the other writers.
        if let Err(e) = db.write(db::optimize).await {
            tracing::warn!("refreshing the database statistics failed: {e}");
        }
        if let Err(e) = db.write(|c| db::accounts::forget_failures_before(c, db::now())).await {
            tracing::warn!("forgetting old sign-in failures failed: {e}");
        }
        if let Err(e) = db.write(db::notices::forget_stale).await {
            tracing::warn!("forgetting notices no page took failed: {e}");
        }
        if let Err(e) = super::files::clean(&core).await {
            tracing::warn!("cleaning old reports failed: {e}");
        }
        // Customers' Xero balances (the approval guard's credit-limit rule) read again.
        let now = core.xero.clock.now();
        match db.write(move |c| crate::xero::refresh_all_balances(c, now)).await {
            Ok(n) if n > 0 => core.xero.bell.notify_one(),
            Ok(_) => {}
            Err(e) => tracing::warn!("queueing the Xero balance refresh failed: {e}"),
        }
        // Payments of sent sales invoices read back (issue 31): one read per connected company.
        match db.write(move |c| crate::xero::refresh_all_payments(c, now)).await {
            Ok(n) if n > 0 => core.xero.bell.notify_one(),
            Ok(_) => {}
            Err(e) => tracing::warn!("queueing the Xero payments read failed: {e}"),
        }
    }
}
