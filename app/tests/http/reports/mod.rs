//! Reports: the request screens, the job queue, and each report's file.

mod inventory;
mod purchase;
mod queue;
mod sales;
mod screens;
