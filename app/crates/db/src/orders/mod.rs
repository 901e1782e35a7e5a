//! Sheet queries.
//!
//! `read`: one sheet and what hangs off it; `list`: the filtered lists and their exports;
//! `write`: inserting and changing sheets and their lines. Everything is re-exported here, so
//! `db::orders::X` names it.

mod list;
mod payments;
mod read;
mod write;

pub use list::*;
pub use payments::*;
pub use read::*;
pub use write::*;
