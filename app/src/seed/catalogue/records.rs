//! The generated records the catalogue hands out: brands, warehouses, products, customers,
//! suppliers and people.

/// A product brand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenBrand {
    /// Display name, e.g. "Michelin".
    pub name: String,
    /// Whether customers see the brand in the self-service shop.
    pub presented_to_csr: bool,
}

/// A stock location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenWarehouse {
    /// Short code, e.g. "TEM".
    pub code: String,
    /// Display name.
    pub name: String,
    /// Street address.
    pub address: String,
    /// Whether its stock counts for customer self-service orders (false for the third-party store).
    pub is_calc_for_csr_order: bool,
}

/// A generated product (tyre, wheel, battery, part or service line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenProduct {
    /// Unique product code.
    pub code: String,
    /// The manufacturer's or supplier's own article number (may be empty).
    pub origin_code: String,
    /// Search helper: the size digits for tyres ("2055516").
    pub helper_code: String,
    /// Unique display name, at most 50 characters.
    pub name: String,
    /// Unit of sale: "EA" or "L".
    pub unit: String,
    /// Category path, one of the eight fixed categories.
    pub category_path: &'static str,
    /// Brand name as in [`brands`](super::brands) (empty for unbranded goods).
    pub brand: String,
    /// Manufacturer or brand owner.
    pub manufacturer: String,
    /// Auto-parts type: 1 Wheel, 2 Filter, 3 Oil, 4 Bumper, 5 Suspension, 6 Battery.
    pub auto_parts_type: Option<i32>,
    /// Season or position tag: Summer, All Season, HT, AT, MT, Drive, Steer, Trailer …
    pub tag2: String,
    /// Tier tag: Premium, Mid or Budget.
    pub tag3: String,
    /// Bin locations such as "A12/B03", or "call".
    pub tag4: String,
    /// Service line without stock.
    pub is_virtual: bool,
    /// Listed in the customer shop.
    pub show_for_shop: bool,
    /// Wheel material: 1 N/A, 2 Alloy, 3 Steel.
    pub material: i32,
    /// Tyre pattern (model) name.
    pub tyre_model: Option<String>,
    /// Tyre profile (aspect ratio), e.g. "55".
    pub specification: Option<String>,
    /// Tyre rim diameter, e.g. "16" or "22.5".
    pub diameter: Option<String>,
    /// Tyre tread pattern name.
    pub patterns: Option<String>,
    /// Tyre section width, e.g. "205".
    pub width: Option<String>,
    /// Load index, e.g. "91" or "152/148".
    pub load_rate: Option<String>,
    /// Speed symbol, e.g. "V".
    pub speed_rate: Option<String>,
    /// Wheel rim diameter, e.g. "17".
    pub rim_diameter: Option<String>,
    /// Wheel rim width, e.g. "7.5".
    pub rim_width: Option<String>,
    /// Wheel offset in millimetres, e.g. "40".
    pub offset: Option<String>,
    /// Wheel centre bore in millimetres, e.g. "73.1".
    pub center_bore: Option<String>,
    /// Wheel bolt pattern, e.g. "5x114.3".
    pub bolt_pattern: Option<String>,
    /// Cost price in cents.
    pub cost_cents: i64,
    /// Standard sell price in cents (whole dollars).
    pub standard_cents: i64,
    /// Class A price in cents (whole dollars).
    pub class_a_cents: i64,
    /// Special price in cents, below class A; 0 when not on special.
    pub special_cents: i64,
    /// Whether the special price applies.
    pub is_special: bool,
    /// Reference purchase price in cents, near the cost.
    pub ref_pur_cents: i64,
    /// Clearance line.
    pub is_clearance: bool,
    /// Shown to customers.
    pub is_customer_show: bool,
}

/// A generated customer account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenCustomer {
    /// Unique trading name.
    pub name: String,
    /// Unique account code: mostly an 11-digit ABN, otherwise a 6-character code.
    pub code: String,
    /// Code in the previous system (may be empty).
    pub origin_code: String,
    /// Who to address documents to.
    pub attention: String,
    /// Primary contact first name.
    pub first: String,
    /// Primary contact last name.
    pub last: String,
    /// Landline.
    pub phone: String,
    /// Mobile.
    pub mobile: String,
    /// Plain ASCII e-mail address.
    pub email: String,
    /// Street address.
    pub address: String,
    /// Suburb or town.
    pub city: String,
    /// State, e.g. "NSW".
    pub state: String,
    /// Postcode.
    pub postal: String,
    /// Price strategy 1..=7: Class A/COD, B, C, D, E, OCOP/VIP, Standard.
    pub price_strategy: i32,
    /// Payment type 1..=17 (10 CBD, 12 Weekly, 13 Fortnightly, 14 Monthly, 15 30-Days).
    pub payment_type: i32,
    /// Area type 1..=6: North, South, East, West, Surrounding, Regional.
    pub area_type: i32,
    /// Business type 1..=7.
    pub business_type: i32,
    /// Default ship type: 1 Delivery, 2 Pick up.
    pub default_ship_type: i32,
    /// Credit limit in cents (0 for no credit).
    pub credit_limit_cents: i64,
    /// Balance owing in Xero, in cents.
    pub xero_balance_cents: i64,
    /// Free-text note.
    pub note: String,
    /// Website (may be empty).
    pub website: String,
}

/// A generated supplier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenSupplier {
    /// Unique supplier code.
    pub code: String,
    /// Unique supplier name.
    pub name: String,
    /// Contact first name.
    pub first: String,
    /// Contact last name.
    pub last: String,
}

/// A generated person (staff member or driver).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenPerson {
    /// First name, ASCII letters only.
    pub first: String,
    /// Last name, ASCII letters only.
    pub last: String,
}
