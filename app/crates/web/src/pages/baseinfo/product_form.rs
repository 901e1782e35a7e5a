//! The product form (spec §2.8): Basic, Category, Brands & Tags and the tyre/wheel Specs in
//! the general layout; on edit also the Xero tag and the prices, read-only.

use super::form::{Badge, CHOOSE, Field, FormView, Group, NONE, code_options, selected};
use db::masters::Brand;
use db::products::Product;
use domain::enums::{AutoPartsType, Material, ProductCategory, ProductKind};
use domain::masters::ProductInput;
use domain::money::Cents;
use domain::permissions::Sight;
use domain::price_tiers::{TierOverrides, TierUplifts, tier_prices};
use domain::validate::{PRODUCT_NAME_MAX, PRODUCT_NAME_TOO_LONG};
use crate::pages::products::xero_badge;

/// What the form shows besides the typed values.
pub struct ProductContext<'a> {
    pub brands: &'a [Brand],
    /// The stored product when editing.
    pub existing: Option<&'a Product>,
    /// The company's tier uplifts, for the read-only class prices.
    pub uplifts: TierUplifts,
    /// What the viewer may see: Cost and Tempe only with cost sight.
    pub sight: Sight,
    /// The company's suppliers (id, name), for the preferred supplier (issue 35).
    pub suppliers: &'a [(i64, String)],
}

/// The values of a new product form: physical, not shown for shop (spec §5 defaults).
pub fn new_input() -> ProductInput {
    ProductInput { kind: Some(ProductKind::default().as_i32()), show_for_shop: Some(false), ..ProductInput::default() }
}

/// The form's values from a stored product, as the edit page first shows them.
pub use services::masters::product_input as input_from;

fn category_options() -> Vec<(String, String)> {
    std::iter::once((String::new(), CHOOSE.to_string())).chain(ProductCategory::ALL.iter().map(|c| (c.path(), c.path()))).collect()
}

/// 'Tracked by DOT' (issue 36): a new product may leave it to the default (a physical tyre is
/// tracked); a stored one is tracked or not.
fn dot_options(editing: bool) -> Vec<(String, String)> {
    let auto = (!editing).then(|| (String::new(), "Yes for a physical tyre, else no".to_string()));
    auto.into_iter().chain([("1".to_string(), "Yes".to_string()), ("0".to_string(), "No".to_string())]).collect()
}

fn yes_no(v: bool) -> &'static str {
    if v { "Yes" } else { "No" }
}

fn prices(p: &Product, uplifts: TierUplifts, sight: Sight) -> Group {
    let overrides = TierOverrides {
        b: p.class_b_price.map(Cents),
        c: p.class_c_price.map(Cents),
        d: p.class_d_price.map(Cents),
        e: p.class_e_price.map(Cents),
    };
    let t = tier_prices(Cents(p.class_a_price), uplifts, overrides);
    let money = |c: Cents| c.grouped();
    let costs = [("costPrice", "Cost", p.cost_price), ("ref_pur", "Tempe", p.ref_pur)]
        .into_iter()
        .filter_map(|(name, label, c)| sight.cost(c).map(|c| Field::display(name, label, money(c))));
    Group {
        title: "Prices (read-only)",
        fields: vec![
            Field::display("standardPrice", "Standard", money(Cents(p.standard_price))),
            Field::display("specialPrice", "Monthly Special", money(Cents(p.special_price))),
            Field::display("classAPrice", "Class A/COD", money(t.a)),
            Field::display("classBPrice", "Class B", money(t.b)),
            Field::display("classCPrice", "Class C", money(t.c)),
            Field::display("classDPrice", "Class D", money(t.d)),
            Field::display("classEPrice", "Class E", money(t.e)),
            Field::display("is_special", "Special", yes_no(p.is_special)),
            Field::display("is_clearance", "Clearance", yes_no(p.is_clearance)),
        ]
        .into_iter()
        .chain(costs)
        .collect(),
    }
}

/// The form for `input`; on edit the identity fields are read-only.
pub fn view(input: &ProductInput, ctx: &ProductContext<'_>) -> FormView {
    let editing = ctx.existing.is_some();
    let kind = if let Some(p) = ctx.existing {
        Field::display("category", "Physical / Virtual", ProductKind::from_i32(p.category).map(ProductKind::label).unwrap_or("Unknown"))
    } else {
        Field::select("category", "Physical / Virtual", code_options::<ProductKind>(None), selected(input.kind)).required()
    };
    let mut name = Field::text("name", "Item Name", input.name.as_deref().unwrap_or("")).required().locked(editing).span("wide");
    if !editing {
        name = name.max_chars(PRODUCT_NAME_MAX, PRODUCT_NAME_TOO_LONG);
    }
    let category = ProductCategory::from_path(&input.category).map(ProductCategory::path).unwrap_or_else(|| input.category.clone());
    let brands = std::iter::once((String::new(), CHOOSE.to_string())).chain(ctx.brands.iter().map(|b| (b.id.to_string(), b.name.clone()))).collect();
    let show = vec![("0".to_string(), "No".to_string()), ("1".to_string(), "Yes".to_string())];
    let xero_code = input.code.as_deref().map(domain::xero::item_code).filter(|sent| editing && Some(sent.as_str()) != input.code.as_deref().map(str::trim));
    let mut groups = vec![
        Group {
            title: "Basic",
            fields: vec![
                code_field(input.code.as_deref().unwrap_or(""), editing),
                Field::text("helperCode", "Helper Code", &input.helper_code).required(),
                name,
                Field::text("originCode", "Origin Code", &input.origin_code),
                Field::text("unit", "Unit", &input.unit).required().suggest(vec!["EA".into(), "SET".into(), "PAIR".into()]),
                kind,
                Field::select("show_for_shop", "Show for Shop", show, selected(input.show_for_shop.map(u8::from))).required(),
                Field::select("dotTracked", "Tracked by DOT", dot_options(editing), selected(input.dot_tracked.map(u8::from))),
                Field::textarea("comments", "Comments", &input.comments),
            ],
        },
        Group {
            title: "Category",
            fields: vec![
                Field::select("tag1", "Category", category_options(), category).required(),
                Field::select("material", "Material", code_options::<Material>(Some(CHOOSE)), selected(input.material)).required(),
                Field::select("auto_parts_type", "Auto Parts Type", code_options::<AutoPartsType>(Some(NONE)), selected(input.auto_parts_type)),
            ],
        },
        Group {
            title: "Brands & Tags",
            fields: vec![
                Field::select("brand", "Brand", brands, selected(input.brand_id)).required(),
                Field::text("manufacturer", "Manufacturer", &input.manufacturer),
                Field::text("tag2", "Tag L2", &input.tag2),
                Field::text("tag3", "Tag L3", &input.tag3),
                Field::text("tag4", "Location (separate with /)", &input.tag4),
            ],
        },
        Group {
            title: "Purchasing",
            fields: vec![
                Field::select(
                    "preferredSupplierId",
                    "Preferred supplier",
                    std::iter::once((String::new(), NONE.to_string())).chain(ctx.suppliers.iter().map(|(id, n)| (id.to_string(), n.clone()))).collect(),
                    input.preferred_supplier.clone().unwrap_or_default(),
                ),
                Field::text("supplierCode", "Supplier code", input.supplier_code.as_deref().unwrap_or("")).max_chars(domain::limits::SHORT_MAX, domain::limits::too_long(domain::limits::SHORT_MAX)),
            ],
        },
        Group {
            title: "Specs",
            fields: vec![
                Field::text("tyreModel", "Tyre Model", &input.tyre_model),
                Field::text("specification", "Specification", &input.specification),
                Field::text("width", "Width", &input.width),
                Field::text("patterns", "Pattern", &input.patterns),
                Field::text("diameter", "Diameter", &input.diameter),
                Field::text("load_rate", "Load Rate", &input.load_rate),
                Field::text("speed_rate", "Speed Rate", &input.speed_rate),
                Field::text("suggested", "Suggested", &input.suggested),
                Field::text("rim_diameter", "Rim Diameter", &input.rim_diameter),
                Field::text("rim_width", "Rim Width", &input.rim_width),
                Field::text("offset", "Offset", &input.wheel_offset),
                Field::text("center_bore", "Center Bore", &input.center_bore),
                Field::text("bolt_pattern", "Bolt Pattern", &input.bolt_pattern),
            ],
        },
    ];
    if let Some(sent) = xero_code {
        // A code saved before Xero's limit: the form says how Xero knows it (issue 31).
        groups[0].fields.insert(1, Field::display("xeroCode", "Item Code in Xero (Xero holds 30 characters)", sent));
    }
    if let Some(p) = ctx.existing {
        groups.push(prices(p, ctx.uplifts, ctx.sight));
    }
    FormView {
        heading: if editing { "Edit Product" } else { "New Product" },
        action: ctx.existing.map_or_else(|| "/baseinfo/products".to_string(), |p| format!("/baseinfo/products/{}", p.id)),
        list_path: "/products",
        version: if editing { input.version } else { None },
        xero: ctx.existing.map(|p| {
            let (label, class) = xero_badge(p.xero_sent);
            Badge { label, class }
        }),
        alert: None,
        conflict: false,
        groups,
        notice: None,
        links: ctx.existing.filter(|_| ctx.sight.sees_cost()).map(|p| vec![("Cost history", format!("/products/{}/cost_history", p.id))]).unwrap_or_default(),
        actions: vec![],
    }
}

/// The item code: locked once the product exists; a new one within Xero's 30 characters.
fn code_field(value: &str, editing: bool) -> Field {
    let f = Field::text("code", "Item Code", value).required().locked(editing);
    if editing { f } else { f.max_chars(domain::xero::ITEM_CODE_MAX, domain::masters::CODE_LONGER_THAN_XERO_ITEM) }
}
