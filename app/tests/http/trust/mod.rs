//! What the app must never let through: another company's records and names, cost to those
//! who may not see it, unbounded inputs and uploads, and sign-in guessing.

mod cost;
mod hardening;
mod inputs;
mod isolation;
pub(crate) mod uploads;
mod xls;
