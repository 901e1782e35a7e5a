//! Stock effects of approving and unapproving a sheet (DESIGN §5) and the moving average cost.

use std::fmt;

use super::enums::OrderType;
use super::money::{Cents, div_round_half_away, saturate};

/// The status change that moves stock; void is draft-only and moves nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StockTransition {
    /// Draft → Approved.
    Approve,
    /// Approved → Draft: exactly the negation of approving.
    UnApprove,
}

/// One sheet line as stock sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StockLine {
    /// The product moved.
    pub product_id: i64,
    /// The line quantity (every type but adjustments).
    pub qty: i64,
    /// The counted quantity (adjustments).
    pub in_warehouse_qty: i64,
    /// The quantity the system held when counted (adjustments).
    pub in_system_qty: i64,
}

/// The sheet whose approval moves stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StockSheet<'a> {
    /// The sheet's type.
    pub order_type: OrderType,
    /// The sheet's warehouse; the OUT warehouse of a transfer.
    pub warehouse_id: i64,
    /// The IN warehouse of a transfer.
    pub in_warehouse_id: Option<i64>,
    /// For a bill: the warehouse of its related purchase order, whose in-transit it lowers.
    pub related_po_warehouse_id: Option<i64>,
    /// The sheet's lines.
    pub lines: &'a [StockLine],
}

/// A change to one product's stock in one warehouse; the service writes it as a `stock_moves` row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StockEffect {
    /// Index into the sheet's lines that caused the change.
    pub line: usize,
    /// The warehouse whose stock changes.
    pub warehouse_id: i64,
    /// The product whose stock changes.
    pub product_id: i64,
    /// Change of the quantity on hand.
    pub on_hand_delta: i64,
    /// Change of the quantity in transit (purchase orders and the bills that receive them).
    pub in_transit_delta: i64,
}

/// Why stock effects cannot be computed for a sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StockError {
    /// A transfer without an IN warehouse.
    MissingInWarehouse,
    /// A transfer whose OUT and IN warehouse are the same.
    SameWarehouse,
    /// A sum of stock beyond what a number holds.
    TooLarge,
}

impl fmt::Display for StockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::MissingInWarehouse => "Please choose the IN warehouse",
            Self::SameWarehouse => "The OUT and IN warehouse must differ",
            Self::TooLarge => "The stock change is too large.",
        })
    }
}

impl std::error::Error for StockError {}

/// The stock effects of `transition` on `sheet`, in line order; changes of zero are left out.
pub fn stock_effects(
    sheet: &StockSheet<'_>,
    transition: StockTransition,
) -> Result<Vec<StockEffect>, StockError> {
    let transfer_in = match sheet.order_type {
        OrderType::Transfer => {
            let in_id = sheet
                .in_warehouse_id
                .ok_or(StockError::MissingInWarehouse)?;
            if in_id == sheet.warehouse_id {
                return Err(StockError::SameWarehouse);
            }
            Some(in_id)
        }
        _ => None,
    };
    let sign = match transition {
        StockTransition::Approve => 1,
        StockTransition::UnApprove => -1,
    };
    let mut effects = Vec::with_capacity(sheet.lines.len() * 2);
    for (index, line) in sheet.lines.iter().enumerate() {
        let mut push = |warehouse_id: i64, on_hand: i64, in_transit: i64| {
            if on_hand != 0 || in_transit != 0 {
                effects.push(StockEffect {
                    line: index,
                    warehouse_id,
                    product_id: line.product_id,
                    on_hand_delta: on_hand.saturating_mul(sign),
                    in_transit_delta: in_transit.saturating_mul(sign),
                });
            }
        };
        let wh = sheet.warehouse_id;
        let qty = line.qty;
        match sheet.order_type {
            OrderType::Invoice | OrderType::BillCreditNote => push(wh, qty.saturating_neg(), 0),
            OrderType::CreditNote => push(wh, qty, 0),
            OrderType::PurchaseOrder => push(wh, 0, qty),
            OrderType::Bill => match sheet.related_po_warehouse_id {
                // Received goods leave the PO's in-transit; no cap, so over-receipt shows as negative in transit.
                Some(po_wh) if po_wh == wh => push(wh, qty, qty.saturating_neg()),
                Some(po_wh) => {
                    push(wh, qty, 0);
                    push(po_wh, 0, qty.saturating_neg());
                }
                None => push(wh, qty, 0),
            },
            OrderType::Transfer => {
                push(wh, qty.saturating_neg(), 0);
                if let Some(in_id) = transfer_in {
                    push(in_id, qty, 0);
                }
            }
            OrderType::Adjustment => push(
                wh,
                line.in_warehouse_qty.saturating_sub(line.in_system_qty),
                0,
            ),
        }
    }
    Ok(effects)
}

/// Where approving would leave stock below zero: per warehouse and product that the sheet
/// takes stock from, what would be left (on hand now plus every effect of the sheet on it),
/// when that is negative. Virtual products hold no stock and are never short (issue 29).
/// `on_hand` answers the stock now; `physical` whether a product holds stock. Ordered by
/// warehouse and product.
pub fn shortfalls(effects: &[StockEffect], on_hand: impl Fn(i64, i64) -> i64, physical: impl Fn(i64) -> bool) -> Result<Vec<(i64, i64, i64)>, StockError> {
    let mut change: std::collections::BTreeMap<(i64, i64), (i64, bool)> = std::collections::BTreeMap::new();
    for e in effects.iter().filter(|e| physical(e.product_id)) {
        let entry = change.entry((e.warehouse_id, e.product_id)).or_insert((0, false));
        entry.0 = entry.0.checked_add(e.on_hand_delta).ok_or(StockError::TooLarge)?;
        entry.1 |= e.on_hand_delta < 0;
    }
    let mut short = Vec::new();
    for ((w, p), (delta, takes)) in change {
        let left = on_hand(w, p).checked_add(delta).ok_or(StockError::TooLarge)?;
        if takes && left < 0 {
            short.push((w, p, left));
        }
    }
    Ok(short)
}

/// The unit cost after receiving `in_qty` at `in_cost` onto `old_qty` held at `old_cost`, rounded to the cent.
///
/// With nothing (or less than nothing) on hand the old cost says nothing about the goods, so the
/// incoming cost is taken; receiving nothing keeps the old cost.
pub fn moving_average_cost(old_qty: i64, old_cost: Cents, in_qty: i64, in_cost: Cents) -> Cents {
    if in_qty <= 0 {
        return old_cost;
    }
    if old_qty <= 0 {
        return in_cost;
    }
    let value =
        i128::from(old_qty) * i128::from(old_cost.0) + i128::from(in_qty) * i128::from(in_cost.0);
    let qty = i128::from(old_qty) + i128::from(in_qty);
    Cents(saturate(div_round_half_away(value, qty)))
}

/// What is still to come of a purchase order (issue 35): for each of its lines (product,
/// ordered), the quantity the bills against it have not yet received. What a product's bills
/// received is set against its lines in order, so a product ordered on two lines is filled
/// line by line; a receipt beyond the order leaves nothing outstanding (never less than 0).
pub fn outstanding(ordered: &[(i64, i64)], received: &[(i64, i64)]) -> Vec<i64> {
    let mut left: std::collections::HashMap<i64, i64> = std::collections::HashMap::new();
    for (p, q) in received {
        let e = left.entry(*p).or_default();
        *e = e.saturating_add(*q);
    }
    ordered
        .iter()
        .map(|(p, q)| {
            let got = left.entry(*p).or_default();
            let taken = (*got).clamp(0, (*q).max(0));
            *got -= taken;
            q.saturating_sub(taken).max(0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn what_is_outstanding_on_a_purchase_order_fills_its_lines_in_order() {
        // 400 of product 7 on a container, 250 received by one bill: 150 to come.
        assert_eq!(outstanding(&[(7, 400)], &[(7, 250)]), vec![150]);
        // Two bills close it; a third over-receives: nothing outstanding, never negative.
        assert_eq!(outstanding(&[(7, 400)], &[(7, 250), (7, 150)]), vec![0]);
        assert_eq!(outstanding(&[(7, 400)], &[(7, 500)]), vec![0]);
        // A product on two lines is filled line by line; other products are apart.
        assert_eq!(outstanding(&[(7, 100), (8, 20), (7, 50)], &[(7, 120), (9, 5)]), vec![0, 20, 30]);
        assert_eq!(outstanding(&[(7, 10)], &[]), vec![10]);
    }

    const MAIN: i64 = 1;
    const OTHER: i64 = 2;

    fn line(product_id: i64, qty: i64) -> StockLine {
        StockLine {
            product_id,
            qty,
            in_warehouse_qty: 0,
            in_system_qty: 0,
        }
    }

    fn counted(product_id: i64, in_warehouse_qty: i64, in_system_qty: i64) -> StockLine {
        StockLine {
            product_id,
            qty: 0,
            in_warehouse_qty,
            in_system_qty,
        }
    }

    fn sheet(order_type: OrderType, lines: &[StockLine]) -> StockSheet<'_> {
        StockSheet {
            order_type,
            warehouse_id: MAIN,
            in_warehouse_id: None,
            related_po_warehouse_id: None,
            lines,
        }
    }

    fn effect(
        line: usize,
        warehouse_id: i64,
        product_id: i64,
        on_hand: i64,
        in_transit: i64,
    ) -> StockEffect {
        StockEffect {
            line,
            warehouse_id,
            product_id,
            on_hand_delta: on_hand,
            in_transit_delta: in_transit,
        }
    }

    fn approve(s: &StockSheet<'_>) -> Vec<StockEffect> {
        stock_effects(s, StockTransition::Approve).expect("valid sheet")
    }

    #[test]
    fn a_shortfall_is_where_approving_takes_physical_stock_below_zero() {
        // Product 7 twice on one invoice: 3 + 4 out of 5 leaves −2; product 8 is virtual;
        // product 9 has 10.
        let lines = [line(7, 3), line(8, 50), line(7, 4), line(9, 10)];
        let effects = approve(&sheet(OrderType::Invoice, &lines));
        let on_hand = |_w: i64, p: i64| if p == 9 { 10 } else { 5 };
        assert_eq!(shortfalls(&effects, on_hand, |p| p != 8), Ok(vec![(MAIN, 7, -2)]));
        // Stock coming in (a credit note, a bill) is never short, even below zero already.
        let effects = approve(&sheet(OrderType::CreditNote, &[line(7, 1)]));
        assert_eq!(shortfalls(&effects, |_, _| -10, |_| true), Ok(vec![]));
        // A transfer is short at its OUT warehouse only.
        let out = [line(7, 6)];
        let t = StockSheet { in_warehouse_id: Some(OTHER), ..sheet(OrderType::Transfer, &out) };
        let effects = approve(&t);
        assert_eq!(shortfalls(&effects, |w, _| if w == MAIN { 5 } else { 0 }, |_| true), Ok(vec![(MAIN, 7, -1)]));
        // A count below what the system holds sets the stock to the count: never below zero
        // unless the system already was.
        let effects = approve(&sheet(OrderType::Adjustment, &[counted(7, 2, 5)]));
        assert_eq!(shortfalls(&effects, |_, _| 5, |_| true), Ok(vec![]));
        // A stored figure at the edge of what a number holds is refused, not clamped.
        let effects = approve(&sheet(OrderType::Invoice, &[line(7, 1)]));
        assert_eq!(shortfalls(&effects, |_, _| i64::MIN, |_| true), Err(StockError::TooLarge));
    }

    #[test]
    fn approving_each_type_moves_stock_as_designed() {
        let lines = [line(10, 3), line(11, 5)];
        let table = [
            (
                OrderType::Invoice,
                vec![effect(0, MAIN, 10, -3, 0), effect(1, MAIN, 11, -5, 0)],
            ),
            (
                OrderType::CreditNote,
                vec![effect(0, MAIN, 10, 3, 0), effect(1, MAIN, 11, 5, 0)],
            ),
            (
                OrderType::PurchaseOrder,
                vec![effect(0, MAIN, 10, 0, 3), effect(1, MAIN, 11, 0, 5)],
            ),
            (
                OrderType::Bill,
                vec![effect(0, MAIN, 10, 3, 0), effect(1, MAIN, 11, 5, 0)],
            ),
            (
                OrderType::BillCreditNote,
                vec![effect(0, MAIN, 10, -3, 0), effect(1, MAIN, 11, -5, 0)],
            ),
        ];
        for (t, expected) in table {
            assert_eq!(approve(&sheet(t, &lines)), expected, "{t:?}");
        }
    }

    #[test]
    fn a_bill_lowers_the_in_transit_of_its_related_po() {
        let lines = [line(10, 4)];
        let same = StockSheet {
            related_po_warehouse_id: Some(MAIN),
            ..sheet(OrderType::Bill, &lines)
        };
        assert_eq!(approve(&same), vec![effect(0, MAIN, 10, 4, -4)]);
        let other = StockSheet {
            related_po_warehouse_id: Some(OTHER),
            ..sheet(OrderType::Bill, &lines)
        };
        assert_eq!(
            approve(&other),
            vec![effect(0, MAIN, 10, 4, 0), effect(0, OTHER, 10, 0, -4)]
        );
    }

    #[test]
    fn a_transfer_moves_from_out_to_in() {
        let lines = [line(10, 2), line(12, 7)];
        let transfer = StockSheet {
            in_warehouse_id: Some(OTHER),
            ..sheet(OrderType::Transfer, &lines)
        };
        assert_eq!(
            approve(&transfer),
            vec![
                effect(0, MAIN, 10, -2, 0),
                effect(0, OTHER, 10, 2, 0),
                effect(1, MAIN, 12, -7, 0),
                effect(1, OTHER, 12, 7, 0)
            ]
        );
    }

    #[test]
    fn a_transfer_needs_a_different_in_warehouse() {
        let lines = [line(10, 2)];
        let missing = sheet(OrderType::Transfer, &lines);
        assert_eq!(
            stock_effects(&missing, StockTransition::Approve),
            Err(StockError::MissingInWarehouse)
        );
        let same = StockSheet {
            in_warehouse_id: Some(MAIN),
            ..missing
        };
        assert_eq!(
            stock_effects(&same, StockTransition::UnApprove),
            Err(StockError::SameWarehouse)
        );
        assert_eq!(
            StockError::MissingInWarehouse.to_string(),
            "Please choose the IN warehouse"
        );
        assert_eq!(
            StockError::SameWarehouse.to_string(),
            "The OUT and IN warehouse must differ"
        );
    }

    #[test]
    fn an_adjustment_books_the_counted_difference() {
        let lines = [
            counted(10, 12, 10),
            counted(11, 3, 8),
            counted(12, 5, 5),
            counted(13, 0, -2),
        ];
        assert_eq!(
            approve(&sheet(OrderType::Adjustment, &lines)),
            vec![
                effect(0, MAIN, 10, 2, 0),
                effect(1, MAIN, 11, -5, 0),
                effect(3, MAIN, 13, 2, 0)
            ],
            "a line that counts what the system holds moves nothing"
        );
    }

    #[test]
    fn zero_quantity_lines_move_nothing_and_other_types_ignore_counts() {
        let lines = [
            line(10, 0),
            StockLine {
                product_id: 11,
                qty: 1,
                in_warehouse_qty: 50,
                in_system_qty: 0,
            },
        ];
        assert_eq!(
            approve(&sheet(OrderType::Invoice, &lines)),
            vec![effect(1, MAIN, 11, -1, 0)]
        );
        assert!(approve(&sheet(OrderType::Invoice, &[])).is_empty());
    }

    #[test]
    fn unapprove_is_exactly_the_negation_for_every_type() {
        let lines = [line(10, 3), line(11, 0), counted(12, 9, 4), line(10, -2)];
        for t in OrderType::ALL {
            for related in [None, Some(MAIN), Some(OTHER)] {
                let s = StockSheet {
                    in_warehouse_id: Some(OTHER),
                    related_po_warehouse_id: related,
                    ..sheet(*t, &lines)
                };
                let on = approve(&s);
                let off = stock_effects(&s, StockTransition::UnApprove).expect("valid sheet");
                let negated: Vec<StockEffect> = on
                    .iter()
                    .map(|e| StockEffect {
                        on_hand_delta: -e.on_hand_delta,
                        in_transit_delta: -e.in_transit_delta,
                        ..*e
                    })
                    .collect();
                assert_eq!(off, negated, "{t:?} related {related:?}");
            }
        }
    }

    /// A small deterministic generator so the property test needs no extra crate.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, below: u64) -> i64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            i64::try_from((self.0 >> 33) % below).expect("small")
        }
    }

    #[test]
    fn approve_then_unapprove_sums_to_zero_for_random_sheets() {
        let mut rng = Lcg(7);
        for round in 0..300 {
            let lines: Vec<StockLine> = (0..rng.next(8))
                .map(|_| StockLine {
                    product_id: rng.next(4),
                    qty: rng.next(200) - 50,
                    in_warehouse_qty: rng.next(100),
                    in_system_qty: rng.next(100) - 10,
                })
                .collect();
            for t in OrderType::ALL {
                let s = StockSheet {
                    order_type: *t,
                    warehouse_id: rng.next(3),
                    in_warehouse_id: Some(3 + rng.next(2)),
                    related_po_warehouse_id: [None, Some(0), Some(5)]
                        [usize::try_from(rng.next(3)).expect("small")],
                    lines: &lines,
                };
                let mut net: HashMap<(i64, i64), (i64, i64)> = HashMap::new();
                for transition in [StockTransition::Approve, StockTransition::UnApprove] {
                    for e in stock_effects(&s, transition).expect("valid sheet") {
                        let entry = net.entry((e.warehouse_id, e.product_id)).or_default();
                        entry.0 += e.on_hand_delta;
                        entry.1 += e.in_transit_delta;
                    }
                }
                assert!(
                    net.values().all(|v| *v == (0, 0)),
                    "round {round} {t:?}: {net:?}"
                );
            }
        }
    }

    #[test]
    fn approving_moves_the_expected_totals_per_type() {
        // Total on-hand and in-transit change summed over all warehouses, for qty lines 3 and 5.
        let lines = [line(10, 3), line(11, 5)];
        let table = [
            (OrderType::Invoice, -8, 0),
            (OrderType::CreditNote, 8, 0),
            (OrderType::PurchaseOrder, 0, 8),
            (OrderType::Bill, 8, -8),
            (OrderType::BillCreditNote, -8, 0),
            (OrderType::Transfer, 0, 0),
            (OrderType::Adjustment, 0, 0),
        ];
        assert_eq!(table.len(), OrderType::ALL.len());
        for (t, on_hand, in_transit) in table {
            let s = StockSheet {
                in_warehouse_id: Some(OTHER),
                related_po_warehouse_id: Some(OTHER),
                ..sheet(t, &lines)
            };
            let effects = approve(&s);
            assert_eq!(
                effects.iter().map(|e| e.on_hand_delta).sum::<i64>(),
                on_hand,
                "{t:?}"
            );
            assert_eq!(
                effects.iter().map(|e| e.in_transit_delta).sum::<i64>(),
                in_transit,
                "{t:?}"
            );
        }
    }

    #[test]
    fn moving_average_cost_weights_by_quantity() {
        // (old qty, old cost, in qty, in cost, new cost)
        let table = [
            (10, 10_000, 10, 12_000, 11_000),
            (3, 10_000, 1, 10_001, 10_000), // 10000.25
            (1, 10_000, 1, 10_001, 10_001), // 10000.5 rounds half up
            (2, 999, 1, 1_000, 999),        // 999.33
            (0, 10_000, 5, 12_000, 12_000), // nothing on hand: take the new cost
            (-4, 10_000, 5, 12_000, 12_000),
            (10, 10_000, 0, 50_000, 10_000), // nothing received: keep the old cost
            (10, 10_000, -3, 50_000, 10_000),
            (5, 0, 5, 2_000, 1_000),
            (i64::MAX, 100, i64::MAX, 300, 200),
        ];
        for (old_qty, old_cost, in_qty, in_cost, new_cost) in table {
            assert_eq!(
                moving_average_cost(old_qty, Cents(old_cost), in_qty, Cents(in_cost)),
                Cents(new_cost),
                "{old_qty}@{old_cost} + {in_qty}@{in_cost}"
            );
        }
    }
}
