//! How a sheet's amounts carry GST.

use super::OrderType;

code_enum! {
    /// How a sheet's amounts carry GST.
    TaxType {
        NoTax = 1, "No Tax";
        TaxInclusive = 2, "Tax Inclusive";
        GstOnIncome = 3, "GST on Income";
    }
}

impl Default for TaxType {
    /// Invoices default to GST on Income (spec §9); the other taxable types follow the same default.
    fn default() -> Self {
        Self::GstOnIncome
    }
}

impl TaxType {
    /// The tax type a new sheet starts with: the default (GST on Income) on taxable types,
    /// No Tax on transfers and adjustments, which carry none.
    pub fn default_for(order_type: OrderType) -> Self {
        if order_type.has_tax() { Self::default() } else { Self::NoTax }
    }

    /// Whether amounts include 10% GST (tax types 2 and 3).
    pub const fn charges_gst(self) -> bool {
        matches!(self, Self::TaxInclusive | Self::GstOnIncome)
    }

    /// The label beside Total Tax in the line footer.
    pub const fn footer_label(self) -> &'static str {
        if self.charges_gst() {
            "(GST 10%)"
        } else {
            "(No Tax)"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tax_type_default_gst_and_footer_label() {
        assert_eq!(TaxType::default(), TaxType::GstOnIncome);
        assert!(!TaxType::NoTax.charges_gst());
        assert!(TaxType::TaxInclusive.charges_gst());
        assert!(TaxType::GstOnIncome.charges_gst());
        assert_eq!(TaxType::NoTax.footer_label(), "(No Tax)");
        assert_eq!(TaxType::TaxInclusive.footer_label(), "(GST 10%)");
        assert_eq!(TaxType::GstOnIncome.footer_label(), "(GST 10%)");
    }

    #[test]
    fn new_sheets_are_taxed_gst_on_income_unless_their_type_carries_no_tax() {
        for t in [OrderType::Invoice, OrderType::CreditNote, OrderType::PurchaseOrder, OrderType::Bill, OrderType::BillCreditNote] {
            assert_eq!(TaxType::default_for(t), TaxType::GstOnIncome, "{t:?}");
        }
        assert_eq!(TaxType::default_for(OrderType::Transfer), TaxType::NoTax);
        assert_eq!(TaxType::default_for(OrderType::Adjustment), TaxType::NoTax);
    }
}
