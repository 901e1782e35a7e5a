//! Pure business rules of TyreDesk: no I/O, no web or database types, only values in and values out.

pub mod actor;
pub mod admin;
pub mod clone;
pub mod currency;
pub mod dates;
pub mod dispatch;
pub mod email;
pub mod due_date;
pub mod enums;
pub mod guard;
pub mod imports;
pub mod jobs;
pub mod landed;
pub mod limits;
pub mod lenient;
pub mod masters;
pub mod money;
pub mod payments;
pub mod permissions;
pub mod picking;
pub mod price_tiers;
pub mod reference_data;
pub mod reorder;
pub mod reports;
pub mod sheet;
pub mod shop;
pub mod statement;
pub mod status;
pub mod stock;
pub mod tyre_size;
pub mod uploads;
pub mod validate;
pub mod xero;
pub mod xero_mapping;

pub use actor::Actor;
