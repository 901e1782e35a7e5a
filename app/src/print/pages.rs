//! A4 page geometry and how a sheet's lines are split over pages.
//!
//! Every part of a printed page has a fixed height (static/css/print.css holds the same
//! numbers as custom properties; a test keeps the two in step), so the number of line rows
//! a page holds is known here and the browser never has to break a table by itself.

use std::ops::Range;

/// Heights in millimetres of the parts of a printed page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    /// The page box: A4 is 297 mm high; one millimetre less keeps rounding from spilling a
    /// blank page.
    pub page: u32,
    /// Padding above and below the page content (the printable margin).
    pub padding_top: u32,
    pub padding_bottom: u32,
    /// The first page's header: supplier, title, customer and facts, notes, notice.
    pub header: u32,
    /// The short header of every following page.
    pub continued_header: u32,
    /// The table's column headings, repeated on every page.
    pub table_head: u32,
    /// One line row (single line; longer text is cut with an ellipsis).
    pub row: u32,
    /// 'Page N of M'.
    pub page_foot: u32,
    /// The closing block with prices: totals, due date and bank details, signatures,
    /// payment or credit advice, return policy.
    pub closing: u32,
    /// The closing block without prices: total quantity, signatures, return policy.
    pub closing_no_price: u32,
}

/// The layout every printed document uses.
pub const A4: Geometry = Geometry {
    page: 296,
    padding_top: 12,
    padding_bottom: 10,
    header: 86,
    continued_header: 12,
    table_head: 7,
    row: 6,
    page_foot: 6,
    closing: 102,
    closing_no_price: 48,
};

impl Geometry {
    fn body(&self) -> u32 {
        self.page - self.padding_top - self.padding_bottom
    }

    /// Line rows on the first page when the closing block goes elsewhere.
    pub fn first_page_rows(&self) -> usize {
        ((self.body() - self.header - self.table_head - self.page_foot) / self.row) as usize
    }

    /// Line rows on each following page when the closing block goes elsewhere.
    pub fn next_page_rows(&self) -> usize {
        ((self.body() - self.continued_header - self.table_head - self.page_foot) / self.row) as usize
    }

    /// How many line rows the closing block displaces (rounded up).
    pub fn closing_rows(&self, with_prices: bool) -> usize {
        let mm = if with_prices { self.closing } else { self.closing_no_price };
        mm.div_ceil(self.row) as usize
    }
}

/// Splits `lines` rows over pages: each page is filled; the closing block comes once, on
/// the last page, which always carries at least one line (a page of totals alone would
/// read as a separate document), unless the sheet has no lines at all.
pub fn split(lines: usize, first_page: usize, next_page: usize, closing: usize) -> Vec<Range<usize>> {
    let mut pages = Vec::new();
    let mut start = 0;
    let mut capacity = first_page;
    loop {
        let remaining = lines - start;
        // The last page: the rest fits together with the closing block (or nothing is left,
        // which only happens when the closing block alone is taller than a page).
        if remaining + closing <= capacity || remaining == 0 {
            pages.push(start..lines);
            return pages;
        }
        // Fill this page, but leave at least one line for the last page.
        let take = remaining.saturating_sub(1).clamp(1, capacity.max(1));
        pages.push(start..start + take);
        start += take;
        capacity = next_page;
    }
}

/// The pages of a document with `lines` rows in the A4 layout.
pub fn paginate(lines: usize, with_prices: bool) -> Vec<Range<usize>> {
    split(lines, A4.first_page_rows(), A4.next_page_rows(), A4.closing_rows(with_prices))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes(pages: &[Range<usize>]) -> Vec<usize> {
        pages.iter().map(|r| r.len()).collect()
    }

    #[test]
    fn the_a4_layout_fits_the_paper() {
        assert_eq!(A4.first_page_rows(), 29);
        assert_eq!(A4.next_page_rows(), 41);
        assert_eq!(A4.closing_rows(true), 17);
        assert_eq!(A4.closing_rows(false), 8);
        // Rows and closing block never exceed the page body.
        let body = A4.page - A4.padding_top - A4.padding_bottom;
        assert!(A4.header + A4.table_head + 29 * A4.row + A4.page_foot <= body);
        assert!(A4.continued_header + A4.table_head + 41 * A4.row + A4.page_foot <= body);
        assert!(A4.closing <= A4.closing_rows(true) as u32 * A4.row && A4.closing_no_price <= A4.closing_rows(false) as u32 * A4.row);
    }

    #[test]
    fn a_short_sheet_is_one_page_with_its_closing_block() {
        assert_eq!(sizes(&split(0, 26, 39, 17)), vec![0]);
        assert_eq!(sizes(&split(1, 26, 39, 17)), vec![1]);
        assert_eq!(sizes(&split(9, 26, 39, 17)), vec![9]);
    }

    #[test]
    fn the_closing_block_never_stands_alone() {
        // 10 lines fit the first page, but not with the closing block: one line moves on.
        assert_eq!(sizes(&split(10, 26, 39, 17)), vec![9, 1]);
        assert_eq!(sizes(&split(26, 26, 39, 17)), vec![25, 1]);
        assert_eq!(sizes(&split(27, 26, 39, 17)), vec![26, 1]);
    }

    #[test]
    fn pages_fill_up_and_the_last_keeps_room_for_totals() {
        assert_eq!(sizes(&split(40, 26, 39, 17)), vec![26, 14]);
        assert_eq!(sizes(&split(48, 26, 39, 17)), vec![26, 22]);
        assert_eq!(sizes(&split(49, 26, 39, 17)), vec![26, 22, 1]);
        assert_eq!(sizes(&split(60, 26, 39, 17)), vec![26, 33, 1]);
        assert_eq!(sizes(&split(100, 26, 39, 17)), vec![26, 39, 34, 1]);
    }

    #[test]
    fn every_line_is_printed_once_in_order() {
        for n in 0..200 {
            for closing in [8, 17] {
                let pages = split(n, 26, 39, closing);
                let mut next = 0;
                for (i, p) in pages.iter().enumerate() {
                    assert_eq!(p.start, next, "{n} lines, page {i}");
                    let cap = if i == 0 { 26 } else { 39 };
                    assert!(p.len() <= cap, "{n} lines: page {i} holds {}", p.len());
                    next = p.end;
                }
                assert_eq!(next, n);
                let last = pages.last().unwrap();
                let cap = if pages.len() == 1 { 26 } else { 39 };
                assert!(last.len() + closing <= cap, "{n} lines: the closing block fits the last page");
                assert!(n == 0 || !last.is_empty(), "{n} lines: the last page has a line");
            }
        }
    }

    #[test]
    fn a_closing_block_taller_than_a_page_gets_its_own() {
        assert_eq!(sizes(&split(3, 5, 5, 9)), vec![2, 1, 0]);
    }

    #[test]
    fn without_prices_more_lines_share_the_last_page() {
        assert_eq!(paginate(18, false).len(), 1);
        assert_eq!(paginate(18, true).len(), 2);
        assert_eq!(sizes(&paginate(60, true)), vec![29, 30, 1]);
        assert_eq!(sizes(&paginate(60, false)), vec![29, 31]);
    }

    #[test]
    fn the_stylesheet_uses_the_same_heights() {
        let css = include_str!("../../../static/css/print.css");
        for (name, mm) in [
            ("page", A4.page),
            ("pad-top", A4.padding_top),
            ("pad-bottom", A4.padding_bottom),
            ("header", A4.header),
            ("continued", A4.continued_header),
            ("thead", A4.table_head),
            ("row", A4.row),
            ("foot", A4.page_foot),
            ("closing", A4.closing),
            ("closing-np", A4.closing_no_price),
        ] {
            let decl = format!("--{name}:{mm}mm;");
            assert!(css.contains(&decl), "print.css should declare {decl}");
        }
    }
}
