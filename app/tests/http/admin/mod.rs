//! Running the company: supplier, warehouse and brand forms, settings, staff.

mod company;
