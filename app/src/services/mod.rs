//! Use cases that combine the database and the domain rules in one transaction.

pub mod delivery;
pub mod orders;
pub mod pricing;
pub mod print;
