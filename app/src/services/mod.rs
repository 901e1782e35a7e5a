//! Use cases that combine the database and the domain rules in one transaction.

pub mod orders;
pub mod prices;
pub mod pricing;
pub mod quoting;
