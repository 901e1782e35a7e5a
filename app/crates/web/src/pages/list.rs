//! The list machinery every list screen shares (spec §2.4): filters in the URL, paging,
//! a results table, and one handler answering with the whole page or, for htmx, the results.

use axum::http::HeaderMap;

use domain::limits::{PAGE_MAX, counted};

pub use crate::http::query::{Filters, PAGE_SIZES, PageReq, Paging, clean_pairs, is_dropped, wants_xlsx};

/// Empty-table text before any search (quoting, OCOP style lists).
pub const EMPTY_BEFORE_SEARCH: &str = "Enter Some Key Words to Search";
/// Empty-table text after a search found nothing.
pub const EMPTY_NO_DATA: &str = "No Data";

/// One entry of the pager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PagerItem {
    Page { n: i64, current: bool, url: String },
    Ellipsis,
}

/// Pagination with layout total, sizes, previous, pager, next, jumper.
#[derive(Debug, Clone)]
pub struct Pager {
    /// Matches counted (a lower bound when `capped`).
    pub total: i64,
    /// More rows match than were counted: the total shows as '10,000+' and Next stays on.
    pub capped: bool,
    pub page: i64,
    pub per_page: i64,
    pub last_page: i64,
    pub path: String,
    /// Filter pairs (already cleaned) kept on every link.
    pub filters: Vec<(String, String)>,
}

impl Pager {
    /// `count` is the list's count (see `limits::count_limit`).
    pub fn new(path: &str, filters: Vec<(String, String)>, req: PageReq, count: i64) -> Self {
        let (total, capped) = counted(count, req.offset());
        let mut last_page = ((total + req.per_page - 1) / req.per_page).max(1);
        if capped {
            last_page = last_page.max(req.page);
        }
        Self { total, capped, page: req.page, per_page: req.per_page, last_page, path: path.to_string(), filters }
    }

    /// 'Total 45', or 'Total 10,000+' when the count stopped at the cap.
    pub fn total_label(&self) -> String {
        if self.capped { format!("{}+", domain::money::thousands(self.total)) } else { self.total.to_string() }
    }

    /// The highest page the jumper offers.
    pub fn jump_max(&self) -> i64 {
        if self.capped { PAGE_MAX } else { self.last_page }
    }

    /// URL of `page` with the current size and filters.
    pub fn url(&self, page: i64) -> String {
        self.url_with(page, self.per_page)
    }

    fn url_with(&self, page: i64, per_page: i64) -> String {
        let mut pairs = self.filters.clone();
        if page > 1 {
            pairs.push(("page".into(), page.to_string()));
        }
        pairs.push(("per_page".into(), per_page.to_string()));
        format!("{}?{}", self.path, serde_urlencoded::to_string(&pairs).unwrap_or_default())
    }

    /// Base URL for the size selector and the jumper: filters only.
    pub fn base_url(&self) -> String {
        if self.filters.is_empty() {
            self.path.clone()
        } else {
            format!("{}?{}", self.path, serde_urlencoded::to_string(&self.filters).unwrap_or_default())
        }
    }

    pub fn prev_url(&self) -> Option<String> {
        (self.page > 1).then(|| self.url(self.page - 1))
    }

    pub fn next_url(&self) -> Option<String> {
        (self.page < self.last_page || self.capped).then(|| self.url(self.page + 1))
    }

    pub fn sizes(&self) -> &'static [i64] {
        &PAGE_SIZES
    }

    /// First, last, and two pages either side of the current one, with ellipses between.
    pub fn items(&self) -> Vec<PagerItem> {
        let mut out = Vec::new();
        let mut prev = 0;
        for n in 1..=self.last_page {
            let near = (n - self.page).abs() <= 2;
            if n == 1 || n == self.last_page || near {
                if n - prev > 1 {
                    out.push(PagerItem::Ellipsis);
                }
                out.push(PagerItem::Page { n, current: n == self.page, url: self.url(n) });
                prev = n;
            }
        }
        if self.capped {
            out.push(PagerItem::Ellipsis);
        }
        out
    }
}

/// How a cell is shown.
#[derive(Debug, Clone)]
pub enum Cell {
    Text(String),
    Num(String),
    Tag { label: String, class: &'static str },
    /// Several small tags (e.g. locations).
    Tags(Vec<String>),
    Link { label: String, href: String, new_tab: bool },
    /// A button that asks an island to open (`data-action` event with the id).
    Button { label: &'static str, action: &'static str, id: i64 },
    /// A date in the short list form (23/11/26) with the long form as its tooltip.
    Date { short: String, long: String },
    /// Text kept on one line and cut at the column's width (narrow: 78 px, else 110 px); the
    /// whole text in the tooltip.
    Clip { text: String, title: String, narrow: bool },
    /// The name that tells a row apart (a customer, supplier or product): never cut; its
    /// column takes the room the others leave, and wraps only when even that is too little
    /// (issue 32).
    Name(String),
    /// A tag whose details (e.g. the driver) are in the tooltip.
    TagTip { label: String, class: &'static str, title: String },
    /// Two tags side by side (the Xero Sent state and the invoice's payment state).
    TagPair { label: String, class: &'static str, second: String, second_class: &'static str },
}

impl Cell {
    /// A list date: '23/11/26', '23 Nov 2026' on hover (`domain::dates`).
    pub fn date(d: chrono::NaiveDate) -> Self {
        Self::Date { short: domain::dates::short_date(d), long: domain::dates::date(d) }
    }

    /// An optional list date (empty cell without one).
    pub fn date_opt(d: Option<chrono::NaiveDate>) -> Self {
        d.map_or(Self::Text(String::new()), Self::date)
    }

    /// A UTC timestamp shown as its date in the company's `zone`.
    pub fn stamp(t: chrono::NaiveDateTime, zone: domain::dates::Tz) -> Self {
        Self::date(domain::dates::local_date(t, zone))
    }

    /// One-line text cut at the column's width, whole in the tooltip.
    pub fn clip(text: impl Into<String>) -> Self {
        let text = text.into();
        Self::Clip { title: text.clone(), text, narrow: false }
    }

    /// One-line text cut at a narrow column's width, whole in the tooltip.
    pub fn clip_narrow(text: impl Into<String>) -> Self {
        let text = text.into();
        Self::Clip { title: text.clone(), text, narrow: true }
    }

    /// One-line text cut at a narrow column's width, with more in the tooltip than it shows.
    pub fn clip_narrow_titled(text: impl Into<String>, title: impl Into<String>) -> Self {
        Self::Clip { text: text.into(), title: title.into(), narrow: true }
    }

    /// The row's link to its detail, if it has one (the row opens it on click and Enter).
    pub fn href(&self) -> Option<&str> {
        match self {
            Self::Link { href, .. } => Some(href),
            _ => None,
        }
    }
}

/// A table column.
#[derive(Debug, Clone)]
pub struct Column {
    pub label: &'static str,
    pub numeric: bool,
}

impl Column {
    pub const fn text(label: &'static str) -> Self {
        Self { label, numeric: false }
    }
    pub const fn num(label: &'static str) -> Self {
        Self { label, numeric: true }
    }
}

/// The kind of one filter input.
#[derive(Debug, Clone)]
pub enum FilterKind {
    Text { value: String, placeholder: &'static str, suggestions: Vec<String> },
    Select { options: Vec<(String, String)>, selected: String },
    Date { value: String },
    /// A remote-suggestion picker: the visible text and a hidden id field; `balance` shows
    /// each customer's balance and the picked one's beside the label (quoting's To CSR).
    Picker { url: &'static str, target: &'static str, label: String, id: String, balance: bool },
}

/// One input of the search card.
#[derive(Debug, Clone)]
pub struct Filter {
    pub label: &'static str,
    pub name: &'static str,
    pub kind: FilterKind,
}

/// The '+ New' buttons of a list (open in a new tab).
#[derive(Debug, Clone)]
pub struct NewButton {
    pub label: &'static str,
    pub href: &'static str,
}

/// The results part of a list screen: swapped by htmx on search and paging.
#[derive(Debug, Clone)]
pub struct Results {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Cell>>,
    pub pager: Option<Pager>,
    pub empty_text: &'static str,
    /// Download of exactly these results (`format=xlsx`), when the list exports.
    pub export_url: Option<String>,
    /// Row checkboxes with actions on the checked rows, for lists that have them.
    pub selection: Option<Selection>,
}

impl Results {
    /// One page of a search that exports: the pager and the Export link keep the search
    /// (`pairs`), and an empty page says "No Data".
    pub fn exported(path: &str, pairs: &[(String, String)], req: PageReq, total: i64, columns: Vec<Column>, rows: Vec<Vec<Cell>>) -> Self {
        Self {
            columns,
            rows,
            pager: Some(Pager::new(path, pairs.to_vec(), req, total)),
            empty_text: EMPTY_NO_DATA,
            export_url: Some(export_url(path, pairs)),
            selection: None,
        }
    }

    /// The detail link of row `i` (askama passes loop indexes by reference).
    pub fn row_href(&self, i: &usize) -> Option<&str> {
        self.rows.get(*i)?.iter().find_map(Cell::href)
    }

    /// Columns including the checkbox column.
    pub fn width(&self) -> usize {
        self.columns.len() + usize::from(self.selection.is_some())
    }
}

/// Checkboxes on the rows and buttons that send the checked values to another page in a new
/// tab (a plain GET form, so it works without JavaScript).
#[derive(Debug, Clone)]
pub struct Selection {
    /// Where the checked values go, e.g. `/order_print/batch`.
    pub action: &'static str,
    /// The query name of each checked value.
    pub name: &'static str,
    /// The dropdown's text.
    pub label: &'static str,
    /// One submit button per choice: query name, value, text.
    pub choices: Vec<(&'static str, &'static str, &'static str)>,
    /// Per row: the checkbox value and the row's name, or `None` when the row cannot be chosen.
    pub rows: Vec<Option<(String, String)>>,
    /// The printer the checked sheets can be sent to without a dialog (issue 33): the
    /// choices' buttons then also post them to `/print_jobs` (htmx, with the form's values).
    pub printer: Option<String>,
}

impl Selection {
    /// The checkbox of row `i`, if it has one (askama passes loop indexes by reference).
    pub fn row(&self, i: &usize) -> Option<&(String, String)> {
        self.rows.get(*i).and_then(Option::as_ref)
    }
}

/// A whole list screen.
#[derive(Debug, Clone)]
pub struct ListView {
    pub heading: &'static str,
    pub path: &'static str,
    pub new_buttons: Vec<NewButton>,
    /// `None` hides the search card (suppliers, warehouses, brands, employees).
    pub filters: Option<Vec<Filter>>,
    pub results: Results,
}

impl ListView {
    /// How many filters the search card shows in its first row; the rest fold under
    /// 'More filters' so the table starts high on a 768 px screen.
    pub const PRIMARY_FILTERS: usize = 5;

    pub fn primary_filters(&self) -> usize {
        Self::PRIMARY_FILTERS
    }

    /// How many folded filters narrow the search (named on the closed fold).
    pub fn more_filters_in_use(&self) -> usize {
        self.filters.iter().flatten().skip(Self::PRIMARY_FILTERS).filter(|f| f.in_use()).count()
    }
}

impl Filter {
    /// Whether the filter narrows the search (a select off its first choice, any text).
    pub fn in_use(&self) -> bool {
        match &self.kind {
            FilterKind::Text { value, .. } | FilterKind::Date { value } => !value.trim().is_empty(),
            FilterKind::Picker { label, id, .. } => !label.trim().is_empty() || !id.trim().is_empty(),
            FilterKind::Select { options, selected } => !selected.is_empty() && options.first().is_some_and(|(v, _)| v != selected),
        }
    }

    /// The hidden field of a picker that shows the picked customer's balance.
    pub fn balance_for(&self) -> Option<&'static str> {
        match &self.kind {
            FilterKind::Picker { target, balance: true, .. } => Some(target),
            _ => None,
        }
    }
}

/// The URL of the xlsx export of a search.
pub fn export_url(path: &str, pairs: &[(String, String)]) -> String {
    let mut p = pairs.to_vec();
    p.push(("format".into(), "xlsx".into()));
    format!("{path}?{}", serde_urlencoded::to_string(&p).unwrap_or_default())
}

/// Options of a select with an 'All' first entry (dropped when sent).
pub fn options_with_all<I, V, L>(items: I) -> Vec<(String, String)>
where
    I: IntoIterator<Item = (V, L)>,
    V: ToString,
    L: ToString,
{
    std::iter::once(("".to_string(), "All".to_string())).chain(items.into_iter().map(|(v, l)| (v.to_string(), l.to_string()))).collect()
}

/// The value a filter pair currently has, or "".
pub fn current(pairs: &[(String, String)], key: &str) -> String {
    pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()).unwrap_or_default()
}

/// True when htmx asked for the results fragment only.
pub fn wants_fragment(headers: &HeaderMap) -> bool {
    headers.contains_key("hx-request") && headers.get("hx-target").and_then(|v| v.to_str().ok()) == Some("results")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_values_follow_the_spec() {
        for v in ["", " ", "0", "9999", "All"] {
            assert!(is_dropped(v), "{v:?}");
        }
        for v in ["1", "all", "99", "abc", "deliver preparing"] {
            assert!(!is_dropped(v), "{v:?}");
        }
        let pairs = clean_pairs([("a", "0"), ("b", "x"), ("c", "All"), ("d", "deliver preparing"), ("e", "9999")]);
        assert_eq!(pairs, vec![("b".into(), "x".into()), ("d".into(), "0".into())]);
    }

    #[test]
    fn paging_uses_allowed_sizes_only() {
        assert_eq!(Paging::default().resolve(150), PageReq { page: 1, per_page: 150 });
        assert_eq!(Paging { page: Some(3), per_page: Some(50) }.resolve(20), PageReq { page: 3, per_page: 50 });
        assert_eq!(Paging { page: Some(0), per_page: Some(33) }.resolve(20), PageReq { page: 1, per_page: 20 });
        assert_eq!(PageReq { page: 3, per_page: 50 }.offset(), 100);
        let far = Paging { page: Some(i64::MAX), per_page: Some(150) }.resolve(20);
        assert_eq!(far.page, domain::limits::PAGE_MAX);
        assert_eq!(far.offset(), 14_999_850, "a huge page number never overflows the offset");
        assert_eq!(Paging { page: Some(i64::MIN), per_page: None }.resolve(20).page, 1);
    }

    #[test]
    fn pager_links_keep_filters_and_size() {
        let p = Pager::new("/brands", vec![("q".into(), "a b".into())], PageReq { page: 2, per_page: 20 }, 45);
        assert_eq!(p.last_page, 3);
        assert_eq!(p.prev_url().unwrap(), "/brands?q=a+b&per_page=20");
        assert_eq!(p.next_url().unwrap(), "/brands?q=a+b&page=3&per_page=20");
        assert_eq!(p.base_url(), "/brands?q=a+b");
        let empty = Pager::new("/x", vec![], PageReq { page: 1, per_page: 20 }, 0);
        assert_eq!(empty.last_page, 1);
        assert!(empty.prev_url().is_none() && empty.next_url().is_none());
    }

    #[test]
    fn a_capped_count_shows_a_lower_bound_and_keeps_next() {
        // The list counted 10,001 rows from offset 0: more than the cap.
        let p = Pager::new("/invoices", vec![], PageReq { page: 1, per_page: 150 }, 10_001);
        assert_eq!((p.total_label(), p.last_page, p.jump_max()), ("10,000+".to_string(), 67, PAGE_MAX));
        assert!(p.next_url().is_some());
        assert_eq!(p.items().last(), Some(&PagerItem::Ellipsis), "the pages go on past the last number shown");
        // Exactly at the cap is an exact count.
        let p = Pager::new("/invoices", vec![], PageReq { page: 1, per_page: 150 }, 10_000);
        assert_eq!((p.total_label(), p.last_page, p.jump_max()), ("10000".to_string(), 67, 67));
        // Deep pages count from their offset: page 100 of 150 rows counted 9,000 past it.
        let p = Pager::new("/invoices", vec![], PageReq { page: 100, per_page: 150 }, 14_850 + 9_000);
        assert_eq!((p.total_label(), p.last_page), ("23850".to_string(), 159));
        assert!(p.next_url().is_some());
        let last = Pager::new("/invoices", vec![], PageReq { page: 159, per_page: 150 }, 23_850);
        assert!(last.next_url().is_none());
    }

    #[test]
    fn pager_elides_far_pages() {
        let p = Pager::new("/x", vec![], PageReq { page: 10, per_page: 20 }, 20 * 30);
        let shown: Vec<String> = p
            .items()
            .iter()
            .map(|i| match i {
                PagerItem::Page { n, current: true, .. } => format!("[{n}]"),
                PagerItem::Page { n, .. } => n.to_string(),
                PagerItem::Ellipsis => "…".into(),
            })
            .collect();
        assert_eq!(shown.join(" "), "1 … 8 9 [10] 11 12 … 30");
    }
}
