//! What the report writers' worksheets share: the head of a sheet as its rows begin, and
//! the totals row.

use chrono::NaiveDate;
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Date, Integer, Nullable, Text};

use domain::enums::OrderType;
use xlsx::export::Val;

/// The columns of [`SheetHead`] from sheet `o`, for a `SELECT` list.
pub const SHEET_HEAD: &str = "o.id AS id, o.order_date AS order_date, o.due_date AS due_date, o.delivery_date AS delivery_date, \
                              o.no AS no, o.order_type AS order_type, o.tax_type AS tax_type";

/// A sheet as a Sheets worksheet's row begins (Date, Due Date, ETA Date, No., Type), with
/// the type and tax type its figures follow.
#[derive(QueryableByName)]
pub struct SheetHead {
    #[diesel(sql_type = BigInt)]
    pub id: i64,
    #[diesel(sql_type = Date)]
    pub order_date: NaiveDate,
    #[diesel(sql_type = Nullable<Date>)]
    pub due_date: Option<NaiveDate>,
    #[diesel(sql_type = Nullable<Date>)]
    pub delivery_date: Option<NaiveDate>,
    #[diesel(sql_type = Text)]
    pub no: String,
    #[diesel(sql_type = Integer)]
    pub order_type: i32,
    #[diesel(sql_type = Integer)]
    pub tax_type: i32,
}

impl SheetHead {
    /// Date, Due Date, ETA Date, No., Type.
    pub fn cells(&self) -> [Val; 5] {
        [
            Val::Date(Some(self.order_date)),
            Val::Date(self.due_date),
            Val::Date(self.delivery_date),
            Val::Text(self.no.clone()),
            Val::Text(type_label(self.order_type).into()),
        ]
    }
}

/// The name of a sheet type as the lists show it.
pub fn type_label(order_type: i32) -> &'static str {
    OrderType::from_i32(order_type).map_or("", OrderType::label)
}

/// The totals row of a worksheet `width` columns wide: "Total" in the first column,
/// `figures` from column `at` on, every other column empty.
pub fn total_row(width: usize, at: usize, figures: impl IntoIterator<Item = Val>) -> Vec<Val> {
    let figures: Vec<Val> = figures.into_iter().collect();
    debug_assert!(at + figures.len() <= width, "a total row of {width} cells cannot hold {} figures from cell {at}", figures.len());
    let mut row = vec![Val::Text(String::new()); width];
    if let Some(first) = row.first_mut() {
        *first = Val::Text("Total".into());
    }
    for (cell, figure) in row.iter_mut().skip(at).zip(figures) {
        *cell = figure;
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_totals_row_is_labelled_and_places_its_figures() {
        let row = total_row(4, 2, [Val::Int(5), Val::Cents(700)]);
        assert_eq!(row, vec![Val::Text("Total".into()), Val::Text(String::new()), Val::Int(5), Val::Cents(700)]);
        let padded = total_row(4, 1, [Val::Int(5)]);
        assert_eq!(padded, vec![Val::Text("Total".into()), Val::Int(5), Val::Text(String::new()), Val::Text(String::new())], "empty to the last column");
    }

    #[test]
    fn a_sheet_type_reads_as_the_lists_name_it() {
        assert_eq!(type_label(OrderType::BillCreditNote.as_i32()), "Bill Credit Note");
        assert_eq!(type_label(99), "", "an unknown type is left empty");
    }
}
