//! The morning's picking list (issue 34, docs/decisions/dispatch.md): the lines of the chosen
//! sheets of one warehouse gathered into one row per product, with its total quantity and the
//! sheets it goes to, sorted by rack location so a picker walks the racks once.
//!
//! A product's locations are its tag4, several joined by '/' (spec §2.4): split, trimmed,
//! empties dropped and sorted. 'call' (ask the office where it is) is no place on a rack: it
//! prints blank, as on the sheets, and such a product comes at the end with those that have
//! no location at all.

use std::cmp::Ordering;
use std::collections::HashMap;

/// One sheet line to pick, as the database gives it.
#[derive(Debug, Clone, Default)]
pub struct PickItem {
    /// The sheet's number (INV-000123).
    pub sheet: String,
    pub product_id: Option<i64>,
    /// The product's code ('' without a product).
    pub code: String,
    pub description: String,
    pub unit: String,
    pub quantity: i64,
    /// The product's tag4 ('' without a product or location).
    pub tag4: String,
    /// A tyre tracked by DOT (issue 36).
    pub tracked: bool,
    /// What the approval took from each lot (code, units), empty when it recorded none.
    pub lots: Vec<(i32, i64)>,
}

/// One row of the picking list: a product (or, for lines without one, a description), the
/// quantity to pick in all, and how many go to each sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickRow {
    pub code: String,
    pub description: String,
    pub unit: String,
    /// Its locations, split and sorted in walking order, 'call' included.
    pub locations: Vec<String>,
    pub total: i64,
    /// (sheet number, quantity), in the order the sheets were given.
    pub sheets: Vec<(String, i64)>,
    /// A tyre tracked by DOT: the list names the codes to pick.
    pub tracked: bool,
    /// The codes the sheets' approvals took, with their units, in the order taken.
    pub lots: Vec<(i32, i64)>,
}

impl PickRow {
    /// The locations as printed: 'call' blank.
    pub fn printed_location(&self) -> String {
        printed(&self.locations)
    }

    /// The DOT codes to pick (issue 36): 'DOT 2323 ×2, 2525 ×1'; units whose lot no approval
    /// recorded are picked oldest first ('DOT oldest first', or ', oldest first ×1' after the
    /// codes); '' for a product not tracked by DOT.
    pub fn dots(&self) -> String {
        if !self.tracked {
            return String::new();
        }
        let named = crate::dot::codes_label(&self.lots);
        let recorded = self.lots.iter().fold(0i64, |s, l| s.saturating_add(l.1.saturating_abs()));
        let rest = self.total.saturating_sub(recorded);
        match (named.is_empty(), rest > 0) {
            (true, _) => "DOT oldest first".to_string(),
            (false, true) => format!("{named}, oldest first ×{rest}"),
            (false, false) => named,
        }
    }
}

/// The locations of a tag4: split on '/', trimmed, empties dropped, sorted in walking order
/// (natural order, so A2 comes before A10).
pub fn locations(tag4: &str) -> Vec<String> {
    let mut out: Vec<String> = tag4.split('/').map(str::trim).filter(|l| !l.is_empty()).map(str::to_string).collect();
    out.sort_by(|a, b| natural_cmp(a, b));
    out.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
    out
}

/// Whether a location is 'call': ask the office, no place on a rack.
pub fn is_call(location: &str) -> bool {
    location.trim().eq_ignore_ascii_case("call")
}

/// Locations as printed, joined by '/': 'call' prints blank (as the sheets print it).
pub fn printed(locations: &[String]) -> String {
    locations.iter().filter(|l| !is_call(l)).map(String::as_str).collect::<Vec<_>>().join("/")
}

/// The rack a picker walks to first: the first location that is not 'call'.
pub fn first_rack(locations: &[String]) -> Option<&str> {
    locations.iter().find(|l| !is_call(l)).map(String::as_str)
}

/// Compares two locations as a picker reads them: runs of digits by their value (A2 < A10),
/// the rest ignoring case.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    natural_key(a).cmp(&natural_key(b)).then_with(|| a.cmp(b))
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Chunk {
    /// A run of digits: its length without leading zeros, then the digits, so any length
    /// compares by value without parsing (and without overflow).
    Number(usize, String),
    Text(String),
}

fn natural_key(s: &str) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let digit = c.is_ascii_digit();
        let end = rest.find(|ch: char| ch.is_ascii_digit() != digit).unwrap_or(rest.len());
        let (run, tail) = rest.split_at(end);
        if digit {
            let value = run.trim_start_matches('0');
            out.push(Chunk::Number(value.len(), value.to_string()));
        } else {
            out.push(Chunk::Text(run.to_lowercase()));
        }
        rest = tail;
    }
    out
}

/// The order of the list: by first rack in natural order; rows with no rack ('call' only or
/// no location) at the end; then by code (lines without a product last) and description.
fn walk_cmp(a: &PickRow, b: &PickRow) -> Ordering {
    let rack = match (first_rack(&a.locations), first_rack(&b.locations)) {
        (Some(x), Some(y)) => natural_cmp(x, y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    rack.then_with(|| a.code.is_empty().cmp(&b.code.is_empty()))
        .then_with(|| natural_cmp(&a.code, &b.code)).then_with(|| a.description.to_lowercase().cmp(&b.description.to_lowercase()))
}

#[derive(Hash, PartialEq, Eq)]
enum Group {
    Product(i64),
    /// A line without a product, by its description (and unit) as typed.
    Text(String, String),
}

/// Gathers the lines into one row per product (lines without a product by description), in
/// walking order. `None` when a total leaves the range of a quantity.
pub fn picking_list(items: &[PickItem]) -> Option<Vec<PickRow>> {
    let mut index: HashMap<Group, usize> = HashMap::new();
    let mut rows: Vec<PickRow> = Vec::new();
    for item in items {
        let group = match item.product_id {
            Some(p) => Group::Product(p),
            None => Group::Text(item.description.trim().to_lowercase(), item.unit.trim().to_lowercase()),
        };
        let i = *index.entry(group).or_insert_with(|| {
            rows.push(PickRow {
                code: item.code.clone(),
                description: item.description.trim().to_string(),
                unit: item.unit.clone(),
                locations: if item.product_id.is_some() { locations(&item.tag4) } else { Vec::new() },
                total: 0,
                sheets: Vec::new(),
                tracked: item.tracked && item.product_id.is_some(),
                lots: Vec::new(),
            });
            rows.len() - 1
        });
        let row = &mut rows[i];
        row.total = row.total.checked_add(item.quantity)?;
        row.lots.extend(item.lots.iter().copied());
        match row.sheets.iter_mut().find(|(no, _)| *no == item.sheet) {
            Some((_, q)) => *q = q.checked_add(item.quantity)?,
            None => row.sheets.push((item.sheet.clone(), item.quantity)),
        }
    }
    rows.sort_by(walk_cmp);
    Some(rows)
}

/// Sums quantities, `None` on overflow.
pub fn total_quantity(rows: &[PickRow]) -> Option<i64> {
    rows.iter().try_fold(0i64, |sum, r| sum.checked_add(r.total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(sheet: &str, product: Option<i64>, code: &str, qty: i64, tag4: &str) -> PickItem {
        PickItem { sheet: sheet.into(), product_id: product, code: code.into(), description: format!("Tyre {code}"), unit: "EA".into(), quantity: qty, tag4: tag4.into(), ..PickItem::default() }
    }

    #[test]
    fn locations_are_split_trimmed_and_sorted_naturally() {
        assert_eq!(locations(" B02 / A10//A2 "), vec!["A2", "A10", "B02"]);
        assert_eq!(locations(""), Vec::<String>::new());
        assert_eq!(locations("call"), vec!["call"]);
        assert_eq!(printed(&locations("A1/call")), "A1");
        assert_eq!(printed(&locations("CALL")), "");
    }

    #[test]
    fn natural_order_reads_numbers_by_value() {
        let mut v = vec!["A10", "a2", "B1", "A02b", "A1"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, vec!["A1", "a2", "A02b", "A10", "B1"]);
        // Digit runs longer than any integer compare without overflow.
        assert_eq!(natural_cmp("R99999999999999999999999", "R100000000000000000000000"), Ordering::Less);
    }

    #[test]
    fn one_row_per_product_with_its_total_and_sheets() {
        let rows = picking_list(&[
            item("INV-2", Some(7), "P7", 4, "A10"),
            item("INV-1", Some(7), "P7", 2, "A10"),
            item("INV-1", Some(8), "P8", 1, "A2"),
            item("INV-2", Some(7), "P7", 1, "A10"),
        ])
        .unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].code, "P8", "A2 before A10");
        assert_eq!(rows[1].total, 7);
        assert_eq!(rows[1].sheets, vec![("INV-2".to_string(), 5), ("INV-1".to_string(), 2)], "in the order given, a sheet once");
    }

    #[test]
    fn call_and_no_location_come_last_and_lines_without_product_group_by_description() {
        let mut freight = item("INV-1", None, "", 1, "");
        freight.description = "Fitting kit".into();
        let mut freight2 = freight.clone();
        freight2.sheet = "INV-2".into();
        freight2.description = " fitting KIT ".into();
        let rows = picking_list(&[
            item("INV-1", Some(1), "P1", 1, "call"),
            freight,
            item("INV-1", Some(2), "P2", 1, "call/C3"),
            item("INV-1", Some(3), "P3", 1, "B1"),
            freight2,
        ])
        .unwrap();
        let codes: Vec<&str> = rows.iter().map(|r| r.code.as_str()).collect();
        assert_eq!(codes, vec!["P3", "P2", "P1", ""]);
        assert_eq!(rows[1].printed_location(), "C3");
        assert_eq!(rows[2].printed_location(), "", "'call' prints blank");
        assert_eq!(rows[3].total, 2);
        assert_eq!(rows[3].sheets.len(), 2);
    }

    #[test]
    fn totals_that_overflow_are_refused() {
        assert!(picking_list(&[item("INV-1", Some(1), "P1", i64::MAX, ""), item("INV-2", Some(1), "P1", 1, "")]).is_none());
        let rows = picking_list(&[item("INV-1", Some(1), "P1", i64::MAX, ""), item("INV-2", Some(2), "P2", 1, "")]).unwrap();
        assert_eq!(total_quantity(&rows), None);
    }

    #[test]
    fn a_tyre_row_names_the_codes_its_sheets_took() {
        let tyre = |sheet: &str, qty, lots: &[(i32, i64)]| PickItem { tracked: true, lots: lots.to_vec(), ..item(sheet, Some(7), "P7", qty, "A1") };
        let rows = picking_list(&[tyre("INV-1", 2, &[(202323, -2)]), tyre("INV-2", 2, &[(202323, -1), (202525, -1)])]).unwrap();
        assert_eq!(rows[0].dots(), "DOT 2323 ×3, 2525 ×1", "both sheets' codes, added up");
        let rows = picking_list(&[tyre("INV-1", 2, &[]), tyre("INV-2", 1, &[])]).unwrap();
        assert_eq!(rows[0].dots(), "DOT oldest first", "no lot recorded");
        let rows = picking_list(&[tyre("INV-1", 2, &[(202323, -2)]), tyre("INV-2", 1, &[])]).unwrap();
        assert_eq!(rows[0].dots(), "DOT 2323 ×2, oldest first ×1");
        let rows = picking_list(&[item("INV-1", Some(8), "P8", 1, "A1")]).unwrap();
        assert_eq!(rows[0].dots(), "", "not tracked by DOT: nothing to name");
    }
}
