//! A4 page geometry and how a document's lines are split over pages.
//!
//! Pages are split here, before the browser lays them out, so the browser never breaks a
//! table by itself and every page can say 'Page N of M'. The fixed parts of a page have fixed
//! heights (static/css/print.css declares the same numbers as custom properties; a test keeps
//! the two in step). The parts whose text varies (the first page's header, every line row,
//! the closing block's comment) take their natural height in the browser and are measured
//! here with [`measure`], which errs long: a long estimate only leaves room at the foot of a
//! page, never a gap between the header and the lines, and never a cut word.

use std::ops::Range;

use super::document::{Closing, Columns, CustomerBlock, Supplier};
use super::measure::{Font, lines};

/// Sizes in millimetres of the parts of a printed page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry {
    /// The page box: A4 is 297 mm high; one millimetre less keeps rounding from spilling a
    /// blank page.
    pub page: f32,
    pub width: f32,
    /// Padding around the page content (the printable margin).
    pub padding_top: f32,
    pub padding_bottom: f32,
    pub padding_side: f32,
    /// The short header of every following page.
    pub continued_header: f32,
    /// The table's column headings, repeated on every page.
    pub table_head: f32,
    /// A line row of one text line; each further line of its text adds `line`.
    pub row: f32,
    /// The line height of body text (9 pt).
    pub line: f32,
    /// 'Page N of M'.
    pub page_foot: f32,
    /// The closing block with prices (totals, due date and bank details, signatures, return
    /// policy, payment or credit advice) with a comment of up to [`CLOSING_COMMENT_LINES`].
    pub closing: f32,
    /// The closing block without prices: total quantity, signatures, return policy.
    pub closing_no_price: f32,
    /// Kept free on every page for rounding to device pixels.
    pub slack: f32,
}

/// The layout every printed document uses.
pub const A4: Geometry = Geometry {
    page: 296.0,
    width: 210.0,
    padding_top: 12.0,
    padding_bottom: 10.0,
    padding_side: 12.0,
    continued_header: 12.0,
    table_head: 7.0,
    row: 6.0,
    line: 4.0,
    page_foot: 6.0,
    closing: 102.0,
    closing_no_price: 48.0,
    slack: 2.0,
};

/// Widths of the line table's columns other than Description, and the cells' side padding.
pub const COL_NO: f32 = 9.0;
pub const COL_LOC: f32 = 22.0;
pub const COL_QTY: f32 = 13.0;
pub const COL_MONEY: f32 = 22.0;
pub const CELL_PAD: f32 = 1.5;

/// The first page's header (print.css `.doc-head`): widths of its columns, and line heights
/// of its type sizes.
pub const TITLE_WIDTH: f32 = 80.0;
pub const CUSTOMER_WIDTH: f32 = 84.0;
pub const FACT_LABEL_WIDTH: f32 = 24.0;
pub const TOTALS_WIDTH: f32 = 72.0;
const LOGO: f32 = 16.0;
const TOP_GAP: f32 = 6.0;
const LOGO_GAP: f32 = 4.0;
const PARTIES_GAP: f32 = 8.0;
const SUPPLIER_NAME: (Font, f32) = (Font::bold(12.0), 5.5);
const CUSTOMER_NAME: (Font, f32) = (Font::bold(10.5), 5.0);
const TITLE_LINE: f32 = 7.5;
const DRAFT_LINE: f32 = 5.0;
/// A key-value row: a line and 0.3 mm of padding above and below.
const KV_PAD: f32 = 0.6;
const BODY: Font = Font::regular(9.0);
const STRONG: Font = Font::bold(9.0);

/// The comment lines the closing block's height already allows for.
pub const CLOSING_COMMENT_LINES: u32 = 3;

impl Geometry {
    /// The width of the page content.
    pub fn content_width(&self) -> f32 {
        self.width - 2.0 * self.padding_side
    }

    fn body(&self) -> f32 {
        self.page - self.padding_top - self.padding_bottom - self.slack
    }

    /// Room for line rows on the first page under a header of `header` mm.
    pub fn first_page_room(&self, header: f32) -> f32 {
        self.body() - header - self.table_head - self.page_foot
    }

    /// Room for line rows on each following page.
    pub fn next_page_room(&self) -> f32 {
        self.body() - self.continued_header - self.table_head - self.page_foot
    }

    /// A row whose tallest cell wraps to `lines` lines.
    pub fn row_height(&self, lines: u32) -> f32 {
        self.row + self.line * lines.saturating_sub(1) as f32
    }

    /// The text width of the Description column.
    pub fn description_width(&self, columns: Columns) -> f32 {
        let mut fixed = COL_NO + COL_QTY;
        if columns.location {
            fixed += COL_LOC;
        }
        if columns.prices {
            fixed += 3.0 * COL_MONEY;
        }
        self.content_width() - fixed - 2.0 * CELL_PAD
    }
}

/// Height of a block of `text` in `width` at `font` with `line` mm lines; nothing when the
/// text is empty (an empty block has no line box).
fn block(text: &str, width: f32, (font, line): (Font, f32)) -> f32 {
    if text.trim().is_empty() { 0.0 } else { lines(text, width, font) as f32 * line }
}

/// What the first page's header shows, for measuring it.
pub struct HeaderText<'a> {
    pub supplier: &'a Supplier,
    pub draft: bool,
    pub customer: &'a CustomerBlock,
    pub facts: &'a [(&'static str, String)],
    pub notes: &'a str,
    pub notice: Option<&'a str>,
}

/// The height of the first page's header (print.css `.doc-head`), an upper estimate.
pub fn header_height(h: &HeaderText) -> f32 {
    let g = A4;
    let body = (BODY, g.line);
    let logo = !h.supplier.logo.is_empty();
    let supplier_width = g.content_width() - TITLE_WIDTH - TOP_GAP - if logo { LOGO + LOGO_GAP } else { 0.0 };
    let s = h.supplier;
    let supplier_lines = [s.branch.as_deref().map(|b| format!("Branch: {b}")).unwrap_or_default(), format!("ABN {}", s.abn), format!("Phone {} · {}", s.phone, s.email), s.website.clone()];
    let supplier = block(&s.name, supplier_width, SUPPLIER_NAME)
        + supplier_lines.iter().chain(&s.address).map(|l| block(l, supplier_width, body)).sum::<f32>();
    let title = TITLE_LINE + if h.draft { DRAFT_LINE } else { 0.0 } + 1.0 + 2.0 * (g.line + KV_PAD);
    // Supplier and title side by side, then 2 mm padding and a 0.4 mm rule.
    let top = supplier.max(if logo { LOGO } else { 0.0 }).max(title) + 2.4;

    let c = h.customer;
    let customer = g.line + 0.5
        + block(&c.name, CUSTOMER_WIDTH, CUSTOMER_NAME)
        + c.abn.as_deref().map_or(0.0, |a| block(&format!("ABN {a}"), CUSTOMER_WIDTH, body))
        + block(&c.address, CUSTOMER_WIDTH, body)
        + block(&c.phone, CUSTOMER_WIDTH, body);
    let value_width = g.content_width() - CUSTOMER_WIDTH - PARTIES_GAP - FACT_LABEL_WIDTH;
    let facts: f32 = h.facts.iter().map(|(_, v)| lines(v, value_width, BODY) as f32 * g.line + KV_PAD).sum();
    let parties = 2.0 + customer.max(facts);

    let notes = if h.notes.is_empty() { 0.0 } else { 1.5 + block(&format!("Notes: {}", h.notes), g.content_width(), body) };
    // Notice: 1.5 mm above, 1 mm padding above and below, a 0.3 mm border all round.
    let notice = h.notice.map_or(0.0, |n| 1.5 + 2.6 + block(n, g.content_width() - 4.6, (STRONG, g.line)));
    top + parties + notes + notice + 2.0
}

/// The height of a line row (print.css `.lines tbody tr`) with this description and location.
pub fn line_row_height(description: &str, dots: &str, location: &str, columns: Columns) -> f32 {
    let width = A4.description_width(columns);
    // The DOT codes print on lines of their own under the description.
    let desc = lines(description, width, BODY) + if dots.is_empty() { 0 } else { lines(dots, width, BODY) };
    let loc = if columns.location { lines(location, COL_LOC - 2.0 * CELL_PAD, BODY) } else { 1 };
    A4.row_height(desc.max(loc))
}

/// The height of the closing block (print.css `.closing`): its fixed budget, plus the lines
/// of a comment longer than the budget allows and of advice values that wrap.
pub fn closing_height(c: &Closing) -> f32 {
    let g = A4;
    let base = if c.money.is_some() { g.closing } else { g.closing_no_price };
    let comment_width = g.content_width() - PARTIES_GAP - TOTALS_WIDTH;
    let comment = if c.comment.is_empty() { 0 } else { lines(&format!("Comment: {}", c.comment), comment_width, BODY) };
    let advice: u32 = c.advice.iter().flat_map(|a| &a.facts).map(|(_, v)| lines(v, g.content_width() - FACT_LABEL_WIDTH, STRONG) - 1).sum();
    // Five signature boxes side by side, 3 mm apart; staff and customer names wrap in them.
    let box_width = (g.content_width() - 4.0 * 3.0) / 5.0 - 2.0 * CELL_PAD;
    let names = lines(&c.staff, box_width, STRONG).max(lines(&c.customer, box_width, STRONG)) - 1;
    base + g.line * (comment.saturating_sub(CLOSING_COMMENT_LINES) + advice + names) as f32
}

/// Splits rows of `heights` over pages holding `first` and then `next` millimetres of rows:
/// each page is filled; the closing block (`closing` mm) comes once, on the last page, which
/// always carries at least one line (a page of totals alone would read as a separate
/// document), unless the sheet has no lines at all. A page always takes at least one row.
pub fn split(heights: &[f32], first: f32, next: f32, closing: f32) -> Vec<Range<usize>> {
    let mut pages = Vec::new();
    let mut start = 0;
    let mut room = first;
    loop {
        let rest = &heights[start..];
        // The last page: the rest fits together with the closing block (or nothing is left,
        // which only happens when the closing block alone is taller than a page).
        if rest.iter().sum::<f32>() + closing <= room || rest.is_empty() {
            pages.push(start..heights.len());
            return pages;
        }
        // Fill this page, but leave at least one line for the last page.
        let mut used = 0.0;
        let fit = rest.iter().take_while(|h| {
            used += **h;
            used <= room
        });
        let take = fit.count().min(rest.len() - 1).max(1);
        pages.push(start..start + take);
        start += take;
        room = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{MoneyTotals, Supplier};

    fn sizes(pages: &[Range<usize>]) -> Vec<usize> {
        pages.iter().map(|r| r.len()).collect()
    }

    /// `n` one-line rows of 1 mm.
    fn ones(n: usize) -> Vec<f32> {
        vec![1.0; n]
    }

    #[test]
    fn the_a4_layout_fits_the_paper() {
        let body = A4.page - A4.padding_top - A4.padding_bottom;
        // 41 one-line rows on a following page; a closing block fits a page with a line.
        assert_eq!((A4.next_page_room() / A4.row) as usize, 41);
        assert!(A4.closing + A4.row <= A4.next_page_room());
        assert!(A4.continued_header + A4.table_head + A4.next_page_room() + A4.page_foot + A4.slack <= body);
        assert_eq!(A4.row_height(1), 6.0);
        assert_eq!(A4.row_height(3), 14.0);
        assert_eq!(A4.content_width(), 186.0);
    }

    #[test]
    fn the_description_column_takes_what_the_others_leave() {
        let cols = |location, prices| Columns { location, prices, ex_gst: false };
        assert_eq!(A4.description_width(cols(true, true)), 73.0);
        assert_eq!(A4.description_width(cols(false, true)), 95.0);
        assert_eq!(A4.description_width(cols(true, false)), 139.0);
        assert_eq!(A4.description_width(cols(false, false)), 161.0);
    }

    #[test]
    fn long_descriptions_make_taller_rows() {
        let cols = Columns { location: true, prices: true, ex_gst: false };
        assert_eq!(line_row_height("VALVE-TR413", "", "", cols), 6.0);
        let long = "BF2055516ADVT 205/55R16 91V BFGOODRICH ADVANTAGE T/A SPORT";
        assert_eq!(line_row_height(long, "", "", cols), 10.0, "two lines next to the prices");
        assert_eq!(line_row_height(long, "", "", Columns { location: false, prices: false, ex_gst: false }), 6.0, "one line without them");
        assert_eq!(line_row_height(&"word ".repeat(100), "", "", cols), A4.row_height(lines(&"word ".repeat(100), 73.0, BODY)));
        assert!(line_row_height("Tyre", "", "A01/B03/C17/D04/E11/F02", cols) > 6.0, "a long location wraps too");
        assert_eq!(line_row_height("VALVE-TR413", "DOT 2323 ×2", "", cols), 10.0, "the DOT codes take a line of their own");
    }

    fn supplier(logo: &str) -> Supplier {
        Supplier {
            name: "Southern Cross Tyres Pty Ltd".into(),
            abn: "53 004 085 616".into(),
            branch: None,
            address: vec!["112 Princes Highway".into(), "Tempe NSW 2044".into()],
            phone: "(02) 9558 4100".into(),
            email: "accounts@sctyres.example".into(),
            website: "www.sctyres.example".into(),
            logo: logo.into(),
        }
    }

    #[test]
    fn the_header_is_as_tall_as_what_it_shows() {
        let s = supplier("/logo.svg");
        let customer = CustomerBlock { name: "Parramatta Tyre & Auto".into(), abn: None, address: "45 Church St, Parramatta NSW 2150".into(), phone: "0412 345 678".into() };
        let facts: Vec<(&'static str, String)> = vec![("Payment Type", "Weekly".into()), ("Area Type", "West".into()), ("Shipping", "Delivery · Driver: Dan".into())];
        let plain = header_height(&HeaderText { supplier: &s, draft: false, customer: &customer, facts: &facts, notes: "", notice: None });
        // Supplier: a 5.5 mm name and 5 lines, then the rule; customer: heading, name, 2 lines.
        assert!((plain - (25.5 + 2.4 + 2.0 + 4.5 + 5.0 + 8.0 + 2.0)).abs() < 0.01, "{plain}");
        assert!(plain < 60.0, "a plain header leaves most of the page to the lines");
        let notes = "Please call before delivery. ".repeat(20);
        let noted = header_height(&HeaderText { supplier: &s, draft: false, customer: &customer, facts: &facts, notes: &notes, notice: Some(crate::rules::DEPARTMENT_10_NOTICE) });
        assert!(noted > plain + 30.0, "notes and notice print whole: {noted}");
        let many_facts: Vec<(&'static str, String)> = (0..8).map(|_| ("Reference", "PO 7781".to_string())).collect();
        let tall = header_height(&HeaderText { supplier: &s, draft: false, customer: &customer, facts: &many_facts, notes: "", notice: None });
        assert!((tall - plain - (8.0 * 4.6 - 17.5)).abs() < 0.01, "the taller of customer and facts counts: {tall}");
    }

    #[test]
    fn every_title_fits_its_column_on_one_line() {
        // h1: 17 pt bold with 0.04 em letter spacing.
        for title in ["TAX INVOICE", "CREDIT NOTE", "Delivery Doc", "Delivery Doc(Credit)"] {
            let spacing = title.chars().count() as f32 * 0.04 * 17.0 * 25.4 / 72.0;
            assert!(crate::measure::width_mm(title, Font::bold(17.0)) + spacing <= TITLE_WIDTH, "{title}");
        }
    }

    #[test]
    fn the_closing_block_grows_with_a_long_comment() {
        let mut c = Closing {
            comment: "Leave at the workshop door.".into(),
            total_qty: 1,
            money: Some(MoneyTotals { subtotal: None, gst: "$1.00".into(), total_label: "TOTAL AUD", total: "$11.00".into() }),
            due_date: None,
            bank: None,
            staff: String::new(),
            customer: String::new(),
            advice: None,
            return_policy: "",
        };
        assert_eq!(closing_height(&c), A4.closing);
        c.comment = "Leave at the workshop door. ".repeat(40);
        let lines = lines(&format!("Comment: {}", c.comment), 106.0, BODY);
        assert!(lines > CLOSING_COMMENT_LINES);
        assert_eq!(closing_height(&c), A4.closing + 4.0 * (lines - CLOSING_COMMENT_LINES) as f32);
        c.money = None;
        assert_eq!(closing_height(&c), A4.closing_no_price + 4.0 * (lines - CLOSING_COMMENT_LINES) as f32);
        c.comment.clear();
        c.customer = "The Very Long Trading Name of a Parramatta Tyre and Auto Workshop Pty Ltd".into();
        assert!(closing_height(&c) > A4.closing_no_price, "a long customer name wraps in its signature box");
    }

    #[test]
    fn a_short_sheet_is_one_page_with_its_closing_block() {
        assert_eq!(sizes(&split(&ones(0), 26.0, 39.0, 17.0)), vec![0]);
        assert_eq!(sizes(&split(&ones(1), 26.0, 39.0, 17.0)), vec![1]);
        assert_eq!(sizes(&split(&ones(9), 26.0, 39.0, 17.0)), vec![9]);
    }

    #[test]
    fn the_closing_block_never_stands_alone() {
        // 10 lines fit the first page, but not with the closing block: one line moves on.
        assert_eq!(sizes(&split(&ones(10), 26.0, 39.0, 17.0)), vec![9, 1]);
        assert_eq!(sizes(&split(&ones(26), 26.0, 39.0, 17.0)), vec![25, 1]);
        assert_eq!(sizes(&split(&ones(27), 26.0, 39.0, 17.0)), vec![26, 1]);
    }

    #[test]
    fn pages_fill_up_and_the_last_keeps_room_for_totals() {
        assert_eq!(sizes(&split(&ones(40), 26.0, 39.0, 17.0)), vec![26, 14]);
        assert_eq!(sizes(&split(&ones(48), 26.0, 39.0, 17.0)), vec![26, 22]);
        assert_eq!(sizes(&split(&ones(49), 26.0, 39.0, 17.0)), vec![26, 22, 1]);
        assert_eq!(sizes(&split(&ones(60), 26.0, 39.0, 17.0)), vec![26, 33, 1]);
        assert_eq!(sizes(&split(&ones(100), 26.0, 39.0, 17.0)), vec![26, 39, 34, 1]);
    }

    #[test]
    fn taller_rows_take_more_room() {
        // Rows of 1, 2 and 3 mm: 1+2+3+1+2 = 9 fit a first page of 10.
        let h = [1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0];
        assert_eq!(sizes(&split(&h, 10.0, 10.0, 4.0)), vec![5, 2]);
        assert_eq!(sizes(&split(&h, 10.0, 10.0, 7.0)), vec![5, 1, 1]);
    }

    #[test]
    fn every_line_is_printed_once_in_order() {
        for n in 0..120 {
            // Rows of one to four lines.
            let heights: Vec<f32> = (0..n).map(|i| A4.row_height(1 + (i * 7 % 4) as u32)).collect();
            for closing in [A4.closing_no_price, A4.closing] {
                let (first, next) = (A4.first_page_room(60.0), A4.next_page_room());
                let pages = split(&heights, first, next, closing);
                let mut at = 0;
                for (i, p) in pages.iter().enumerate() {
                    assert_eq!(p.start, at, "{n} lines, page {i}");
                    let room = if i == 0 { first } else { next };
                    assert!(heights[p.clone()].iter().sum::<f32>() <= room, "{n} lines: page {i} overflows");
                    at = p.end;
                }
                assert_eq!(at, n);
                let last = pages.last().unwrap();
                let room = if pages.len() == 1 { first } else { next };
                assert!(heights[last.clone()].iter().sum::<f32>() + closing <= room, "{n} lines: the closing block fits the last page");
                assert!(n == 0 || !last.is_empty(), "{n} lines: the last page has a line");
            }
        }
    }

    #[test]
    fn a_closing_block_taller_than_a_page_gets_its_own() {
        assert_eq!(sizes(&split(&ones(3), 5.0, 5.0, 9.0)), vec![2, 1, 0]);
    }

    #[test]
    fn a_row_taller_than_a_page_still_prints() {
        assert_eq!(sizes(&split(&[3.0, 30.0, 3.0], 10.0, 10.0, 2.0)), vec![1, 1, 1]);
    }

    #[test]
    fn the_stylesheet_uses_the_same_sizes() {
        let css = include_str!("../../../../static/css/print.css");
        for (name, mm) in [
            ("page", A4.page),
            ("pad-top", A4.padding_top),
            ("pad-bottom", A4.padding_bottom),
            ("pad-side", A4.padding_side),
            ("continued", A4.continued_header),
            ("thead", A4.table_head),
            ("row", A4.row),
            ("line", A4.line),
            ("foot", A4.page_foot),
            ("closing", A4.closing),
            ("closing-np", A4.closing_no_price),
            ("col-no", COL_NO),
            ("col-loc", COL_LOC),
            ("col-qty", COL_QTY),
            ("col-money", COL_MONEY),
            ("cell-pad", CELL_PAD),
            ("title-w", TITLE_WIDTH),
            ("customer-w", CUSTOMER_WIDTH),
            ("fact-label-w", FACT_LABEL_WIDTH),
            ("totals-w", TOTALS_WIDTH),
        ] {
            let decl = format!("--{name}:{mm}mm;");
            assert!(css.contains(&decl), "print.css should declare {decl}");
        }
    }
}
