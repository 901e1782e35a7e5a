//! Which detail-page action a sheet allows (spec §4, DESIGN §5) and where it can be cloned to (spec §2.6).

use super::enums::{OrderStatus, OrderType, XeroState};

/// An action on the order detail page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Draft → Approved (moves stock).
    Approve,
    /// Approved → Draft (reverses stock).
    UnApprove,
    /// Draft → Voided, irreversibly.
    Void,
    /// Marks an approved sheet closed.
    Close,
    /// Queues the sheet for the accounting system.
    SendXero,
    /// Voids or deletes the accounting document and marks the sheet unsent.
    XeroRecall,
    /// Prints the A4 document (standard or without price).
    Print,
    /// Marks the sheet printed without printing.
    ManualMark,
    /// Opens the line editor.
    EditContent,
    /// Edits the date fields.
    EditDate,
    /// Edits address and phone.
    EditAddress,
    /// Assigns or changes the driver.
    EditDriver,
    /// Edits delivery status, driver comment and actual pay type (the approve view's fields).
    EditDelivery,
    /// Shows the history dialog.
    SeeHistory,
    /// Offers the Clone dropdown.
    Clone,
}

impl Action {
    /// Every action, in the order of the detail page's buttons.
    pub const ALL: &'static [Self] = &[
        Self::SendXero,
        Self::XeroRecall,
        Self::Void,
        Self::Print,
        Self::ManualMark,
        Self::EditContent,
        Self::EditDate,
        Self::EditAddress,
        Self::EditDriver,
        Self::EditDelivery,
        Self::SeeHistory,
        Self::Approve,
        Self::UnApprove,
        Self::Close,
        Self::Clone,
    ];

    /// The button or menu text.
    pub const fn label(self) -> &'static str {
        match self {
            Self::Approve => "Approve",
            Self::UnApprove => "UnApprove",
            Self::Void => "Void",
            Self::Close => "Close",
            Self::SendXero => "SendXero",
            Self::XeroRecall => "XeroRecall",
            Self::Print => "Print",
            Self::ManualMark => "Manual Mark",
            Self::EditContent => "Content",
            Self::EditDate => "Date",
            Self::EditAddress => "Address",
            Self::EditDriver => "Driver",
            Self::EditDelivery => "Delivery",
            Self::SeeHistory => "See History",
            Self::Clone => "Clone",
        }
    }
}

/// What the rules need to know about a sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SheetState {
    /// The sheet's type.
    pub order_type: OrderType,
    /// The sheet's status.
    pub status: OrderStatus,
    /// The closure flag.
    pub closed: bool,
    /// Where the sheet stands with the accounting system.
    pub xero: XeroState,
}

impl SheetState {
    /// Approved, whether or not closed: status Closed is read as Approved with the closure flag set.
    pub const fn is_approved(&self) -> bool {
        matches!(self.status, OrderStatus::Approved | OrderStatus::Closed)
    }

    /// Closed by flag or by status.
    pub const fn is_closed(&self) -> bool {
        self.closed || matches!(self.status, OrderStatus::Closed)
    }
}

/// Whether `action` is offered (and accepted by the server) for a sheet in `state`.
pub fn allowed(action: Action, state: &SheetState) -> bool {
    let t = state.order_type;
    let draft = state.status == OrderStatus::Draft;
    let voided = state.status == OrderStatus::Voided;
    let approved = state.is_approved();
    let sent = state.xero == XeroState::Sent;
    // Unsent or Fail: nothing of the sheet is in Xero or on its way there.
    let unsent = matches!(state.xero, XeroState::Unsent | XeroState::Fail);
    match action {
        Action::Approve | Action::Void | Action::EditContent => draft,
        // Once the accounting system holds the document, it must be recalled before stock is reversed.
        // While a send or recall is under way its outcome is not known yet, so neither is allowed.
        Action::UnApprove => approved && !state.is_closed() && unsent,
        Action::Close => approved && t.is_closable() && !state.is_closed(),
        // Fail is not Sent, so a failed send may be retried.
        Action::SendXero => approved && t.syncs_to_xero() && unsent,
        Action::XeroRecall => sent && t.syncs_to_xero(),
        Action::Print | Action::ManualMark => {
            (approved && t.is_sales()) || (draft && t == OrderType::CreditNote)
        }
        Action::EditDate => !voided,
        Action::EditAddress => !voided && t.is_sales(),
        // Delivery is tracked once a sheet is approved for shipping, like its driver.
        Action::EditDriver | Action::EditDelivery => approved && t.is_sales(),
        Action::SeeHistory => true,
        Action::Clone => !matches!(t, OrderType::Transfer | OrderType::Adjustment),
    }
}

/// The actions offered for a sheet in `state`, in button order.
pub fn available_actions(state: &SheetState) -> Vec<Action> {
    Action::ALL
        .iter()
        .copied()
        .filter(|a| allowed(*a, state))
        .collect()
}

/// An entry of the detail page's Clone dropdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloneOption {
    /// 'Order': a new purchase order (only from purchase orders).
    Order,
    /// 'Invoice or Bill': an invoice from sales sheets, a bill otherwise.
    InvoiceOrBill,
    /// 'Credit Note or Bill Credit Note': a credit note from sales sheets, a bill credit note otherwise.
    CreditNoteOrBillCreditNote,
    /// 'Bill -> Invoice': an invoice from a bill's lines (only from bills).
    BillToInvoice,
}

impl CloneOption {
    /// The dropdown text.
    pub const fn label(self) -> &'static str {
        match self {
            Self::Order => "Order",
            Self::InvoiceOrBill => "Invoice or Bill",
            Self::CreditNoteOrBillCreditNote => "Credit Note or Bill Credit Note",
            Self::BillToInvoice => "Bill -> Invoice",
        }
    }

    /// The `{operation}` segment of `/order_add/{routeName}/{operation}`.
    pub const fn operation(self) -> &'static str {
        match self {
            Self::BillToInvoice => "cloneBillToInv",
            _ => "clone",
        }
    }
}

/// The Clone dropdown of a sheet of `source` type: each option with the type of the new sheet.
pub fn clone_targets(source: OrderType) -> Vec<(CloneOption, OrderType)> {
    let (plain, credit) = match source {
        OrderType::Invoice | OrderType::CreditNote => (OrderType::Invoice, OrderType::CreditNote),
        OrderType::PurchaseOrder | OrderType::Bill | OrderType::BillCreditNote => {
            (OrderType::Bill, OrderType::BillCreditNote)
        }
        OrderType::Transfer | OrderType::Adjustment => return Vec::new(),
    };
    let mut targets = Vec::with_capacity(4);
    if source == OrderType::PurchaseOrder {
        targets.push((CloneOption::Order, OrderType::PurchaseOrder));
    }
    targets.push((CloneOption::InvoiceOrBill, plain));
    targets.push((CloneOption::CreditNoteOrBillCreditNote, credit));
    if source == OrderType::Bill {
        targets.push((CloneOption::BillToInvoice, OrderType::Invoice));
    }
    targets
}

#[cfg(test)]
mod tests {
    use super::*;
    use OrderStatus::{Approved, Closed, Draft, Voided};
    use XeroState::{Fail, Recalling, Sending, Sent, Unsent};

    /// One way an action is allowed: every listed value of each dimension.
    struct Grant {
        types: &'static [i32],
        statuses: &'static [OrderStatus],
        closed: &'static [bool],
        xero: &'static [XeroState],
    }

    const ALL_TYPES: &[i32] = &[1, 2, 3, 4, 5, 6, 7];
    const ANY_STATUS: &[OrderStatus] = &[Draft, Approved, Voided, Closed];
    const ANY_CLOSED: &[bool] = &[false, true];
    const ANY_XERO: &[XeroState] = &[Unsent, Sent, Fail, Sending, Recalling];

    /// The rules restated as data, independent of the `match` in `allowed`; an action is allowed
    /// when any of its grants covers the state.
    fn grants(action: Action) -> Vec<Grant> {
        let g = |types, statuses, closed, xero| Grant {
            types,
            statuses,
            closed,
            xero,
        };
        match action {
            Action::Approve | Action::Void | Action::EditContent => {
                vec![g(ALL_TYPES, &[Draft], ANY_CLOSED, ANY_XERO)]
            }
            Action::UnApprove => vec![g(ALL_TYPES, &[Approved], &[false], &[Unsent, Fail])],
            Action::Close => vec![g(&[1, 2, 3, 4, 5], &[Approved], &[false], ANY_XERO)],
            Action::SendXero => vec![g(
                &[1, 2, 4, 5],
                &[Approved, Closed],
                ANY_CLOSED,
                &[Unsent, Fail],
            )],
            Action::XeroRecall => vec![g(&[1, 2, 4, 5], ANY_STATUS, ANY_CLOSED, &[Sent])],
            Action::Print | Action::ManualMark => vec![
                g(&[1, 2], &[Approved, Closed], ANY_CLOSED, ANY_XERO),
                g(&[2], &[Draft], ANY_CLOSED, ANY_XERO),
            ],
            Action::EditDate => vec![g(
                ALL_TYPES,
                &[Draft, Approved, Closed],
                ANY_CLOSED,
                ANY_XERO,
            )],
            Action::EditAddress => {
                vec![g(&[1, 2], &[Draft, Approved, Closed], ANY_CLOSED, ANY_XERO)]
            }
            Action::EditDriver | Action::EditDelivery => {
                vec![g(&[1, 2], &[Approved, Closed], ANY_CLOSED, ANY_XERO)]
            }
            Action::SeeHistory => vec![g(ALL_TYPES, ANY_STATUS, ANY_CLOSED, ANY_XERO)],
            Action::Clone => vec![g(&[1, 2, 3, 4, 5], ANY_STATUS, ANY_CLOSED, ANY_XERO)],
        }
    }

    fn every_state() -> Vec<SheetState> {
        let mut states = Vec::new();
        for order_type in OrderType::ALL {
            for status in ANY_STATUS {
                for closed in ANY_CLOSED {
                    for xero in ANY_XERO {
                        states.push(SheetState {
                            order_type: *order_type,
                            status: *status,
                            closed: *closed,
                            xero: *xero,
                        });
                    }
                }
            }
        }
        states
    }

    #[test]
    fn while_a_send_or_recall_is_under_way_neither_xero_action_nor_unapprove_is_offered() {
        for xero in [Sending, Recalling] {
            let s = SheetState { order_type: OrderType::Invoice, status: Approved, closed: false, xero };
            for a in [Action::SendXero, Action::XeroRecall, Action::UnApprove] {
                assert!(!allowed(a, &s), "{a:?} while {xero:?}");
            }
            assert!(allowed(Action::Print, &s), "printing does not wait for Xero");
        }
    }

    #[test]
    fn every_action_in_every_state_matches_the_rule_table() {
        let states = every_state();
        assert_eq!(states.len(), 7 * 4 * 2 * 5);
        let mut checked = 0;
        for action in Action::ALL {
            let grants = grants(*action);
            for state in &states {
                let expected = grants.iter().any(|g| {
                    g.types.contains(&state.order_type.as_i32())
                        && g.statuses.contains(&state.status)
                        && g.closed.contains(&state.closed)
                        && g.xero.contains(&state.xero)
                });
                assert_eq!(allowed(*action, state), expected, "{action:?} on {state:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 15 * 280);
    }

    fn sheet(order_type: OrderType, status: OrderStatus) -> SheetState {
        SheetState {
            order_type,
            status,
            closed: false,
            xero: Unsent,
        }
    }

    #[test]
    fn a_draft_invoice_offers_approve_void_and_edits_but_not_print() {
        let actions = available_actions(&sheet(OrderType::Invoice, Draft));
        assert_eq!(
            actions,
            vec![
                Action::Void,
                Action::EditContent,
                Action::EditDate,
                Action::EditAddress,
                Action::SeeHistory,
                Action::Approve,
                Action::Clone
            ]
        );
    }

    #[test]
    fn an_approved_unsent_invoice() {
        let actions = available_actions(&sheet(OrderType::Invoice, Approved));
        assert_eq!(
            actions,
            vec![
                Action::SendXero,
                Action::Print,
                Action::ManualMark,
                Action::EditDate,
                Action::EditAddress,
                Action::EditDriver,
                Action::EditDelivery,
                Action::SeeHistory,
                Action::UnApprove,
                Action::Close,
                Action::Clone
            ]
        );
    }

    #[test]
    fn a_sent_invoice_must_be_recalled_before_unapproving() {
        let mut state = sheet(OrderType::Invoice, Approved);
        state.xero = Sent;
        assert!(!allowed(Action::UnApprove, &state));
        assert!(!allowed(Action::SendXero, &state));
        assert!(allowed(Action::XeroRecall, &state));
        state.xero = Unsent;
        assert!(allowed(Action::UnApprove, &state));
    }

    #[test]
    fn a_failed_send_can_be_retried_and_does_not_block_unapprove() {
        let mut state = sheet(OrderType::Bill, Approved);
        state.xero = Fail;
        assert!(allowed(Action::SendXero, &state));
        assert!(allowed(Action::UnApprove, &state));
        assert!(!allowed(Action::XeroRecall, &state));
    }

    #[test]
    fn closing_blocks_unapprove_and_a_second_close_but_not_sending() {
        let mut state = sheet(OrderType::PurchaseOrder, Approved);
        assert!(allowed(Action::Close, &state));
        state.closed = true;
        assert!(!allowed(Action::Close, &state));
        assert!(!allowed(Action::UnApprove, &state));
        let closed_bill = SheetState {
            order_type: OrderType::Bill,
            status: Closed,
            closed: false,
            xero: Unsent,
        };
        assert!(closed_bill.is_closed() && closed_bill.is_approved());
        assert!(allowed(Action::SendXero, &closed_bill));
        assert!(!allowed(Action::Close, &closed_bill));
    }

    #[test]
    fn purchase_orders_transfers_and_adjustments_never_reach_xero() {
        for t in [
            OrderType::PurchaseOrder,
            OrderType::Transfer,
            OrderType::Adjustment,
        ] {
            let mut state = sheet(t, Approved);
            assert!(!allowed(Action::SendXero, &state), "{t:?}");
            state.xero = Sent;
            assert!(!allowed(Action::XeroRecall, &state), "{t:?}");
        }
    }

    #[test]
    fn only_credit_notes_print_as_drafts() {
        assert!(allowed(Action::Print, &sheet(OrderType::CreditNote, Draft)));
        assert!(!allowed(Action::Print, &sheet(OrderType::Invoice, Draft)));
        assert!(!allowed(
            Action::Print,
            &sheet(OrderType::CreditNote, Voided)
        ));
        assert!(!allowed(Action::Print, &sheet(OrderType::Bill, Approved)));
    }

    #[test]
    fn a_voided_sheet_only_shows_history_and_clone() {
        for t in OrderType::ALL {
            let expected: Vec<Action> = if matches!(t, OrderType::Transfer | OrderType::Adjustment)
            {
                vec![Action::SeeHistory]
            } else {
                vec![Action::SeeHistory, Action::Clone]
            };
            assert_eq!(available_actions(&sheet(*t, Voided)), expected, "{t:?}");
        }
    }

    #[test]
    fn action_labels() {
        let labels: Vec<&str> = Action::ALL.iter().map(|a| a.label()).collect();
        assert_eq!(
            labels,
            [
                "SendXero",
                "XeroRecall",
                "Void",
                "Print",
                "Manual Mark",
                "Content",
                "Date",
                "Address",
                "Driver",
                "Delivery",
                "See History",
                "Approve",
                "UnApprove",
                "Close",
                "Clone"
            ]
        );
    }

    #[test]
    fn clone_targets_per_source_type() {
        use CloneOption::*;
        use OrderType::*;
        let table = [
            (
                Invoice,
                vec![
                    (InvoiceOrBill, Invoice),
                    (CreditNoteOrBillCreditNote, CreditNote),
                ],
            ),
            (
                CreditNote,
                vec![
                    (InvoiceOrBill, Invoice),
                    (CreditNoteOrBillCreditNote, CreditNote),
                ],
            ),
            (
                PurchaseOrder,
                vec![
                    (Order, PurchaseOrder),
                    (InvoiceOrBill, Bill),
                    (CreditNoteOrBillCreditNote, BillCreditNote),
                ],
            ),
            (
                Bill,
                vec![
                    (InvoiceOrBill, Bill),
                    (CreditNoteOrBillCreditNote, BillCreditNote),
                    (BillToInvoice, Invoice),
                ],
            ),
            (
                BillCreditNote,
                vec![
                    (InvoiceOrBill, Bill),
                    (CreditNoteOrBillCreditNote, BillCreditNote),
                ],
            ),
            (Transfer, vec![]),
            (Adjustment, vec![]),
        ];
        assert_eq!(table.len(), OrderType::ALL.len());
        for (source, targets) in table {
            assert_eq!(clone_targets(source), targets, "{source:?}");
            let state = sheet(source, Approved);
            assert_eq!(
                allowed(Action::Clone, &state),
                !clone_targets(source).is_empty()
            );
        }
    }

    #[test]
    fn clone_option_labels_and_operations() {
        use CloneOption::*;
        let table = [
            (Order, "Order", "clone"),
            (InvoiceOrBill, "Invoice or Bill", "clone"),
            (
                CreditNoteOrBillCreditNote,
                "Credit Note or Bill Credit Note",
                "clone",
            ),
            (BillToInvoice, "Bill -> Invoice", "cloneBillToInv"),
        ];
        for (option, label, operation) in table {
            assert_eq!(option.label(), label);
            assert_eq!(option.operation(), operation);
        }
    }
}
