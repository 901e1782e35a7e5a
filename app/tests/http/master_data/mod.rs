//! Base info: the product and customer forms, the base-info lists, the products and
//! customers lists with their filters and exports, and the spreadsheet imports.

mod forms;
mod imports;
mod lists;
mod products_and_customers;
