//! Reports (spec §2.9, §3 Report job and Report parameters, §7): the nine kinds, the
//! parameters a request may carry, read field by field so a bad one is named, and the states
//! of a report job. What each file holds is in the reports module (`reports/`).

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::enums::{AreaType, CodeEnum, PaymentType, ProductCategory, Tag};

/// Reports one staff member may have waiting or running at once, over all their companies:
/// the one worker of a process runs one report at a time, so one person's fifty ten-year
/// reports would hold everyone else's for a quarter of an hour (issue 29).
pub const ACTIVE_PER_USER: i64 = 3;

/// The refusal of a report past [`ACTIVE_PER_USER`].
pub fn too_many_active(active: i64) -> String {
    format!("You have {active} reports waiting or running; at most {ACTIVE_PER_USER} at a time. Wait for one to finish, or cancel one, then ask again.")
}

/// The report kinds of spec §2.9, with the `type` the API names them by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    InvoiceDetails,
    SaleSummary,
    SlowMoving,
    PurchaseDetails,
    PurchaseSummary,
    TransferDetails,
    AdjustmentDetails,
    InventorySummary,
    InventoryDetails,
    /// Tyres by DOT age band (issue 36).
    TyreAge,
}

impl Kind {
    pub const ALL: [Kind; 10] = [
        Kind::InvoiceDetails,
        Kind::SaleSummary,
        Kind::SlowMoving,
        Kind::PurchaseDetails,
        Kind::PurchaseSummary,
        Kind::TransferDetails,
        Kind::AdjustmentDetails,
        Kind::InventorySummary,
        Kind::InventoryDetails,
        Kind::TyreAge,
    ];

    /// The `type` of the API and the first part of the file's name.
    pub const fn code(self) -> &'static str {
        match self {
            Kind::InvoiceDetails => "invoiceDetails",
            Kind::SaleSummary => "saleSummary",
            Kind::SlowMoving => "slowMoving",
            Kind::PurchaseDetails => "purchaseDetails",
            Kind::PurchaseSummary => "purchaseSummary",
            Kind::TransferDetails => "transferDetails",
            Kind::AdjustmentDetails => "adjustmentDetails",
            Kind::InventorySummary => "inventorySummary",
            Kind::InventoryDetails => "inventoryDetails",
            Kind::TyreAge => "tyreAge",
        }
    }

    /// The name staff see (the tab's title).
    pub const fn title(self) -> &'static str {
        match self {
            Kind::InvoiceDetails => "Invoices & Credit Notes Detail",
            Kind::SaleSummary => "Customers Sales Summary",
            Kind::SlowMoving => "Slow-moving Products Analysis",
            Kind::PurchaseDetails => "Purchase Orders or Bills Detail",
            Kind::PurchaseSummary => "Purchase Summary",
            Kind::TransferDetails => "Transfers Detail",
            Kind::AdjustmentDetails => "Adjustments Detail",
            Kind::InventorySummary => "Inventory Classification Summary",
            Kind::InventoryDetails => "Inventory Items Trace Detail",
            Kind::TyreAge => "Tyre age",
        }
    }

    pub fn from_code(code: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.code() == code)
    }

    /// Slow-moving looks back from one date and the tyre age report ages stock on one date
    /// (`dueDate`, the company's today unless told); every other kind covers a date range.
    pub const fn has_range(self) -> bool {
        !matches!(self, Kind::SlowMoving | Kind::TyreAge)
    }

    /// Whether cost, margin and margin % can appear in the file (when asked for and allowed).
    pub const fn can_show_cost(self) -> bool {
        matches!(self, Kind::InvoiceDetails | Kind::SaleSummary | Kind::SlowMoving | Kind::InventorySummary | Kind::TyreAge)
    }
}

/// How detail and summary rows are grouped (`group`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Group {
    #[default]
    #[serde(rename = "asCustomers")]
    Customers,
    #[serde(rename = "asProducts")]
    Products,
}

/// Which of a sheet's dates the range applies to (`dateType`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DateType {
    #[default]
    Date,
    DueDate,
    /// Shown as 'ETA Date'.
    DeliveryDate,
}

impl DateType {
    pub const fn label(self) -> &'static str {
        match self {
            DateType::Date => "Date",
            DateType::DueDate => "Due Date",
            DateType::DeliveryDate => "ETA Date",
        }
    }
}

/// Which purchase sheets a purchase report reads (`source`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Source {
    /// Bills and bill credit notes.
    #[default]
    #[serde(rename = "blBcn")]
    Bills,
    /// Purchase orders.
    #[serde(rename = "po")]
    PurchaseOrders,
}

/// The parameters of a report, as validated: ids not yet resolved in the company (the
/// service does that), lists sorted and without repeats so equal requests compare equal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Params {
    pub group: Group,
    pub date_type: DateType,
    /// Inclusive; for slow-moving the as-of date on both ends.
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    pub tags: Vec<i32>,
    pub warehouses: Vec<i64>,
    pub include_cost: bool,
    pub brands: Vec<i64>,
    pub categories: Vec<i32>,
    pub products: Vec<i64>,
    pub csr_created: Option<(NaiveDate, NaiveDate)>,
    pub areas: Vec<i32>,
    pub payments: Vec<i32>,
    pub csrs: Vec<i64>,
    pub as_of: Option<NaiveDate>,
    pub unsold_days: i64,
    pub less_than: i64,
    pub source: Source,
    pub suppliers: Vec<i64>,
    pub out_warehouses: Vec<i64>,
    pub in_warehouses: Vec<i64>,
    /// Slow-moving: split each tyre's stock on hand by DOT age band (issue 36, `byAge`).
    #[serde(default)]
    pub by_age: bool,
}

/// A field of the request that cannot be used, and why (answered as 422 on that field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

fn err(field: &str, message: impl Into<String>) -> FieldError {
    FieldError { field: field.to_string(), message: message.into() }
}

/// Most entries a filter list may name (a sheet's lines are capped alike).
pub const LIST_MAX: usize = 1_000;
/// Longest date range a report covers: ten years.
pub const RANGE_MAX_DAYS: i64 = 3_660;
/// Largest 'Unsolde days'.
pub const UNSOLD_DAYS_MAX: i64 = 3_650;
/// Largest 'Qty Criterion'.
pub const LESS_THAN_MAX: i64 = 1_000_000;
/// Default look-back of slow-moving when the request names none.
pub const UNSOLD_DAYS_DEFAULT: i64 = 90;

/// The fields a request may carry (spec §7); `Suppliers` is the spelling of the spec.
const FIELDS: &[&str] = &[
    "type",
    "group",
    "dateType",
    "dateRange",
    "tags",
    "warehouses",
    "includeCost",
    "brands",
    "categories",
    "products",
    "csrCreated",
    "areas",
    "payments",
    "csrs",
    "dueDate",
    "unSoldDay",
    "lessThan",
    "source",
    "suppliers",
    "Suppliers",
    "outWarehouse",
    "inWarehouse",
    "byAge",
];

/// Reads a report request: the kind and its parameters. `today` is the company's date, the
/// default as-of date of slow-moving.
pub fn parse(body: &Value, today: NaiveDate) -> Result<(Kind, Params), FieldError> {
    let Some(obj) = body.as_object() else { return Err(err("type", "Send the report as a JSON object.")) };
    if let Some(unknown) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(err(unknown, format!("'{unknown}' is not a report field.")));
    }
    let kind = match obj.get("type") {
        Some(Value::String(s)) => Kind::from_code(s).ok_or_else(|| {
            let all: Vec<&str> = Kind::ALL.iter().map(|k| k.code()).collect();
            err("type", format!("'{s}' is not a report type; use one of {}.", all.join(", ")))
        })?,
        _ => return Err(err("type", "Choose the report type.")),
    };
    let mut p = Params {
        group: enum_field(obj, "group")?.unwrap_or_default(),
        date_type: enum_field(obj, "dateType")?.unwrap_or_default(),
        tags: codes::<Tag>(obj, "tags")?,
        warehouses: ids(obj, "warehouses")?,
        include_cost: flag(obj, "includeCost")?,
        brands: ids(obj, "brands")?,
        categories: codes::<ProductCategory>(obj, "categories")?,
        products: ids(obj, "products")?,
        csr_created: range(obj, "csrCreated")?,
        areas: codes::<AreaType>(obj, "areas")?,
        payments: codes::<PaymentType>(obj, "payments")?,
        csrs: ids(obj, "csrs")?,
        source: enum_field(obj, "source")?.unwrap_or_default(),
        out_warehouses: ids(obj, "outWarehouse")?,
        in_warehouses: ids(obj, "inWarehouse")?,
        ..Params::default()
    };
    p.suppliers = match (ids(obj, "suppliers")?, ids(obj, "Suppliers")?) {
        (a, b) if a.is_empty() => b,
        (a, b) if b.is_empty() => a,
        _ => return Err(err("suppliers", "Send the suppliers once, as 'suppliers' or 'Suppliers'.")),
    };
    if kind.has_range() {
        let (from, to) = range(obj, "dateRange")?.ok_or_else(|| err("dateRange", "Choose the date range."))?;
        p.from = Some(from);
        p.to = Some(to);
    } else {
        let as_of = match obj.get("dueDate") {
            None | Some(Value::Null) => today,
            Some(Value::String(s)) if s.is_empty() => today,
            Some(v) => date(v).ok_or_else(|| err("dueDate", "The date must be yyyy-MM-dd."))?,
        };
        p.as_of = Some(as_of);
        if kind == Kind::SlowMoving {
            p.unsold_days = number(obj, "unSoldDay", 1, UNSOLD_DAYS_MAX)?.unwrap_or(UNSOLD_DAYS_DEFAULT);
            p.less_than = number(obj, "lessThan", 0, LESS_THAN_MAX)?.unwrap_or(1);
            p.by_age = flag(obj, "byAge")?;
        }
    }
    Ok((kind, p))
}

fn enum_field<T: serde::de::DeserializeOwned>(obj: &Map<String, Value>, field: &str) -> Result<Option<T>, FieldError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(v) => serde_json::from_value(v.clone()).map(Some).map_err(|_| err(field, format!("{v} is not a choice of '{field}'."))),
    }
}

fn date(v: &Value) -> Option<NaiveDate> {
    let s = v.as_str()?;
    let d = NaiveDate::parse_from_str(s.get(..10).unwrap_or(s), "%Y-%m-%d").ok()?;
    (super::limits::DATE_MIN..=super::limits::DATE_MAX).contains(&d).then_some(d)
}

pub fn range(obj: &Map<String, Value>, field: &str) -> Result<Option<(NaiveDate, NaiveDate)>, FieldError> {
    let v = match obj.get(field) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Array(a)) if a.is_empty() => return Ok(None),
        Some(v) => v,
    };
    let pair = v.as_array().filter(|a| a.len() == 2).ok_or_else(|| err(field, "Send the range as [\"yyyy-MM-dd\", \"yyyy-MM-dd\"]."))?;
    let (Some(from), Some(to)) = (date(&pair[0]), date(&pair[1])) else {
        return Err(err(field, "Each date must be yyyy-MM-dd, between 2000 and 2099."));
    };
    if from > to {
        return Err(err(field, "The range starts after it ends."));
    }
    if (to - from).num_days() >= RANGE_MAX_DAYS {
        return Err(err(field, "The range is longer than ten years; choose a shorter one."));
    }
    Ok(Some((from, to)))
}

/// A list of numbers; one number alone counts as a list of one (the warehouse pickers
/// send one). Sorted, without repeats.
fn numbers(obj: &Map<String, Value>, field: &str) -> Result<Vec<i64>, FieldError> {
    let items = match obj.get(field) {
        None | Some(Value::Null) => return Ok(vec![]),
        Some(Value::Array(a)) => a.clone(),
        Some(v @ (Value::Number(_) | Value::String(_))) => vec![v.clone()],
        Some(_) => return Err(err(field, "Send a list of ids.")),
    };
    if items.len() > LIST_MAX {
        return Err(err(field, format!("Choose at most {LIST_MAX}.")));
    }
    let mut out = Vec::with_capacity(items.len());
    for v in &items {
        let n = match v {
            Value::Number(n) => n.as_i64(),
            Value::String(s) if s == "all" => continue,
            Value::String(s) => s.trim().parse::<i64>().ok(),
            _ => None,
        };
        match n {
            Some(n) if n > 0 => out.push(n),
            _ => return Err(err(field, format!("{v} is not an id."))),
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

fn ids(obj: &Map<String, Value>, field: &str) -> Result<Vec<i64>, FieldError> {
    numbers(obj, field)
}

fn codes<E: CodeEnum>(obj: &Map<String, Value>, field: &str) -> Result<Vec<i32>, FieldError> {
    numbers(obj, field)?
        .into_iter()
        .map(|n| {
            i32::try_from(n).ok().and_then(E::from_code).map(E::code).ok_or_else(|| err(field, format!("{n} is not a choice of '{field}'.")))
        })
        .collect()
}

fn flag(obj: &Map<String, Value>, field: &str) -> Result<bool, FieldError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::Number(n)) if n.as_i64() == Some(0) => Ok(false),
        Some(Value::Number(n)) if n.as_i64() == Some(1) => Ok(true),
        Some(Value::String(s)) if ["yes", "true", "1"].contains(&s.to_ascii_lowercase().as_str()) => Ok(true),
        Some(Value::String(s)) if ["no", "false", "0", ""].contains(&s.to_ascii_lowercase().as_str()) => Ok(false),
        Some(v) => Err(err(field, format!("{v} is not Yes or No."))),
    }
}

fn number(obj: &Map<String, Value>, field: &str, min: i64, max: i64) -> Result<Option<i64>, FieldError> {
    let n = match obj.get(field) {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => return Ok(None),
        Some(Value::Number(n)) => n.as_i64(),
        Some(Value::String(s)) => s.trim().parse::<i64>().ok(),
        Some(_) => None,
    };
    match n {
        Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
        _ => Err(err(field, format!("Enter a whole number from {min} to {max}."))),
    }
}

impl Params {
    /// The date range as staff read it, e.g. `2026-01-01~2026-12-31`; slow-moving shows its
    /// as-of date.
    pub fn range_label(&self) -> String {
        match (self.from, self.to, self.as_of) {
            (Some(f), Some(t), _) => format!("{f}~{t}"),
            (_, _, Some(d)) => d.to_string(),
            _ => String::new(),
        }
    }

    /// The parameters as stored with the job, and the key of identical requests.
    pub fn canonical(&self, kind: Kind) -> String {
        serde_json::json!({ "type": kind.code(), "params": self }).to_string()
    }
}

pub use crate::jobs::JobState;

/// The file name a report is downloaded as: `type-dateRange.xlsx` (spec §7), e.g.
/// `invoiceDetails-2026-01-01~2026-12-31.xlsx`.
pub fn download_name(kind: Kind, range_label: &str) -> String {
    format!("{}-{}.xlsx", kind.code(), range_label)
}

/// Margin and margin % of a sales figure and its cost, in cents and hundredths of a percent
/// (`None` when there were no sales to measure against). Checked: an overflow is an error,
/// never a wrong figure.
pub fn margin(sales: i64, cost: i64) -> Option<(i64, Option<i64>)> {
    let m = sales.checked_sub(cost)?;
    let pct = if sales == 0 { None } else { Some(i64::try_from(i128::from(m) * 10_000 / i128::from(sales)).ok()?) };
    Some((m, pct))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 23).unwrap()
    }

    fn field_of(v: Value) -> String {
        parse(&v, today()).unwrap_err().field
    }

    #[test]
    fn a_sales_detail_request_reads_every_filter() {
        let (kind, p) = parse(
            &json!({"type": "invoiceDetails", "group": "asProducts", "dateType": "deliveryDate", "dateRange": ["2026-01-01", "2026-12-31"],
                    "tags": [2, 1, 2], "warehouses": [5], "includeCost": "Yes", "brands": [3], "categories": [1], "products": [9, 8],
                    "csrCreated": ["2025-01-01", "2025-06-30"], "areas": [1], "payments": [1], "csrs": [4]}),
            today(),
        )
        .unwrap();
        assert_eq!(kind, Kind::InvoiceDetails);
        assert_eq!(p.group, Group::Products);
        assert_eq!(p.date_type, DateType::DeliveryDate);
        assert_eq!((p.from, p.to), (NaiveDate::from_ymd_opt(2026, 1, 1), NaiveDate::from_ymd_opt(2026, 12, 31)));
        assert_eq!(p.tags, vec![1, 2], "sorted, without repeats");
        assert_eq!(p.products, vec![8, 9]);
        assert!(p.include_cost);
        assert_eq!(p.range_label(), "2026-01-01~2026-12-31");
        assert_eq!(download_name(kind, &p.range_label()), "invoiceDetails-2026-01-01~2026-12-31.xlsx");
    }

    #[test]
    fn equal_requests_have_one_key_whatever_the_order_of_their_lists() {
        let a = parse(&json!({"type": "saleSummary", "dateRange": ["2026-01-01", "2026-01-31"], "csrs": [3, 1]}), today()).unwrap();
        let b = parse(&json!({"type": "saleSummary", "dateRange": ["2026-01-01", "2026-01-31"], "csrs": [1, 3, 3]}), today()).unwrap();
        assert_eq!(a.1.canonical(a.0), b.1.canonical(b.0));
        let c = parse(&json!({"type": "saleSummary", "dateRange": ["2026-01-01", "2026-02-01"], "csrs": [1, 3]}), today()).unwrap();
        assert_ne!(a.1.canonical(a.0), c.1.canonical(c.0));
    }

    #[test]
    fn a_bad_field_is_named() {
        assert_eq!(field_of(json!({"type": "nope"})), "type");
        assert_eq!(field_of(json!({"dateRange": ["2026-01-01", "2026-01-02"]})), "type");
        assert_eq!(field_of(json!({"type": "saleSummary"})), "dateRange");
        assert_eq!(field_of(json!({"type": "saleSummary", "dateRange": ["2026-02-01", "2026-01-01"]})), "dateRange");
        assert_eq!(field_of(json!({"type": "saleSummary", "dateRange": ["2000-01-01", "2019-01-01"]})), "dateRange");
        assert_eq!(field_of(json!({"type": "saleSummary", "dateRange": ["2026-01-01", "2026/02/01"]})), "dateRange");
        assert_eq!(field_of(json!({"type": "saleSummary", "dateRange": ["2026-01-01", "2026-01-02"], "tags": [99]})), "tags");
        assert_eq!(field_of(json!({"type": "saleSummary", "dateRange": ["2026-01-01", "2026-01-02"], "warehouses": [-1]})), "warehouses");
        assert_eq!(field_of(json!({"type": "saleSummary", "dateRange": ["2026-01-01", "2026-01-02"], "group": "asWeeks"})), "group");
        assert_eq!(field_of(json!({"type": "saleSummary", "dateRange": ["2026-01-01", "2026-01-02"], "includeCost": "maybe"})), "includeCost");
        assert_eq!(field_of(json!({"type": "saleSummary", "dateRange": ["2026-01-01", "2026-01-02"], "colour": 1})), "colour");
        let many: Vec<i64> = (1..=1001).collect();
        assert_eq!(field_of(json!({"type": "saleSummary", "dateRange": ["2026-01-01", "2026-01-02"], "products": many})), "products");
        assert_eq!(field_of(json!({"type": "slowMoving", "unSoldDay": 0})), "unSoldDay");
        assert_eq!(field_of(json!({"type": "slowMoving", "lessThan": "x"})), "lessThan");
        assert_eq!(field_of(json!({"type": "purchaseDetails", "dateRange": ["2026-01-01", "2026-01-02"], "source": "xx"})), "source");
    }

    #[test]
    fn slow_moving_looks_back_from_today_unless_told() {
        let (_, p) = parse(&json!({"type": "slowMoving"}), today()).unwrap();
        assert_eq!((p.as_of, p.unsold_days, p.less_than), (Some(today()), UNSOLD_DAYS_DEFAULT, 1));
        let (_, p) = parse(&json!({"type": "slowMoving", "dueDate": "2026-06-30", "unSoldDay": "30", "lessThan": 5}), today()).unwrap();
        assert_eq!((p.as_of, p.unsold_days, p.less_than), (NaiveDate::from_ymd_opt(2026, 6, 30), 30, 5));
        assert_eq!(p.range_label(), "2026-06-30");
    }

    #[test]
    fn all_and_one_warehouse_alone_read_as_lists() {
        let (_, p) = parse(
            &json!({"type": "transferDetails", "dateRange": ["2026-01-01", "2026-01-02"], "outWarehouse": 3, "inWarehouse": ["all"], "Suppliers": [2]}),
            today(),
        )
        .unwrap();
        assert_eq!(p.out_warehouses, vec![3]);
        assert!(p.in_warehouses.is_empty(), "'all' is no filter");
        assert_eq!(p.suppliers, vec![2], "the spec's spelling 'Suppliers' is read");
    }

    #[test]
    fn margin_is_measured_against_sales() {
        assert_eq!(margin(10_000, 7_500), Some((2_500, Some(2_500))), "25.00 %");
        assert_eq!(margin(0, 100), Some((-100, None)));
        assert_eq!(margin(-5_000, -4_000), Some((-1_000, Some(2_000))), "a credit's margin keeps its sign against its sales");
        assert_eq!(margin(i64::MIN, 1), None, "an overflow is refused, not wrapped");
    }

    #[test]
    fn job_states_round_trip() {
        for s in [JobState::Queued, JobState::Running, JobState::Done, JobState::Failed, JobState::Cancelled] {
            assert_eq!(JobState::from_i32(s.as_i32()), Some(s));
        }
        assert!(JobState::Running.is_active() && !JobState::Done.is_active());
    }

    #[test]
    fn the_tyre_age_report_ages_stock_on_one_date_and_may_show_cost() {
        let (kind, p) = parse(&json!({"type": "tyreAge", "warehouses": [3], "brands": [7], "includeCost": "Yes"}), today()).unwrap();
        assert_eq!(kind, Kind::TyreAge);
        assert_eq!((p.from, p.to, p.as_of), (None, None, Some(today())), "the company's today unless told");
        assert_eq!((p.warehouses, p.brands, p.include_cost), (vec![3], vec![7], true));
        assert_eq!((p.unsold_days, p.less_than, p.by_age), (0, 0, false), "slow-moving's criteria are not its own");
        let (_, p) = parse(&json!({"type": "tyreAge", "byAge": "Yes"}), today()).unwrap();
        assert!(!p.by_age);
        let (_, slow) = parse(&json!({"type": "slowMoving", "byAge": "Yes"}), today()).unwrap();
        assert!(slow.by_age, "slow-moving may split stock by age band");
        assert_eq!(field_of(json!({"type": "slowMoving", "byAge": "sometimes"})), "byAge");
        let (_, p) = parse(&json!({"type": "tyreAge", "dueDate": "2026-06-30"}), today()).unwrap();
        assert_eq!(p.as_of, NaiveDate::from_ymd_opt(2026, 6, 30));
        assert!(!Kind::TyreAge.has_range() && Kind::TyreAge.can_show_cost());
        assert_eq!((Kind::TyreAge.code(), Kind::TyreAge.title()), ("tyreAge", "Tyre age"));
        assert_eq!(Kind::from_code("tyreAge"), Some(Kind::TyreAge));
    }
}
