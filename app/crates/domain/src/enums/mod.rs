//! The coded enumerations of the specification (§3) with their labels and the small rules tied to them.
//!
//! Every enumeration is stored and sent as its integer code; `from_i32` rejects codes the
//! specification does not define so a bad row or request never turns into a silent default.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A stored or submitted code that names no value of an enumeration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownCode {
    /// The enumeration that was asked, e.g. "OrderType".
    pub kind: &'static str,
    /// The code that matched nothing.
    pub code: i32,
}

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} code {}", self.kind, self.code)
    }
}

impl std::error::Error for UnknownCode {}

/// What every coded enumeration offers, so select boxes and filters can be built generically.
pub trait CodeEnum: Copy + Eq + 'static {
    /// Every value, in the order the interface lists them.
    const ALL: &'static [Self];
    /// The value stored under `code`, or `None` for an unknown code.
    fn from_code(code: i32) -> Option<Self>;
    /// The integer stored in the database and sent over the API.
    fn code(self) -> i32;
    /// The wording shown to staff.
    fn text(self) -> &'static str;
}

/// Declares a coded enumeration: variants with code and label, `ALL`, conversions, serde as the code.
macro_rules! code_enum {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $variant:ident = $code:literal, $label:literal; )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(into = "i32", try_from = "i32")]
        pub enum $name {
            $(
                #[doc = concat!("Code ", stringify!($code), ": ", $label, ".")]
                $variant,
            )+
        }

        impl $name {
            /// Every value, in the order the interface lists them.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];

            /// The value stored under `code`, or `None` when no value has that code.
            pub const fn from_i32(code: i32) -> Option<Self> {
                match code {
                    $($code => Some(Self::$variant),)+
                    _ => None,
                }
            }

            /// The integer stored in the database and sent over the API.
            pub const fn as_i32(self) -> i32 {
                match self {
                    $(Self::$variant => $code,)+
                }
            }

            /// The wording shown to staff.
            pub const fn label(self) -> &'static str {
                match self {
                    $(Self::$variant => $label,)+
                }
            }
        }

        impl CodeEnum for $name {
            const ALL: &'static [Self] = $name::ALL;
            fn from_code(code: i32) -> Option<Self> {
                Self::from_i32(code)
            }
            fn code(self) -> i32 {
                self.as_i32()
            }
            fn text(self) -> &'static str {
                self.label()
            }
        }

        impl From<$name> for i32 {
            fn from(value: $name) -> i32 {
                value.as_i32()
            }
        }

        impl TryFrom<i32> for $name {
            type Error = UnknownCode;
            fn try_from(code: i32) -> Result<Self, UnknownCode> {
                Self::from_i32(code).ok_or(UnknownCode { kind: stringify!($name), code })
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.label())
            }
        }
    };
}

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
    /// The master-data screens, numbered after the order types as in the original route mapping.
    BaseInfo {
        Product = 8, "Product";
        Customer = 9, "Customer";
        Supplier = 10, "Supplier";
        Warehouse = 11, "Warehouse";
        Brand = 12, "Brand";
        Employee = 13, "Employee";
    }
}

impl BaseInfo {
    /// The `{routeName}` of `/baseinfo/{routeName}` and of the list path.
    pub const fn route_name(self) -> &'static str {
        match self {
            Self::Product => "products",
            Self::Customer => "customers",
            Self::Supplier => "suppliers",
            Self::Warehouse => "warehouses",
            Self::Brand => "brands",
            Self::Employee => "employees",
        }
    }

    /// The screen named by a route segment; exact, lower-case match only.
    pub fn from_route_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.route_name() == name)
    }

    /// Whether the list offers '+ New' and a filter card (only products and customers do).
    pub const fn can_add(self) -> bool {
        matches!(self, Self::Product | Self::Customer)
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
    /// How goods reach the customer or come back; listed in the original's display order.
    ShipType {
        Delivery = 1, "Delivery";
        MorningDelivery = 6, "Morning Delivery";
        AfternoonDelivery = 7, "Afternoon Delivery";
        PickUp = 2, "Pick-up";
        FastDelivery = 3, "Fast Delivery";
        ThirdPartyLogistics = 8, "3rd-Party Logistics";
        DriverPickUp = 4, "Driver Pick-up";
        ReturnByCsr = 5, "Return by CSR";
    }
}

/// Which way goods move for a ship type; decides the delivery-status wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShipMovement {
    /// Goods go out to the customer (ship types 1, 3, 6, 7, 8).
    Deliver,
    /// Goods are collected (ship types 2, 4).
    PickUp,
    /// Goods come back from the customer (ship type 5).
    Return,
}

impl ShipType {
    /// Which way the goods move.
    pub const fn movement(self) -> ShipMovement {
        match self {
            Self::Delivery
            | Self::MorningDelivery
            | Self::AfternoonDelivery
            | Self::FastDelivery
            | Self::ThirdPartyLogistics => ShipMovement::Deliver,
            Self::PickUp | Self::DriverPickUp => ShipMovement::PickUp,
            Self::ReturnByCsr => ShipMovement::Return,
        }
    }

    /// The ship type a new sheet starts with: credit notes Driver Pick-up (spec §2.5), else the customer's default, else Delivery.
    pub const fn default_for(
        order_type: OrderType,
        customer_default: Option<DefaultShipType>,
    ) -> Self {
        match (order_type, customer_default) {
            (OrderType::CreditNote, _) => Self::DriverPickUp,
            (_, Some(default)) => default.ship_type(),
            (_, None) => Self::Delivery,
        }
    }
}

/// Shown in the delivery column when no driver is assigned.
pub const DRIVER_NOT_ASSIGNED: &str = "not assigned";

code_enum! {
    /// Where a shipped sheet is in its delivery; `label` is the generic wording of the filter.
    DeliveryStatus {
        Preparing = 0, "Preparing";
        Ready = 1, "Ready";
        Delivering = 2, "Delivering";
        Finished = 3, "Finished";
        Cancelled = 99, "Cancelled";
    }
}

impl DeliveryStatus {
    /// The wording on an order row, which depends on the ship type (spec §4).
    pub const fn wording(self, ship_type: ShipType) -> &'static str {
        let movement = ship_type.movement();
        match self {
            Self::Preparing => "Preparing",
            Self::Ready => match ship_type {
                ShipType::DriverPickUp | ShipType::ReturnByCsr => "Confirmed",
                _ => "Ready",
            },
            Self::Delivering => match movement {
                ShipMovement::Deliver => "Delivering",
                ShipMovement::PickUp => "Picking-up",
                ShipMovement::Return => "Returning",
            },
            Self::Finished => match movement {
                ShipMovement::Deliver => "Delivered",
                ShipMovement::PickUp => "Picked up",
                ShipMovement::Return => "Returned",
            },
            Self::Cancelled => "Cancelled",
        }
    }
}

code_enum! {
    /// How the customer actually paid for a sheet.
    ActualPayType {
        Unpaid = 0, "Unpaid";
        Cash = 1, "Cash";
        Cheque = 2, "Cheque";
        Eft = 3, "EFT";
        Pos = 4, "POS";
        Transfer = 5, "Transfer";
        AccountPeriod = 6, "Account Period";
        PartialPaid = 7, "Partial Paid";
    }
}

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

code_enum! {
    /// The price a customer pays by default; codes 1–7 follow the specification's listing order.
    PriceStrategy {
        ClassA = 1, "Class A/COD";
        ClassB = 2, "Class B";
        ClassC = 3, "Class C";
        ClassD = 4, "Class D";
        ClassE = 5, "Class E";
        Ocop = 6, "OCOP/VIP";
        Standard = 7, "Standard";
    }
}

code_enum! {
    /// The kinds of stored product price rows (spec §3); codes follow the listing order.
    ProductPriceType {
        Standard = 1, "Standard";
        Special = 2, "Special";
        ClassA = 3, "Class A";
        ClassB = 4, "Class B";
        Ocop = 5, "OCOP";
        CostPrice = 6, "Cost Price";
        CostUsd = 7, "Cost USD";
    }
}

code_enum! {
    /// The customer's payment terms; the label is also the term the due date is computed from.
    PaymentType {
        CodChq = 1, "COD+CHQ";
        CodTransfer = 2, "COD+Transfer";
        CodEft = 3, "COD+EFT";
        CodPos = 4, "COD+POS";
        CodCash = 5, "COD+CASH";
        CodCard = 6, "COD+Card";
        Cod = 7, "COD";
        MustCod = 8, "MUST COD";
        Chq = 9, "CHQ";
        Cbd = 10, "CBD";
        CardDeduction = 11, "Card Deduction";
        Weekly = 12, "Weekly";
        Fortnightly = 13, "Fortnightly";
        Monthly = 14, "Monthly";
        ThirtyDays = 15, "30-Days";
        TransferThemselves = 16, "Transfer Themselves";
        Other = 17, "Other";
    }
}

impl PaymentType {
    /// Cash Before Delivery: triggers reason (c) of the approval guard.
    pub const fn is_cbd(self) -> bool {
        matches!(self, Self::Cbd)
    }
}

code_enum! {
    /// The customer's kind of business; "Car saler" is the specification's wording, kept as staff know it.
    BusinessType {
        Retailer = 1, "Retailer";
        Wholesaler = 2, "Wholesaler";
        AffiliateClient = 3, "Affiliate Client";
        EnterpriseClient = 4, "Enterprise Client";
        CashBuyer = 5, "Cash Buyer";
        CarSaler = 6, "Car saler";
        EndUser = 7, "End User";
    }
}

code_enum! {
    /// The delivery area of a customer.
    AreaType {
        North = 1, "North";
        South = 2, "South";
        East = 3, "East";
        West = 4, "West";
        Surrounding = 5, "Surrounding";
        Regional = 6, "Regional";
    }
}

code_enum! {
    /// A customer's usual ship type; codes equal the matching `ShipType` codes.
    DefaultShipType {
        Delivery = 1, "Delivery";
        PickUp = 2, "Pick up";
    }
}

impl DefaultShipType {
    /// The ship type a new invoice for this customer starts with.
    pub const fn ship_type(self) -> ShipType {
        match self {
            Self::Delivery => ShipType::Delivery,
            Self::PickUp => ShipType::PickUp,
        }
    }
}

code_enum! {
    /// The wheel material of a product.
    Material {
        NotApplicable = 1, "N/A";
        Alloy = 2, "Alloy";
        Steel = 3, "Steel";
    }
}

code_enum! {
    /// Whether a product is stocked goods or a service line (the product's `category` field).
    ProductKind {
        Physical = 1, "Physical";
        Virtual = 4, "Virtual";
    }
}

impl Default for ProductKind {
    /// New products default to physical (spec §5).
    fn default() -> Self {
        Self::Physical
    }
}

code_enum! {
    /// The product category tree; a child's code is its parent's code × 10 + its position.
    ProductCategory {
        Batteries = 1, "Batteries";
        BatteriesAgm = 11, "AGM";
        BatteriesSmf = 12, "SMF";
        Autoparts = 2, "Autoparts";
        PcrTyres = 3, "PCR tyres";
        TbrTyres = 4, "TBR tyres";
        Wheels = 5, "Wheels";
        WheelsAlloy = 51, "Alloy";
        WheelsSteel = 52, "Steel";
        TrailerTyresAndWheel = 6, "Trailer tyres & Wheel";
    }
}

impl ProductCategory {
    /// The category one level up, `None` at the top.
    pub const fn parent(self) -> Option<Self> {
        match self {
            Self::BatteriesAgm | Self::BatteriesSmf => Some(Self::Batteries),
            Self::WheelsAlloy | Self::WheelsSteel => Some(Self::Wheels),
            _ => None,
        }
    }

    /// The direct children, in list order.
    pub fn children(self) -> Vec<Self> {
        Self::ALL
            .iter()
            .copied()
            .filter(|c| c.parent() == Some(self))
            .collect()
    }

    /// The top-level categories, in list order.
    pub fn roots() -> Vec<Self> {
        Self::ALL
            .iter()
            .copied()
            .filter(|c| c.parent().is_none())
            .collect()
    }

    /// The full path stored in a product's tag1, e.g. "Wheels/Alloy".
    pub fn path(self) -> String {
        match self.parent() {
            Some(parent) => format!("{}/{}", parent.label(), self.label()),
            None => self.label().to_owned(),
        }
    }

    /// The category whose path is `path`, ignoring case and spaces around the '/'.
    pub fn from_path(path: &str) -> Option<Self> {
        let wanted: Vec<String> = path
            .split('/')
            .map(|part| part.trim().to_lowercase())
            .collect();
        Self::ALL.iter().copied().find(|c| {
            let own: Vec<String> = c.path().split('/').map(str::to_lowercase).collect();
            own == wanted
        })
    }

    /// Whether products here are tyres, where tyre-size search applies.
    pub const fn is_tyre(self) -> bool {
        matches!(
            self,
            Self::PcrTyres | Self::TbrTyres | Self::TrailerTyresAndWheel
        )
    }
}

code_enum! {
    /// The kind of an auto part; listed in the original's display order.
    AutoPartsType {
        Wheel = 1, "Wheel";
        Filter = 2, "Filter";
        Oil = 3, "Oil";
        Battery = 6, "Battery";
        Bumper = 4, "Bumper";
        Suspension = 5, "Suspension";
    }
}

code_enum! {
    /// A staff member's role in one company.
    Role {
        Business = 1, "Business staff";
        Sales = 2, "Sales staff";
        Service = 3, "Service staff";
        Approver = 4, "Approver";
        Warehouse = 5, "Warehouse staff";
        Driver = 6, "Driver";
    }
}

/// The refusal shown to warehouse staff (roles 5 and 6) at sign-in and on every page.
pub const WAREHOUSE_STAFF_REFUSAL: &str = "No access permission for warehouse staff.";

impl Role {
    /// Warehouse staff (roles 5 and 6).
    pub const fn is_warehouse_staff(self) -> bool {
        matches!(self, Self::Warehouse | Self::Driver)
    }

    /// Whether a membership with this role opens the app.
    pub const fn may_use_app(self) -> bool {
        !self.is_warehouse_staff()
    }

    /// Listed in the service/sales staff pickers (role above 1 and below 5).
    pub const fn is_staff_picker(self) -> bool {
        matches!(self, Self::Sales | Self::Service | Self::Approver)
    }

    /// Listed in the driver picker (role 6 only).
    pub const fn is_driver(self) -> bool {
        matches!(self, Self::Driver)
    }

    /// The approver, who confirms approval warnings and alone edits credit limit and attention.
    pub const fn is_approver(self) -> bool {
        matches!(self, Self::Approver)
    }
}

code_enum! {
    /// Whether a sheet, product or customer reached the accounting system; listed Unsent, Fail, SENT as in the filter.
    /// Sending and Recalling are a sheet's while its job is queued or running (docs/decisions/xero.md).
    XeroState {
        Unsent = 0, "Unsent";
        Fail = 2, "Fail";
        Sent = 1, "SENT";
        Sending = 3, "Sending…";
        Recalling = 4, "Recalling…";
    }
}

impl Default for XeroState {
    /// New records have not been sent.
    fn default() -> Self {
        Self::Unsent
    }
}

impl XeroState {
    /// In the accounting system (SENT); a refused recall leaves a sheet here.
    pub const fn is_sent(self) -> bool {
        matches!(self, Self::Sent)
    }

    /// The last send was refused (Fail).
    pub const fn is_failed(self) -> bool {
        matches!(self, Self::Fail)
    }

    /// A send job is queued or running.
    pub const fn is_sending(self) -> bool {
        matches!(self, Self::Sending)
    }

    /// A send or recall job is queued or running: the sheet's page waits for it.
    pub const fn is_pending(self) -> bool {
        matches!(self, Self::Sending | Self::Recalling)
    }
}

code_enum! {
    /// The quoting list's stock filter; codes 3–8 are the "No More Than" thresholds in ascending order.
    StockAvailability {
        InStockOnly = 1, "In Stock Only";
        OutOfStock = 2, "Out of Stock";
        AtMost5 = 3, "No More Than 5";
        AtMost8 = 4, "No More Than 8";
        AtMost10 = 5, "No More Than 10";
        AtMost15 = 6, "No More Than 15";
        AtMost20 = 7, "No More Than 20";
        AtMost25 = 8, "No More Than 25";
    }
}

impl StockAvailability {
    /// Inclusive (min, max) stock bounds for the query; "No More Than N" includes out-of-stock items.
    pub const fn bounds(self) -> (Option<i64>, Option<i64>) {
        match self {
            Self::InStockOnly => (Some(1), None),
            Self::OutOfStock => (None, Some(0)),
            Self::AtMost5 => (None, Some(5)),
            Self::AtMost8 => (None, Some(8)),
            Self::AtMost10 => (None, Some(10)),
            Self::AtMost15 => (None, Some(15)),
            Self::AtMost20 => (None, Some(20)),
            Self::AtMost25 => (None, Some(25)),
        }
    }

    /// Whether a product with `stock` units passes the filter.
    pub const fn matches(self, stock: i64) -> bool {
        let (min, max) = self.bounds();
        let above_min = match min {
            Some(min) => stock >= min,
            None => true,
        };
        let below_max = match max {
            Some(max) => stock <= max,
            None => true,
        };
        above_min && below_max
    }
}

/// The direction of a list sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortDirection {
    /// Smallest, oldest or lowest first.
    Asc,
    /// Largest, newest or highest first.
    Desc,
}

/// The ordering a Sort Type code stands for. Both sort lists number them alike: 0 is the
/// list's own order, then each of `keys` in turn, descending (odd code) then ascending.
const fn sort_order<K: Copy>(code: i32, keys: &[K]) -> Option<(K, SortDirection)> {
    if code < 1 {
        return None;
    }
    let key = (code as usize - 1) / 2;
    if key >= keys.len() {
        return None;
    }
    Some((keys[key], if code % 2 == 1 { SortDirection::Desc } else { SortDirection::Asc }))
}

/// The column a product list is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProductSortKey {
    /// The item code.
    Code,
    /// The creation date.
    Created,
    /// The last modification date.
    Modified,
}

code_enum! {
    /// The product list's Sort Type; numbering inferred from the listing order (spec §3).
    ProductSort {
        All = 0, "All";
        CodeDesc = 1, "Code High to Low";
        CodeAsc = 2, "Code Low to High";
        CreatedDesc = 3, "Create Date New to Old";
        CreatedAsc = 4, "Create Date Old to New";
        ModifiedDesc = 5, "Modify Date New to Old";
        ModifiedAsc = 6, "Modify Date Old to New";
    }
}

impl ProductSort {
    /// The explicit ordering, or `None` for "All" (the list's natural order).
    pub const fn order(self) -> Option<(ProductSortKey, SortDirection)> {
        sort_order(self.as_i32(), &[ProductSortKey::Code, ProductSortKey::Created, ProductSortKey::Modified])
    }
}

/// The column a sheet list is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderSortKey {
    /// The sheet number.
    Number,
    /// The total amount.
    Amount,
    /// The due date.
    DueDate,
}

code_enum! {
    /// The sheet list's Sort Type: 0 the default (newest first), then number, amount, due date, each descending then ascending.
    OrderSort {
        Default = 0, "Default";
        NumberDesc = 1, "Number High to Low";
        NumberAsc = 2, "Number Low to High";
        AmountDesc = 3, "Amount High to Low";
        AmountAsc = 4, "Amount Low to High";
        DueDateDesc = 5, "Due Date Late to Early";
        DueDateAsc = 6, "Due Date Early to Late";
    }
}

impl OrderSort {
    /// The explicit ordering, or `None` for the default (date, then number, newest first).
    pub const fn order(self) -> Option<(OrderSortKey, SortDirection)> {
        sort_order(self.as_i32(), &[OrderSortKey::Number, OrderSortKey::Amount, OrderSortKey::DueDate])
    }
}

/// 'Delivered · Dan Driver', or 'not assigned' without a driver (spec §4).
pub fn delivery_text(ship_type: i32, delivery_status: i32, driver: &str) -> String {
    let ship = ShipType::from_i32(ship_type).unwrap_or(ShipType::Delivery);
    let status = DeliveryStatus::from_i32(delivery_status).map(|d| d.wording(ship)).unwrap_or("");
    let driver = if driver.is_empty() { DRIVER_NOT_ASSIGNED } else { driver };
    format!("{status} · {driver}")
}

/// The label of a stored code, or nothing for a code the enum does not know.
pub fn code_label<T: Copy>(code: i32, from: fn(i32) -> Option<T>, label: fn(T) -> &'static str) -> String {
    from(code).map(label).unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Checks one enumeration against its expected (code, label) table, in `ALL` order.
    fn check_table<
        T: CodeEnum + fmt::Debug + fmt::Display + Serialize + serde::de::DeserializeOwned,
    >(
        expected: &[(i32, &str)],
    ) {
        let name = std::any::type_name::<T>();
        let got: Vec<(i32, &str)> = T::ALL.iter().map(|v| (v.code(), v.text())).collect();
        assert_eq!(got, expected, "{name}: codes and labels in list order");
        for &value in T::ALL {
            assert_eq!(
                T::from_code(value.code()),
                Some(value),
                "{name}: round trip {value:?}"
            );
            assert_eq!(
                value.to_string(),
                value.text(),
                "{name}: Display is the label"
            );
            let json = serde_json::to_string(&value).expect("serialize");
            assert_eq!(
                json,
                value.code().to_string(),
                "{name}: serialized as its code"
            );
            let back: T = serde_json::from_str(&json).expect("deserialize");
            assert_eq!(back, value);
        }
        let codes: HashSet<i32> = expected.iter().map(|(c, _)| *c).collect();
        assert_eq!(codes.len(), expected.len(), "{name}: codes unique");
        let labels: HashSet<&str> = expected.iter().map(|(_, l)| *l).collect();
        assert_eq!(labels.len(), expected.len(), "{name}: labels unique");
        for code in -3..=120 {
            if !codes.contains(&code) {
                assert_eq!(
                    T::from_code(code),
                    None,
                    "{name}: unknown code {code} rejected"
                );
                assert!(
                    serde_json::from_str::<T>(&code.to_string()).is_err(),
                    "{name}: serde rejects {code}"
                );
            }
        }
        for code in [i32::MIN, i32::MAX] {
            assert_eq!(T::from_code(code), None);
        }
    }

    #[test]
    fn every_enumeration_matches_the_specification_tables() {
        check_table::<OrderType>(&[
            (1, "Invoice"),
            (2, "Credit Note"),
            (3, "Purchase Order"),
            (4, "Bill"),
            (5, "Bill Credit Note"),
            (6, "Transfer"),
            (7, "Adjustment"),
        ]);
        check_table::<BaseInfo>(&[
            (8, "Product"),
            (9, "Customer"),
            (10, "Supplier"),
            (11, "Warehouse"),
            (12, "Brand"),
            (13, "Employee"),
        ]);
        check_table::<OrderStatus>(&[(1, "Draft"), (2, "Approved"), (3, "Voided"), (4, "Closed")]);
        check_table::<Tag>(&[
            (1, "Normal"),
            (2, "Adjustment"),
            (3, "Special Sale"),
            (4, "Giftware"),
            (5, "Outsourcing"),
        ]);
        check_table::<ShipType>(&[
            (1, "Delivery"),
            (6, "Morning Delivery"),
            (7, "Afternoon Delivery"),
            (2, "Pick-up"),
            (3, "Fast Delivery"),
            (8, "3rd-Party Logistics"),
            (4, "Driver Pick-up"),
            (5, "Return by CSR"),
        ]);
        check_table::<DeliveryStatus>(&[
            (0, "Preparing"),
            (1, "Ready"),
            (2, "Delivering"),
            (3, "Finished"),
            (99, "Cancelled"),
        ]);
        check_table::<ActualPayType>(&[
            (0, "Unpaid"),
            (1, "Cash"),
            (2, "Cheque"),
            (3, "EFT"),
            (4, "POS"),
            (5, "Transfer"),
            (6, "Account Period"),
            (7, "Partial Paid"),
        ]);
        check_table::<TaxType>(&[(1, "No Tax"), (2, "Tax Inclusive"), (3, "GST on Income")]);
        check_table::<DrafterType>(&[
            (0, "Admin"),
            (1, "Staff Service"),
            (2, "Staff Business"),
            (3, "Customer Self"),
        ]);
        check_table::<PriceStrategy>(&[
            (1, "Class A/COD"),
            (2, "Class B"),
            (3, "Class C"),
            (4, "Class D"),
            (5, "Class E"),
            (6, "OCOP/VIP"),
            (7, "Standard"),
        ]);
        check_table::<ProductPriceType>(&[
            (1, "Standard"),
            (2, "Special"),
            (3, "Class A"),
            (4, "Class B"),
            (5, "OCOP"),
            (6, "Cost Price"),
            (7, "Cost USD"),
        ]);
        check_table::<PaymentType>(&[
            (1, "COD+CHQ"),
            (2, "COD+Transfer"),
            (3, "COD+EFT"),
            (4, "COD+POS"),
            (5, "COD+CASH"),
            (6, "COD+Card"),
            (7, "COD"),
            (8, "MUST COD"),
            (9, "CHQ"),
            (10, "CBD"),
            (11, "Card Deduction"),
            (12, "Weekly"),
            (13, "Fortnightly"),
            (14, "Monthly"),
            (15, "30-Days"),
            (16, "Transfer Themselves"),
            (17, "Other"),
        ]);
        check_table::<BusinessType>(&[
            (1, "Retailer"),
            (2, "Wholesaler"),
            (3, "Affiliate Client"),
            (4, "Enterprise Client"),
            (5, "Cash Buyer"),
            (6, "Car saler"),
            (7, "End User"),
        ]);
        check_table::<AreaType>(&[
            (1, "North"),
            (2, "South"),
            (3, "East"),
            (4, "West"),
            (5, "Surrounding"),
            (6, "Regional"),
        ]);
        check_table::<DefaultShipType>(&[(1, "Delivery"), (2, "Pick up")]);
        check_table::<Material>(&[(1, "N/A"), (2, "Alloy"), (3, "Steel")]);
        check_table::<ProductKind>(&[(1, "Physical"), (4, "Virtual")]);
        check_table::<AutoPartsType>(&[
            (1, "Wheel"),
            (2, "Filter"),
            (3, "Oil"),
            (6, "Battery"),
            (4, "Bumper"),
            (5, "Suspension"),
        ]);
        check_table::<Role>(&[
            (1, "Business staff"),
            (2, "Sales staff"),
            (3, "Service staff"),
            (4, "Approver"),
            (5, "Warehouse staff"),
            (6, "Driver"),
        ]);
        check_table::<XeroState>(&[(0, "Unsent"), (2, "Fail"), (1, "SENT"), (3, "Sending…"), (4, "Recalling…")]);
        check_table::<StockAvailability>(&[
            (1, "In Stock Only"),
            (2, "Out of Stock"),
            (3, "No More Than 5"),
            (4, "No More Than 8"),
            (5, "No More Than 10"),
            (6, "No More Than 15"),
            (7, "No More Than 20"),
            (8, "No More Than 25"),
        ]);
        check_table::<ProductSort>(&[
            (0, "All"),
            (1, "Code High to Low"),
            (2, "Code Low to High"),
            (3, "Create Date New to Old"),
            (4, "Create Date Old to New"),
            (5, "Modify Date New to Old"),
            (6, "Modify Date Old to New"),
        ]);
        check_table::<OrderSort>(&[
            (0, "Default"),
            (1, "Number High to Low"),
            (2, "Number Low to High"),
            (3, "Amount High to Low"),
            (4, "Amount Low to High"),
            (5, "Due Date Late to Early"),
            (6, "Due Date Early to Late"),
        ]);
    }

    #[test]
    fn product_category_codes_and_paths() {
        check_table::<ProductCategory>(&[
            (1, "Batteries"),
            (11, "AGM"),
            (12, "SMF"),
            (2, "Autoparts"),
            (3, "PCR tyres"),
            (4, "TBR tyres"),
            (5, "Wheels"),
            (51, "Alloy"),
            (52, "Steel"),
            (6, "Trailer tyres & Wheel"),
        ]);
        let expected = [
            (1, "Batteries"),
            (11, "Batteries/AGM"),
            (12, "Batteries/SMF"),
            (2, "Autoparts"),
            (3, "PCR tyres"),
            (4, "TBR tyres"),
            (5, "Wheels"),
            (51, "Wheels/Alloy"),
            (52, "Wheels/Steel"),
            (6, "Trailer tyres & Wheel"),
        ];
        let got: Vec<(i32, String)> = ProductCategory::ALL
            .iter()
            .map(|c| (c.as_i32(), c.path()))
            .collect();
        let want: Vec<(i32, String)> = expected
            .iter()
            .map(|(c, p)| (*c, (*p).to_owned()))
            .collect();
        assert_eq!(got, want);
        for category in ProductCategory::ALL {
            assert_eq!(
                ProductCategory::from_i32(category.as_i32()),
                Some(*category)
            );
            assert_eq!(
                ProductCategory::from_path(&category.path()),
                Some(*category)
            );
            assert_eq!(
                ProductCategory::from_path(&category.path().to_uppercase()),
                Some(*category)
            );
        }
        for code in [0, 7, 10, 13, 50, 53, 99] {
            assert_eq!(ProductCategory::from_i32(code), None);
        }
        assert_eq!(
            ProductCategory::from_path("wheels / alloy"),
            Some(ProductCategory::WheelsAlloy)
        );
        assert_eq!(
            ProductCategory::from_path("Alloy"),
            None,
            "a child is found only by its full path"
        );
        assert_eq!(ProductCategory::from_path("Wheels/Chrome"), None);
        assert_eq!(ProductCategory::from_path(""), None);
        assert_eq!(
            ProductCategory::roots(),
            vec![
                ProductCategory::Batteries,
                ProductCategory::Autoparts,
                ProductCategory::PcrTyres,
                ProductCategory::TbrTyres,
                ProductCategory::Wheels,
                ProductCategory::TrailerTyresAndWheel
            ]
        );
        assert_eq!(
            ProductCategory::Batteries.children(),
            vec![ProductCategory::BatteriesAgm, ProductCategory::BatteriesSmf]
        );
        assert_eq!(
            ProductCategory::Wheels.children(),
            vec![ProductCategory::WheelsAlloy, ProductCategory::WheelsSteel]
        );
        assert!(ProductCategory::PcrTyres.children().is_empty());
        for category in ProductCategory::ALL {
            if let Some(parent) = category.parent() {
                assert_eq!(
                    category.as_i32() / 10,
                    parent.as_i32(),
                    "child code encodes its parent"
                );
                assert!(parent.parent().is_none(), "the tree is two levels deep");
            }
        }
        let tyres: Vec<_> = ProductCategory::ALL
            .iter()
            .copied()
            .filter(|c| c.is_tyre())
            .collect();
        assert_eq!(
            tyres,
            vec![
                ProductCategory::PcrTyres,
                ProductCategory::TbrTyres,
                ProductCategory::TrailerTyresAndWheel
            ]
        );
    }

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
    fn base_info_routes() {
        let table = [
            (BaseInfo::Product, "products", true),
            (BaseInfo::Customer, "customers", true),
            (BaseInfo::Supplier, "suppliers", false),
            (BaseInfo::Warehouse, "warehouses", false),
            (BaseInfo::Brand, "brands", false),
            (BaseInfo::Employee, "employees", false),
        ];
        assert_eq!(table.len(), BaseInfo::ALL.len());
        for (b, route, can_add) in table {
            assert_eq!(b.route_name(), route);
            assert_eq!(BaseInfo::from_route_name(route), Some(b));
            assert_eq!(b.can_add(), can_add);
            assert_eq!(OrderType::from_route_name(route), None);
        }
        assert_eq!(BaseInfo::from_route_name("invoices"), None);
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
    fn ship_type_movement_and_defaults() {
        use ShipMovement::*;
        let table = [
            (ShipType::Delivery, Deliver),
            (ShipType::MorningDelivery, Deliver),
            (ShipType::AfternoonDelivery, Deliver),
            (ShipType::PickUp, PickUp),
            (ShipType::FastDelivery, Deliver),
            (ShipType::ThirdPartyLogistics, Deliver),
            (ShipType::DriverPickUp, PickUp),
            (ShipType::ReturnByCsr, Return),
        ];
        assert_eq!(table.len(), ShipType::ALL.len());
        for (ship, movement) in table {
            assert_eq!(ship.movement(), movement, "{ship:?}");
        }
        for t in OrderType::ALL {
            let expected_none = if *t == OrderType::CreditNote {
                ShipType::DriverPickUp
            } else {
                ShipType::Delivery
            };
            assert_eq!(ShipType::default_for(*t, None), expected_none);
            let expected_pick = if *t == OrderType::CreditNote {
                ShipType::DriverPickUp
            } else {
                ShipType::PickUp
            };
            assert_eq!(
                ShipType::default_for(*t, Some(DefaultShipType::PickUp)),
                expected_pick
            );
        }
        for d in DefaultShipType::ALL {
            assert_eq!(
                d.ship_type().as_i32(),
                d.as_i32(),
                "default ship type codes match ship type codes"
            );
        }
    }

    #[test]
    fn delivery_status_wording_for_every_ship_type() {
        // Rows follow ShipType::ALL: 1, 6, 7, 2, 3, 8, 4, 5.
        let table: [(DeliveryStatus, [&str; 8]); 5] = [
            (DeliveryStatus::Preparing, ["Preparing"; 8]),
            (
                DeliveryStatus::Ready,
                [
                    "Ready",
                    "Ready",
                    "Ready",
                    "Ready",
                    "Ready",
                    "Ready",
                    "Confirmed",
                    "Confirmed",
                ],
            ),
            (
                DeliveryStatus::Delivering,
                [
                    "Delivering",
                    "Delivering",
                    "Delivering",
                    "Picking-up",
                    "Delivering",
                    "Delivering",
                    "Picking-up",
                    "Returning",
                ],
            ),
            (
                DeliveryStatus::Finished,
                [
                    "Delivered",
                    "Delivered",
                    "Delivered",
                    "Picked up",
                    "Delivered",
                    "Delivered",
                    "Picked up",
                    "Returned",
                ],
            ),
            (DeliveryStatus::Cancelled, ["Cancelled"; 8]),
        ];
        assert_eq!(table.len(), DeliveryStatus::ALL.len());
        for (status, words) in table {
            for (ship, word) in ShipType::ALL.iter().zip(words) {
                assert_eq!(status.wording(*ship), word, "{status:?} with {ship:?}");
            }
        }
        assert_eq!(DRIVER_NOT_ASSIGNED, "not assigned");
    }

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

    #[test]
    fn xero_codes_read_as_sent_failed_or_pending() {
        let state = |code| XeroState::from_i32(code).unwrap();
        let table = [(0, false, false, false, false), (1, true, false, false, false), (2, false, true, false, false), (3, false, false, true, true), (4, false, false, false, true)];
        for (code, sent, failed, sending, pending) in table {
            assert_eq!(state(code).is_sent(), sent, "{code}");
            assert_eq!(state(code).is_failed(), failed, "{code}");
            assert_eq!(state(code).is_sending(), sending, "{code}");
            assert_eq!(state(code).is_pending(), pending, "{code}");
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

    #[test]
    fn only_cbd_is_cash_before_delivery() {
        for p in PaymentType::ALL {
            assert_eq!(p.is_cbd(), p.label() == "CBD", "{p:?}");
        }
    }

    #[test]
    fn role_permissions() {
        // (role, warehouse staff, may use app, staff picker, driver, approver)
        let table = [
            (Role::Business, false, true, false, false, false),
            (Role::Sales, false, true, true, false, false),
            (Role::Service, false, true, true, false, false),
            (Role::Approver, false, true, true, false, true),
            (Role::Warehouse, true, false, false, false, false),
            (Role::Driver, true, false, false, true, false),
        ];
        assert_eq!(table.len(), Role::ALL.len());
        for (role, warehouse, app, picker, driver, approver) in table {
            assert_eq!(role.is_warehouse_staff(), warehouse, "{role:?}");
            assert_eq!(role.may_use_app(), app, "{role:?}");
            assert_eq!(role.is_staff_picker(), picker, "{role:?}");
            assert_eq!(
                role.is_staff_picker(),
                role.as_i32() > 1 && role.as_i32() < 5
            );
            assert_eq!(role.is_driver(), driver, "{role:?}");
            assert_eq!(role.is_approver(), approver, "{role:?}");
        }
        assert_eq!(
            WAREHOUSE_STAFF_REFUSAL,
            "No access permission for warehouse staff."
        );
    }

    #[test]
    fn xero_state_defaults_to_unsent() {
        assert_eq!(XeroState::default(), XeroState::Unsent);
    }

    #[test]
    fn stock_availability_filters_stock_levels() {
        // stock levels probed: -2, 0, 1, 5, 6, 8, 9, 10, 11, 15, 16, 20, 21, 25, 26, 1000
        let stocks = [-2, 0, 1, 5, 6, 8, 9, 10, 11, 15, 16, 20, 21, 25, 26, 1000];
        type Passes = fn(i64) -> bool;
        let table: [(StockAvailability, Passes); 8] = [
            (StockAvailability::InStockOnly, |s| s > 0),
            (StockAvailability::OutOfStock, |s| s <= 0),
            (StockAvailability::AtMost5, |s| s <= 5),
            (StockAvailability::AtMost8, |s| s <= 8),
            (StockAvailability::AtMost10, |s| s <= 10),
            (StockAvailability::AtMost15, |s| s <= 15),
            (StockAvailability::AtMost20, |s| s <= 20),
            (StockAvailability::AtMost25, |s| s <= 25),
        ];
        assert_eq!(table.len(), StockAvailability::ALL.len());
        for (filter, expected) in table {
            for stock in stocks {
                assert_eq!(
                    filter.matches(stock),
                    expected(stock),
                    "{filter:?} at {stock}"
                );
            }
        }
        assert_eq!(StockAvailability::InStockOnly.bounds(), (Some(1), None));
        assert_eq!(StockAvailability::OutOfStock.bounds(), (None, Some(0)));
        assert_eq!(StockAvailability::AtMost25.bounds(), (None, Some(25)));
    }

    #[test]
    fn sort_orders() {
        use SortDirection::*;
        let products = [
            (ProductSort::All, None),
            (ProductSort::CodeDesc, Some((ProductSortKey::Code, Desc))),
            (ProductSort::CodeAsc, Some((ProductSortKey::Code, Asc))),
            (
                ProductSort::CreatedDesc,
                Some((ProductSortKey::Created, Desc)),
            ),
            (
                ProductSort::CreatedAsc,
                Some((ProductSortKey::Created, Asc)),
            ),
            (
                ProductSort::ModifiedDesc,
                Some((ProductSortKey::Modified, Desc)),
            ),
            (
                ProductSort::ModifiedAsc,
                Some((ProductSortKey::Modified, Asc)),
            ),
        ];
        assert_eq!(products.len(), ProductSort::ALL.len());
        for (sort, order) in products {
            assert_eq!(sort.order(), order, "{sort:?}");
        }
        let orders = [
            (OrderSort::Default, None),
            (OrderSort::NumberDesc, Some((OrderSortKey::Number, Desc))),
            (OrderSort::NumberAsc, Some((OrderSortKey::Number, Asc))),
            (OrderSort::AmountDesc, Some((OrderSortKey::Amount, Desc))),
            (OrderSort::AmountAsc, Some((OrderSortKey::Amount, Asc))),
            (OrderSort::DueDateDesc, Some((OrderSortKey::DueDate, Desc))),
            (OrderSort::DueDateAsc, Some((OrderSortKey::DueDate, Asc))),
        ];
        assert_eq!(orders.len(), OrderSort::ALL.len());
        for (sort, order) in orders {
            assert_eq!(sort.order(), order, "{sort:?}");
        }
    }

    #[test]
    fn unknown_code_error_names_the_enumeration() {
        let err = OrderType::try_from(9).expect_err("9 is not an order type");
        assert_eq!(
            err,
            UnknownCode {
                kind: "OrderType",
                code: 9
            }
        );
        assert_eq!(err.to_string(), "unknown OrderType code 9");
        assert_eq!(Role::try_from(4), Ok(Role::Approver));
        assert_eq!(i32::from(ShipType::ThirdPartyLogistics), 8);
    }
}
