//! Who may see what and do what beyond the roles of spec §6 (docs/decisions/companies-and-references.md,
//! "Roles and permissions", "Cost visibility").

use super::enums::{OrderType, Role};
use super::money::Cents;

/// Cost and reference purchase price are shown to approvers and to staff who set prices
/// (modPrc); sales and service staff quote without them.
pub fn may_see_cost(role: Role, mod_prc: bool) -> bool {
    role == Role::Approver || mod_prc
}

/// Running the company is the approver's (role 4) alone: suppliers, warehouses, brands,
/// staff, the settings (the accounting link's among them: they name where the company's
/// books are and who may write into them) and the Download Center's imports.
pub fn may_administer(role: Role) -> bool {
    role == Role::Approver
}

/// Message for warehouse staff, who never use the app (spec §5, §8).
pub const WAREHOUSE_REFUSED: &str = "No access permission for warehouse staff.";

/// The refusal of that work to everyone else (docs/decisions/companies-and-references.md).
pub const APPROVER_ONLY: &str = "Only an approver (role 4) may change suppliers, warehouses, brands, staff and settings.";

/// [`may_administer`] as a check: `Err(APPROVER_ONLY)` for anyone but an approver.
pub fn check_administer(role: Role) -> Result<(), &'static str> {
    if may_administer(role) { Ok(()) } else { Err(APPROVER_ONLY) }
}

/// XeroRecall voids or deletes a document in the company's books, and Batch SendXero writes
/// up to 2,000 at once: approvers and accountants (isAcct) only. SendXero of one approved
/// sheet stays open to every staff member, as the end of the sheet's normal course.
pub fn may_recall_or_batch_send(role: Role, is_acct: bool) -> bool {
    role == Role::Approver || is_acct
}

/// The refusal of XeroRecall and Batch SendXero to everyone else.
pub const RECALL_OR_BATCH_REFUSED: &str = "Only an approver or an accountant may recall sheets from Xero or send them in a batch.";

/// A figure only some staff may see: a product's moving-average cost, its reference purchase
/// price, a line's cost at approval, a stock move's unit cost. It has neither `Display` nor
/// `Serialize`, so no page, answer, spreadsheet or island prop can carry it by accident: the
/// only ways out are [`Sight::cost`] (what a viewer may see) and [`Cost::for_books`] (the
/// server's own arithmetic: moving averages, stock valuation, reports already checked).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cost(i64);

impl Cost {
    /// A cost of `cents`.
    pub const fn new(cents: i64) -> Self {
        Self(cents)
    }

    /// The figure for the server's own arithmetic and storage, never for showing.
    pub const fn for_books(self) -> Cents {
        Cents(self.0)
    }
}

impl From<i64> for Cost {
    fn from(cents: i64) -> Self {
        Self(cents)
    }
}

/// What one viewer may see of the figures that are not everyone's: built once per request
/// from the signed-in membership, and the one gate every way out (HTML, JSON, xlsx, island
/// props, history) passes cost through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sight {
    cost: bool,
}

impl Sight {
    /// The sight of a staff member with `role` and the modPrc flag ([`may_see_cost`]).
    pub fn of(role: Role, mod_prc: bool) -> Self {
        Self { cost: may_see_cost(role, mod_prc) }
    }

    /// Everything: the server's own jobs that were already checked for the requester.
    pub const fn everything() -> Self {
        Self { cost: true }
    }

    /// The sight a job recorded when it was asked (`sees_cost` of the person who asked),
    /// for the server to write its file with later.
    pub const fn recorded(sees_cost: bool) -> Self {
        Self { cost: sees_cost }
    }

    /// Whether costs are shown at all (a column is offered).
    pub const fn sees_cost(self) -> bool {
        self.cost
    }

    /// The cost, or `None` for a viewer who may not see it.
    pub fn cost(self, c: Cost) -> Option<Cents> {
        self.cost.then_some(c.for_books())
    }

    /// Whether this viewer sees the prices and amounts of a sheet of `order_type`: an
    /// adjustment's are valued at cost, so they are withheld like cost; every other sheet's
    /// are shown.
    pub fn sees_money(self, order_type: OrderType) -> bool {
        self.cost || !values_at_cost(order_type)
    }

    /// A line's unit price and amount as this viewer may see them ([`Sight::sees_money`]).
    pub fn line_money(self, order_type: OrderType, price: Cents, amount: Cents) -> Option<(Cents, Cents)> {
        self.sees_money(order_type).then_some((price, amount))
    }

    /// A sheet's total as this viewer may see it ([`Sight::sees_money`]).
    pub fn sheet_total(self, order_type: OrderType, total: Cents) -> Option<Cents> {
        self.sees_money(order_type).then_some(total)
    }
}

/// Sheets whose prices are the products' cost: adjustments (stock-takes valued at cost).
pub fn values_at_cost(order_type: OrderType) -> bool {
    order_type == OrderType::Adjustment
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_is_for_approvers_and_price_setters() {
        assert!(may_see_cost(Role::Approver, false));
        assert!(may_see_cost(Role::Sales, true));
        for role in [Role::Business, Role::Sales, Role::Service] {
            assert!(!may_see_cost(role, false), "{role:?}");
        }
    }

    #[test]
    fn a_sight_reveals_cost_only_to_those_who_may_see_it() {
        let c = Cost::new(14_432);
        assert_eq!(Sight::of(Role::Approver, false).cost(c), Some(Cents(14_432)));
        assert_eq!(Sight::of(Role::Service, true).cost(c), Some(Cents(14_432)));
        assert_eq!(Sight::of(Role::Sales, false).cost(c), None);
        assert_eq!(Sight::of(Role::Business, false).cost(c), None);
        assert!(Sight::everything().sees_cost());
    }

    #[test]
    fn adjustment_money_is_cost_and_other_sheets_money_is_not() {
        let (p, a) = (Cents(14_432), Cents(28_864));
        let sales = Sight::of(Role::Sales, false);
        for &t in OrderType::ALL {
            let shown = sales.line_money(t, p, a);
            assert_eq!(shown.is_none(), t == OrderType::Adjustment, "{t:?}");
            assert_eq!(sales.sheet_total(t, a).is_none(), t == OrderType::Adjustment, "{t:?}");
            assert_eq!(Sight::of(Role::Approver, false).line_money(t, p, a), Some((p, a)), "{t:?}");
        }
    }

    #[test]
    fn only_approvers_run_the_company_and_everyone_else_gets_the_one_refusal() {
        assert!(may_administer(Role::Approver));
        assert_eq!(check_administer(Role::Approver), Ok(()));
        for role in Role::ALL.iter().copied().filter(|r| *r != Role::Approver) {
            assert!(!may_administer(role), "{role:?}");
            assert_eq!(check_administer(role), Err("Only an approver (role 4) may change suppliers, warehouses, brands, staff and settings."), "{role:?}");
        }
    }

    #[test]
    fn approvers_or_accountants_recall_and_batch() {
        for role in [Role::Business, Role::Sales, Role::Service, Role::Approver] {
            assert_eq!(may_recall_or_batch_send(role, false), role == Role::Approver, "{role:?}");
            assert!(may_recall_or_batch_send(role, true), "{role:?} with isAcct");
        }
    }
}
