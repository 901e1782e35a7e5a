//! Sheets (invoices, credit notes, orders, transfers, adjustments): their lists, their
//! life from form to approval and void, printing, and the quoting lookup that feeds them.

mod lifecycle;
mod lists;
mod plain_form;
mod print;
mod quoting;
