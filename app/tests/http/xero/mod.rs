//! The accounting link to Xero, against its in-process stand-in.

mod link;
mod payments;
