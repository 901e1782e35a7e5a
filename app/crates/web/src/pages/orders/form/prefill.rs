//! What a new sheet starts with: blank, a clone (clone, cloneBillToInv) or the quoting
//! cart (addFromCart, addFromCartAndClear).

use super::*;

#[derive(Deserialize, Default)]
pub struct AddQuery {
    pub(super) from: Option<i64>,
    /// Cart lines `productId:qty,…` (addFromCart operations).
    pub(super) items: Option<String>,
    pub(super) csr: Option<i64>,
    /// A saved quotation whose quoted prices the cart lines keep (issue 33).
    pub(super) quotation: Option<i64>,
}

/// How a new sheet starts: empty, or by one of the operations of spec §2.5.
pub(super) enum Prefill {
    Empty,
    /// clone, or cloneBillToInv (`to_invoice`), from sheet `from`.
    Clone { from: i64, to_invoice: bool },
    /// addFromCart(AndClear) with the cart's `items`, or without them: the browser hands its
    /// cart over (`operation`).
    Cart { operation: &'static str, items: Option<String>, customer: Option<i64>, quotation: Option<i64> },
}

impl Prefill {
    /// The operation named in the URL: 404 for an unknown one, 400 for a clone without its
    /// source.
    pub(super) fn of(operation: Option<&str>, q: AddQuery) -> AppResult<Self> {
        match operation {
            None => Ok(Self::Empty),
            Some(op @ ("clone" | "cloneBillToInv")) => {
                let from = q.from.ok_or_else(|| AppError::bad_request("Clone needs ?from=<sheet id>."))?;
                Ok(Self::Clone { from, to_invoice: op == "cloneBillToInv" })
            }
            Some(op @ ("addFromCart" | "addFromCartAndClear")) => {
                let operation = if op == "addFromCart" { "addFromCart" } else { "addFromCartAndClear" };
                Ok(Self::Cart { operation, items: q.items, customer: q.csr, quotation: q.quotation })
            }
            Some(_) => Err(AppError::NotFound),
        }
    }

    /// Refuses, before the page answers, a clone into type `t` whose source is no sheet of
    /// the company (404) or that the clone rules refuse (400): one statement.
    pub(super) async fn check(&self, state: &AppState, org: i64, t: OrderType) -> AppResult<()> {
        if let Self::Cart { quotation: Some(id), .. } = *self {
            // Converting a quotation (issue 33): an expired or another company's one is
            // refused before the page answers.
            state.db.run(move |c| services::quotations::for_invoice(c, org, id)).await?;
            return Ok(());
        }
        let Self::Clone { from, to_invoice } = *self else { return Ok(()) };
        let head = state.db.run(move |c| order_views::head_of(c, org, from)).await?;
        let src_type = OrderType::from_i32(head.order_type).ok_or(AppError::NotFound)?;
        clone::cloning(src_type, from, t, to_invoice).map_err(AppError::bad_request)?;
        Ok(())
    }

    /// The form of a new sheet of type `t` that starts from `blank` this way.
    pub(super) async fn fill(self, state: &AppState, org: i64, t: OrderType, blank: SheetForm) -> AppResult<Render> {
        Ok(match self {
            Self::Empty => Render::new_sheet(t, blank, vec![], BTreeMap::new(), None),
            Self::Clone { from, to_invoice } => {
                let (f, lines) = cloned(state, org, t, from, to_invoice, blank).await?;
                Render::new_sheet(t, f, lines, BTreeMap::new(), None)
            }
            Self::Cart { items: Some(items), customer, quotation, .. } => {
                let mut f = blank;
                let mut lines = from_cart(state, org, &items, customer, &mut f).await?;
                if let Some(id) = quotation {
                    // Converting a quotation: its quoted prices hold while it is valid (an
                    // expired one is refused here too, whoever typed the address).
                    let quoted = state.db.run(move |c| services::quotations::for_invoice(c, org, id)).await?.prices;
                    for l in &mut lines {
                        if let Some(p) = l.product_id.and_then(|p| quoted.get(&p)) {
                            l.price = p.plain();
                        }
                    }
                }
                Render::new_sheet(t, f, lines, BTreeMap::new(), None)
            }
            Self::Cart { operation, items: None, .. } => Render::new_sheet(t, blank, vec![], BTreeMap::new(), Some(operation)),
        })
    }
}

/// A new sheet of type `t` cloned from sheet `from` as the clone rules say (`domain::clone`):
/// its header with dates and ship type from `blank`, and its lines.
pub(super) async fn cloned(state: &AppState, org: i64, t: OrderType, from: i64, to_invoice: bool, blank: SheetForm) -> AppResult<(SheetForm, Vec<IslandLine>)> {
    let SheetWithLines { sheet, lines: src_lines } = state.db.run(move |c| order_views::sheet_with_lines(c, org, from)).await?;
    let foreign = sheet.order.currency != domain::currency::AUD;
    let (labels, src, src_lines) = (sheet.party_labels(), sheet.order, island_lines(src_lines, foreign));
    let src_type = OrderType::from_i32(src.order_type).ok_or(AppError::NotFound)?;
    let rules = clone::cloning(src_type, src.id, t, to_invoice).map_err(AppError::bad_request)?;
    let cloned = form_of_order(&src, labels.0, labels.1);
    let party = |v: &String| if rules.keeps_counterparty { v.clone() } else { String::new() };
    let f = SheetForm {
        version: String::new(),
        date: blank.date,
        due_date: String::new(),
        delivery_date: String::new(),
        customer_id: party(&cloned.customer_id),
        customer_label: party(&cloned.customer_label),
        supplier_id: party(&cloned.supplier_id),
        supplier_label: party(&cloned.supplier_label),
        related_order_id: rules.related_order.map(|id| id.to_string()).unwrap_or_default(),
        ship_type: blank.ship_type,
        ..cloned
    };
    let class_a = if rules.reprices_from_class_a {
        let ids: Vec<i64> = src_lines.iter().filter_map(|l| l.product_id).collect();
        state.db.run(move |c| pricing::quotes(c, org, &ids, None)).await?
    } else {
        HashMap::new()
    };
    // A bill from a purchase order receives what is still to come of it: a container's
    // second bill takes what the first left in transit (issue 35).
    let mut src_lines = src_lines;
    if src_type == OrderType::PurchaseOrder && t == OrderType::Bill {
        let received = state.db.run(move |c| db::orders::received_of(c, org, from)).await?;
        if !received.is_empty() {
            let ordered: Vec<(i64, i64)> = src_lines.iter().map(|l| (l.product_id.unwrap_or(0), l.qty.trim().parse().unwrap_or(0))).collect();
            let left = domain::stock::outstanding(&ordered, &received);
            src_lines = src_lines.into_iter().zip(left).filter(|(_, q)| *q > 0).map(|(l, q)| IslandLine { qty: q.to_string(), ..l }).collect();
        }
    }
    let lines = src_lines
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            let price = rules.line_price(l.price.clone(), l.product_id.and_then(|p| class_a.get(&p)).map(|q| q.unit_price));
            IslandLine { key: format!("new_{i}"), price, ..l }
        })
        .collect();
    Ok((f, lines))
}

/// The lines of the cart `items` (`productId:qty,…`) of the company's products, priced for
/// `customer`, who becomes the sheet's customer when the company has them.
pub(super) async fn from_cart(state: &AppState, org: i64, items: &str, customer: Option<i64>, f: &mut SheetForm) -> AppResult<Vec<IslandLine>> {
    let wanted: Vec<(i64, i64)> = items
        .split(',')
        .filter_map(|pair| {
            let (p, n) = pair.split_once(':')?;
            Some((p.trim().parse().ok()?, n.trim().parse().ok()?))
        })
        .collect();
    let ids: Vec<i64> = wanted.iter().map(|w| w.0).collect();
    let priced = state.db.run(move |c| pricing::quotes_for_customer(c, org, &ids, customer)).await?;
    let (quotes, label) = (priced.quotes, priced.customer_name.unwrap_or_default());
    if let Some(cid) = customer.filter(|_| !label.is_empty()) {
        f.customer_id = cid.to_string();
        f.customer_label = label;
    }
    Ok(wanted
        .iter()
        .filter(|(p, _)| quotes.contains_key(p))
        .enumerate()
        .map(|(i, (p, n))| IslandLine {
            key: format!("new_{i}"),
            product_id: Some(*p),
            qty: n.to_string(),
            price: quotes.get(p).map(|qt| qt.unit_price.plain()).unwrap_or_default(),
            tax_type: TaxType::default().as_i32(),
            ..Default::default()
        })
        .collect())
}
