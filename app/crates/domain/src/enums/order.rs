//! Sheets: their types, numbers, statuses, tags and drafters, and the print and closure wording.

code_enum! {
    /// The kind of sheet.
    OrderType {
        Invoice = 1, "Invoice";
        CreditNote = 2, "Credit Note";
        PurchaseOrder = 3, "Purchase Order";
        Bill = 4, "Bill";
        BillCreditNote = 5, "Bill Credit Note";
        Transfer = 6, "Transfer";
        Adjustment = 7, "Adjustment";
    }
}

/// Formats a sheet number such as `INV-000001`; sequences beyond six digits are never truncated.
pub fn format_number(prefix: &str, seq: i64) -> String {
    format!("{prefix}-{seq:06}")
}

impl OrderType {
    /// The `{routeName}` used in `/order_add`, `/order_edit`, `/order_detail` and the list path.
    pub const fn route_name(self) -> &'static str {
        match self {
            Self::Invoice => "invoices",
            Self::CreditNote => "credit_notes",
            Self::PurchaseOrder => "purchase_orders",
            Self::Bill => "bills",
            Self::BillCreditNote => "bill_credit_notes",
            Self::Transfer => "transfers",
            Self::Adjustment => "adjustments",
        }
    }

    /// The type named by a route segment; exact, lower-case match only.
    pub fn from_route_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.route_name() == name)
    }

    /// The page title of the type's list screen (spec §2.1).
    pub const fn list_title(self) -> &'static str {
        match self {
            Self::Invoice => "Invoices",
            Self::CreditNote => "Credit Notes",
            Self::PurchaseOrder => "Purchase Orders",
            Self::Bill => "Bills",
            Self::BillCreditNote => "Bill Credit Notes",
            Self::Transfer => "Transfers",
            Self::Adjustment => "Adjustments",
        }
    }

    /// The prefix of the type's sheet numbers (DESIGN §4).
    pub const fn number_prefix(self) -> &'static str {
        match self {
            Self::Invoice => "INV",
            Self::CreditNote => "CN",
            Self::PurchaseOrder => "PO",
            Self::Bill => "BILL",
            Self::BillCreditNote => "BCN",
            Self::Transfer => "TR",
            Self::Adjustment => "ADJ",
        }
    }

    /// The sheet number for the `seq`-th sheet of this type, e.g. `BILL-000042`.
    pub fn format_number(self, seq: i64) -> String {
        format_number(self.number_prefix(), seq)
    }

    /// Invoices and credit notes: customer-facing sheets that ship, print and carry a driver.
    pub const fn is_sales(self) -> bool {
        matches!(self, Self::Invoice | Self::CreditNote)
    }

    /// Purchase orders, bills and bill credit notes.
    pub const fn is_purchase(self) -> bool {
        matches!(
            self,
            Self::PurchaseOrder | Self::Bill | Self::BillCreditNote
        )
    }

    /// Whether the sheet carries a tax type and a GST total (every type but transfers and adjustments).
    pub const fn has_tax(self) -> bool {
        self.is_sales() || self.is_purchase()
    }

    /// Whether an approved sheet of this type can be closed (DESIGN §5: types 1–5).
    pub const fn is_closable(self) -> bool {
        self.has_tax()
    }

    /// Whether the sheet is sent to the accounting system (types 1, 2, 4, 5).
    pub const fn syncs_to_xero(self) -> bool {
        matches!(
            self,
            Self::Invoice | Self::CreditNote | Self::Bill | Self::BillCreditNote
        )
    }

    /// Rows per list page on first load (spec §9: invoices 150, credit notes 100, others 20).
    pub const fn default_page_size(self) -> u32 {
        match self {
            Self::Invoice => 150,
            Self::CreditNote => 100,
            _ => 20,
        }
    }
}

code_enum! {
    /// The life-cycle status of a sheet.
    OrderStatus {
        Draft = 1, "Draft";
        Approved = 2, "Approved";
        Voided = 3, "Voided";
        Closed = 4, "Closed";
    }
}

impl OrderStatus {
    /// Whether the status is offered in the list's status filter (Closed is hidden, spec §3).
    pub const fn in_filter(self) -> bool {
        !matches!(self, Self::Closed)
    }
}

/// The print column wording: 'PRINT' once printed, otherwise 'UnPrint'.
pub const fn print_label(printed: bool) -> &'static str {
    if printed { "PRINT" } else { "UnPrint" }
}

/// The closure column wording of purchase orders.
pub const fn closure_label(closed: bool) -> &'static str {
    if closed { "Closed" } else { "Unclosed" }
}

code_enum! {
    /// The sheet tag (TAG field).
    Tag {
        Normal = 1, "Normal";
        Adjustment = 2, "Adjustment";
        SpecialSale = 3, "Special Sale";
        Giftware = 4, "Giftware";
        Outsourcing = 5, "Outsourcing";
    }
}

impl Tag {
    /// Whether the tag is offered on sheets of `order_type`.
    ///
    /// Outsourcing is hidden on the invoice form, which credit notes share, so it is hidden
    /// for both sales types; Special Sale and Giftware make no sense on purchases.
    pub const fn visible_for(self, order_type: OrderType) -> bool {
        match self {
            Self::Outsourcing => !order_type.is_sales(),
            Self::SpecialSale | Self::Giftware => !order_type.is_purchase(),
            Self::Normal | Self::Adjustment => true,
        }
    }

    /// The tags offered on sheets of `order_type`, in list order.
    pub fn options_for(order_type: OrderType) -> Vec<Self> {
        Self::ALL
            .iter()
            .copied()
            .filter(|t| t.visible_for(order_type))
            .collect()
    }
}

code_enum! {
    /// Who drafted a sheet; the list filter offers codes 1–3.
    DrafterType {
        Admin = 0, "Admin";
        StaffService = 1, "Staff Service";
        StaffBusiness = 2, "Staff Business";
        Customer = 3, "Customer Self";
    }
}

impl DrafterType {
    /// The values offered by the invoice list's Drafter Type filter.
    pub const FILTER: &'static [Self] = &[Self::StaffService, Self::StaffBusiness, Self::Customer];

    /// The drafter column wording for a stored code; unknown codes read 'System' as in the original.
    pub const fn label_for_code(code: i32) -> &'static str {
        match Self::from_i32(code) {
            Some(drafter) => drafter.label(),
            None => "System",
        }
    }

    /// Whether the sheet is a customer self-order awaiting staff.
    pub const fn is_self_order(self) -> bool {
        matches!(self, Self::Customer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_type_routes_prefixes_and_groups() {
        // (type, route, title, prefix, sales, purchase, tax, xero, page size)
        let table = [
            (
                OrderType::Invoice,
                "invoices",
                "Invoices",
                "INV",
                true,
                false,
                true,
                true,
                150,
            ),
            (
                OrderType::CreditNote,
                "credit_notes",
                "Credit Notes",
                "CN",
                true,
                false,
                true,
                true,
                100,
            ),
            (
                OrderType::PurchaseOrder,
                "purchase_orders",
                "Purchase Orders",
                "PO",
                false,
                true,
                true,
                false,
                20,
            ),
            (
                OrderType::Bill,
                "bills",
                "Bills",
                "BILL",
                false,
                true,
                true,
                true,
                20,
            ),
            (
                OrderType::BillCreditNote,
                "bill_credit_notes",
                "Bill Credit Notes",
                "BCN",
                false,
                true,
                true,
                true,
                20,
            ),
            (
                OrderType::Transfer,
                "transfers",
                "Transfers",
                "TR",
                false,
                false,
                false,
                false,
                20,
            ),
            (
                OrderType::Adjustment,
                "adjustments",
                "Adjustments",
                "ADJ",
                false,
                false,
                false,
                false,
                20,
            ),
        ];
        assert_eq!(table.len(), OrderType::ALL.len());
        for (t, route, title, prefix, sales, purchase, tax, xero, page) in table {
            assert_eq!(t.route_name(), route);
            assert_eq!(OrderType::from_route_name(route), Some(t));
            assert_eq!(t.list_title(), title);
            assert_eq!(t.number_prefix(), prefix);
            assert_eq!(t.is_sales(), sales, "{t:?}");
            assert_eq!(t.is_purchase(), purchase, "{t:?}");
            assert_eq!(t.has_tax(), tax, "{t:?}");
            assert_eq!(t.is_closable(), tax, "{t:?}: closure applies to types 1-5");
            assert_eq!(t.syncs_to_xero(), xero, "{t:?}");
            assert_eq!(t.default_page_size(), page);
            assert_eq!(t.format_number(1), format!("{prefix}-000001"));
        }
        for bad in [
            "Invoices",
            "invoice",
            "",
            "products",
            "credit-notes",
            " invoices",
        ] {
            assert_eq!(OrderType::from_route_name(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn sheet_numbers_are_zero_padded_to_six_digits() {
        assert_eq!(format_number("INV", 1), "INV-000001");
        assert_eq!(format_number("CN", 42), "CN-000042");
        assert_eq!(format_number("BILL", 999_999), "BILL-999999");
        assert_eq!(format_number("PO", 1_000_000), "PO-1000000");
        assert_eq!(format_number("ADJ", 0), "ADJ-000000");
        assert_eq!(OrderType::Transfer.format_number(123), "TR-000123");
    }

    #[test]
    fn closed_is_hidden_from_the_status_filter() {
        let shown: Vec<_> = OrderStatus::ALL
            .iter()
            .copied()
            .filter(|s| s.in_filter())
            .collect();
        assert_eq!(
            shown,
            vec![
                OrderStatus::Draft,
                OrderStatus::Approved,
                OrderStatus::Voided
            ]
        );
    }

    #[test]
    fn print_and_closure_wording() {
        assert_eq!(print_label(true), "PRINT");
        assert_eq!(print_label(false), "UnPrint");
        assert_eq!(closure_label(true), "Closed");
        assert_eq!(closure_label(false), "Unclosed");
    }

    #[test]
    fn tag_visibility_per_order_type() {
        use Tag::*;
        let all = vec![Normal, Adjustment, SpecialSale, Giftware, Outsourcing];
        let table = [
            (
                OrderType::Invoice,
                vec![Normal, Adjustment, SpecialSale, Giftware],
            ),
            (
                OrderType::CreditNote,
                vec![Normal, Adjustment, SpecialSale, Giftware],
            ),
            (
                OrderType::PurchaseOrder,
                vec![Normal, Adjustment, Outsourcing],
            ),
            (OrderType::Bill, vec![Normal, Adjustment, Outsourcing]),
            (
                OrderType::BillCreditNote,
                vec![Normal, Adjustment, Outsourcing],
            ),
            (OrderType::Transfer, all.clone()),
            (OrderType::Adjustment, all.clone()),
        ];
        assert_eq!(table.len(), OrderType::ALL.len());
        for (t, visible) in table {
            assert_eq!(Tag::options_for(t), visible, "{t:?}");
            for tag in Tag::ALL {
                assert_eq!(
                    tag.visible_for(t),
                    visible.contains(tag),
                    "{tag:?} on {t:?}"
                );
            }
        }
    }

    #[test]
    fn drafter_labels_and_unknown_codes_read_system() {
        assert_eq!(DrafterType::label_for_code(0), "Admin");
        assert_eq!(DrafterType::label_for_code(1), "Staff Service");
        assert_eq!(DrafterType::label_for_code(2), "Staff Business");
        assert_eq!(DrafterType::label_for_code(3), "Customer Self");
        for code in [-1, 4, 9, 99] {
            assert_eq!(DrafterType::label_for_code(code), "System");
        }
        let filter: Vec<&str> = DrafterType::FILTER.iter().map(|d| d.label()).collect();
        assert_eq!(filter, ["Staff Service", "Staff Business", "Customer Self"]);
        let self_orders: Vec<_> = DrafterType::ALL
            .iter()
            .filter(|d| d.is_self_order())
            .collect();
        assert_eq!(self_orders, [&DrafterType::Customer]);
    }
}
