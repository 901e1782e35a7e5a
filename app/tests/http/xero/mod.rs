//! The accounting link to Xero, against its in-process stand-in.

mod currency;
mod link;
mod payments;
