//! Brands, warehouses and products: the brand master, tyre size notation, and the product
//! generator with its mix of tyres, wheels, batteries, parts, trailer and service lines.

use std::collections::HashSet;

use super::names::{
    Candidate, NAME_MAX, claim_code, claim_name, fit, mark_code, name_candidates, plain,
};
use super::product_data::*;
use super::records::{GenBrand, GenProduct, GenWarehouse};
use super::rng::Rng;

/// Quality tier of a brand or product line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tier {
    Premium,
    Mid,
    Budget,
}

impl Tier {
    fn label(self) -> &'static str {
        match self {
            Tier::Premium => "Premium",
            Tier::Mid => "Mid",
            Tier::Budget => "Budget",
        }
    }

    /// Price factor in percent relative to a mid-range product.
    fn factor(self) -> i64 {
        match self {
            Tier::Premium => 135,
            Tier::Mid => 100,
            Tier::Budget => 72,
        }
    }
}

/// Brand master row: name, upper-case name used in product names, code prefix, owner, tier, shown to CSR.
pub(super) struct BrandDef {
    name: &'static str,
    upper: &'static str,
    prefix: &'static str,
    maker: &'static str,
    tier: Tier,
    csr: bool,
}

pub(super) const fn bd(
    name: &'static str,
    upper: &'static str,
    prefix: &'static str,
    maker: &'static str,
    tier: Tier,
    csr: bool,
) -> BrandDef {
    BrandDef {
        name,
        upper,
        prefix,
        maker,
        tier,
        csr,
    }
}

/// The brand definition for a display name.
fn brand_def(name: &str) -> Option<&'static BrandDef> {
    BRANDS.iter().find(|b| b.name == name)
}

/// The ~30 brands the wholesaler stocks: tyres, wheels, batteries and parts.
pub fn brands() -> Vec<GenBrand> {
    BRANDS
        .iter()
        .map(|b| GenBrand {
            name: b.name.to_string(),
            presented_to_csr: b.csr,
        })
        .collect()
}

/// The five warehouses: four own Sydney-area sites (Tempe is the main one) and a third-party store.
pub fn warehouses() -> Vec<GenWarehouse> {
    let w = |code: &str, name: &str, address: &str, calc: bool| GenWarehouse {
        code: code.to_string(),
        name: name.to_string(),
        address: address.to_string(),
        is_calc_for_csr_order: calc,
    };
    vec![
        w(
            "TEM",
            "Tempe (Main)",
            "118 Princes Hwy, Tempe NSW 2044",
            true,
        ),
        w("SMI", "Smithfield", "34 Long St, Smithfield NSW 2164", true),
        w(
            "CAM",
            "Campbelltown",
            "7 Blaxland Rd, Campbelltown NSW 2560",
            true,
        ),
        w(
            "NEW",
            "Newcastle",
            "15 Industrial Dr, Mayfield West NSW 2304",
            true,
        ),
        w(
            "SYD",
            "SYD Third-party Logistics",
            "Building C, 2 Wonderland Dr, Eastern Creek NSW 2766",
            false,
        ),
    ]
}

/// Rounds cents to whole dollars (half up).
fn whole_dollars(cents: i64) -> i64 {
    (cents + 50).div_euclid(100) * 100
}

// ---------------------------------------------------------------------------------------------
// Product reference tables (the kinds they use; the tables are in product_data.rs)
// ---------------------------------------------------------------------------------------------

/// Which kind of vehicle a tyre size or pattern belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SizeClass {
    Car,
    Suv,
    LightTruck,
    Van,
}

/// Tyre pattern families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Touring,
    Sport,
    AllSeason,
    Ht,
    At,
    Mt,
    Van,
}

impl Kind {
    /// The season/terrain tag stored in tag2.
    fn tag(self) -> &'static str {
        match self {
            Kind::Touring | Kind::Sport | Kind::Van => "Summer",
            Kind::AllSeason => "All Season",
            Kind::Ht => "HT",
            Kind::At => "AT",
            Kind::Mt => "MT",
        }
    }

    /// Whether the pattern is made in sizes of this class.
    fn fits(self, class: SizeClass) -> bool {
        match self {
            Kind::Touring | Kind::Sport | Kind::AllSeason => class == SizeClass::Car,
            Kind::Ht => class == SizeClass::Suv,
            Kind::At | Kind::Mt => matches!(class, SizeClass::Suv | SizeClass::LightTruck),
            Kind::Van => class == SizeClass::Van,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------------

/// A tyre size split into its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SizeParts {
    /// Overall diameter of a flotation size ("31" in 31x10.50R15).
    overall: Option<String>,
    /// Section width: "205", "11", "10.50", "4.80".
    width: String,
    /// Aspect ratio, when written.
    profile: Option<String>,
    /// Rim diameter: "16", "22.5".
    rim: String,
}

/// Splits sizes such as "205/55R16", "LT265/75R16", "31x10.50R15", "195R14C", "11R22.5" or "4.80-8".
fn size_parts(size: &str) -> SizeParts {
    let s = size
        .strip_prefix("LT")
        .or_else(|| size.strip_prefix("ST"))
        .unwrap_or(size);
    let s = s.strip_suffix('C').unwrap_or(s);
    let (overall, s) = match s.split_once('x') {
        Some((d, rest)) => (Some(d.to_string()), rest),
        None => (None, s),
    };
    let (left, rim) = s
        .split_once('R')
        .or_else(|| s.split_once('-'))
        .unwrap_or((s, ""));
    let (width, profile) = match left.split_once('/') {
        Some((w, p)) => (w, Some(p.to_string())),
        None => (left, None),
    };
    SizeParts {
        overall,
        width: width.to_string(),
        profile,
        rim: rim.to_string(),
    }
}

/// The digits-only search code of a tyre size: "2055516", "31105015", "19514", "2958022.5".
fn size_helper(size: &str) -> String {
    let p = size_parts(size);
    let width: String = p.width.chars().filter(char::is_ascii_digit).collect();
    format!(
        "{}{width}{}{}",
        p.overall.unwrap_or_default(),
        p.profile.unwrap_or_default(),
        p.rim
    )
}

/// Splits a service description into load index and speed symbol: "91V" → ("91", "V").
fn split_service(service: &str) -> (Option<String>, Option<String>) {
    match service.char_indices().last() {
        Some((i, c))
            if c.is_ascii_uppercase()
                && i > 0
                && service[..i].chars().all(|d| d.is_ascii_digit() || d == '/') =>
        {
            (Some(service[..i].to_string()), Some(c.to_string()))
        }
        _ => (None, None),
    }
}

/// The whole-inch part of a rim diameter ("22.5" → 22).
fn rim_inches(rim: &str) -> i64 {
    rim.split('.')
        .next()
        .and_then(|r| r.parse::<i64>().ok())
        .unwrap_or(16)
}

/// Product groups in the generated mix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    Pcr,
    Tbr,
    Wheel,
    Battery,
    Part,
    Trailer,
}

/// The group of the `i`-th physical product: a fixed interleaved pattern over every 100 products
/// (58 PCR, 12 TBR, 8 wheels, 7 batteries, 10 parts, 5 trailer).
fn group_for(i: usize) -> Group {
    match (i * 37 + 11) % 100 {
        0..=57 => Group::Pcr,
        58..=69 => Group::Tbr,
        70..=77 => Group::Wheel,
        78..=84 => Group::Battery,
        85..=94 => Group::Part,
        _ => Group::Trailer,
    }
}

/// An empty product of a category, to be filled in.
fn blank(category_path: &'static str) -> GenProduct {
    GenProduct {
        code: String::new(),
        origin_code: String::new(),
        helper_code: String::new(),
        name: String::new(),
        unit: "EA".to_string(),
        category_path,
        brand: String::new(),
        manufacturer: String::new(),
        auto_parts_type: None,
        tag2: String::new(),
        tag3: String::new(),
        tag4: String::new(),
        is_virtual: false,
        show_for_shop: true,
        material: 1,
        tyre_model: None,
        specification: None,
        diameter: None,
        patterns: None,
        width: None,
        load_rate: None,
        speed_rate: None,
        rim_diameter: None,
        rim_width: None,
        offset: None,
        center_bore: None,
        bolt_pattern: None,
        cost_cents: 0,
        standard_cents: 0,
        class_a_cents: 0,
        special_cents: 0,
        is_special: false,
        ref_pur_cents: 0,
        is_clearance: false,
        is_customer_show: true,
    }
}

/// A product before its name and code are made unique.
struct Draft {
    product: GenProduct,
    /// Name candidates with their code suffixes, best first; the first is the plain name.
    names: Vec<Candidate>,
    code: String,
    cost: i64,
}

/// Product generator state: the random stream and the names and codes already used.
struct ProductGen {
    rng: Rng,
    names: HashSet<String>,
    codes: HashSet<String>,
    pcr_count: usize,
}

impl ProductGen {
    /// A cost in cents: `dollars` scaled by `pct` percent with ±`jitter` percent noise, kept within
    /// `lo..=hi` dollars (values outside land just inside the bound, not on it).
    fn cost(&mut self, dollars: i64, pct: i64, jitter: i64, lo: i64, hi: i64) -> i64 {
        let noise = self.rng.range_i64(100 - jitter, 100 + jitter);
        let cents = dollars * 100 * pct / 100 * noise / 100 + self.rng.range_i64(0, 99);
        let (lo, hi) = (lo * 100, hi * 100);
        let margin = ((hi - lo) / 10).max(1);
        if cents < lo {
            lo + self.rng.range_i64(0, margin)
        } else if cents > hi {
            hi - self.rng.range_i64(0, margin)
        } else {
            cents
        }
    }

    /// A bin location such as "A12/B03", sometimes "call".
    fn location(&mut self) -> String {
        if self.rng.chance(5) {
            return "call".to_string();
        }
        let aisle = char::from(b'A' + self.rng.below(8) as u8);
        let level = char::from(b'A' + self.rng.below(6) as u8);
        format!(
            "{aisle}{:02}/{level}{:02}",
            self.rng.range_i64(1, 40),
            self.rng.range_i64(1, 12)
        )
    }

    /// A manufacturer article number, sometimes missing.
    fn article(&mut self) -> String {
        if self.rng.chance(15) {
            String::new()
        } else {
            format!("{}", self.rng.range_i64(100_000, 999_999))
        }
    }

    /// Fills cost, standard, class A, special and reference purchase prices from a cost in cents.
    fn price(&mut self, p: &mut GenProduct, cost: i64) {
        let cost = cost.max(100);
        let standard = whole_dollars(cost * self.rng.range_i64(135, 160) / 100).max(100);
        let class_a =
            whole_dollars(standard * self.rng.range_i64(88, 92) / 100).clamp(100, standard);
        p.cost_cents = cost;
        p.standard_cents = standard;
        p.class_a_cents = class_a;
        p.ref_pur_cents = cost * self.rng.range_i64(97, 103) / 100;
        p.is_special = false;
        p.special_cents = 0;
        if self.rng.chance(5) {
            let floor = (cost + 99) / 100 * 100;
            let mut special = (class_a - self.rng.range_i64(2, 25) * 100).max(floor);
            if special >= class_a {
                special = class_a - 100;
            }
            if special > 0 {
                p.is_special = true;
                p.special_cents = special;
            }
        }
    }

    /// Draws drafts until one has a free name (a few tries), then claims a unique name and code.
    fn make(&mut self, draw: fn(&mut Self) -> Draft) -> GenProduct {
        let mut draft = draw(self);
        for _ in 0..8 {
            if draft
                .names
                .first()
                .is_some_and(|n| !self.names.contains(&n.0))
            {
                break;
            }
            draft = draw(self);
        }
        let Draft {
            mut product,
            names,
            code,
            cost,
        } = draft;
        let (name, suffix) = claim_name(&mut self.names, &names);
        product.name = name;
        product.code = claim_code(&mut self.codes, &format!("{code}{suffix}"));
        product.tag4 = self.location();
        self.price(&mut product, cost);
        product.is_clearance = self.rng.chance(3);
        product.show_for_shop = self.rng.chance(92);
        product.is_customer_show = self.rng.chance(90);
        product
    }

    /// Passenger, SUV, 4x4 and van tyres.
    fn pcr(&mut self) -> Draft {
        let class = [
            SizeClass::Car,
            SizeClass::Suv,
            SizeClass::LightTruck,
            SizeClass::Van,
        ][self.rng.weighted(&[56, 27, 10, 7])];
        let sizes: Vec<&PcrSize> = PCR_SIZES.iter().filter(|s| s.1 == class).collect();
        // The best sellers come first, several patterns each, so even a small demo catalogue
        // answers the sizes staff type every day.
        let popular = POPULAR_SIZES.get(self.pcr_count / 3).and_then(|size| PCR_SIZES.iter().find(|s| s.0 == *size));
        self.pcr_count += 1;
        let &(size, class, std_service, xl_service) = match popular {
            Some(s) => s,
            None => *self.rng.pick(&sizes),
        };
        let patterns: Vec<&Pattern> = PCR_PATTERNS.iter().filter(|p| p.3.fits(class)).collect();
        let &&(brand, pattern, abbr, kind) = self.rng.pick(&patterns);
        let def = brand_def(brand);
        let xl = !xl_service.is_empty() && self.rng.chance(30);
        let service = if xl { xl_service } else { std_service };
        let parts = size_parts(size);
        let (load, speed) = split_service(service);
        let helper = size_helper(size);
        let upper = def.map_or("", |d| d.upper);
        let mut p = blank("PCR tyres");
        p.helper_code = helper.clone();
        p.brand = brand.to_string();
        p.manufacturer = def.map_or("", |d| d.maker).to_string();
        p.tag2 = kind.tag().to_string();
        let tier = def.map_or(Tier::Mid, |d| d.tier);
        p.tag3 = tier.label().to_string();
        p.tyre_model = Some(pattern.to_string());
        p.patterns = Some(pattern.to_string());
        p.width = Some(parts.width.clone());
        p.specification = parts.profile.clone();
        p.diameter = Some(parts.rim.clone());
        p.load_rate = load;
        p.speed_rate = speed;
        p.origin_code = self.article();
        let extra = match class {
            SizeClass::Car => 0,
            SizeClass::Suv => 25,
            SizeClass::LightTruck => 70,
            SizeClass::Van => 20,
        };
        let base = 55 + (rim_inches(&parts.rim) - 13) * 22 + extra + if xl { 8 } else { 0 };
        let cost = self.cost(base, tier.factor(), 12, 60, 350);
        let xl_mark = if xl { " XL" } else { "" };
        let (mid, end) = match class {
            SizeClass::Car => (&[][..], CAR_MARKS),
            SizeClass::Suv => (&[][..], SUV_MARKS),
            SizeClass::LightTruck => (LT_PLY, DOT_MARKS),
            SizeClass::Van => (VAN_PLY, DOT_MARKS),
        };
        Draft {
            product: p,
            names: name_candidates(
                upper,
                |b, m, e| format!("{size} {service}{xl_mark}{m} {b} {pattern}{e}"),
                mid,
                end,
            ),
            code: format!(
                "{}{helper}{abbr}{}",
                def.map_or("", |d| d.prefix),
                if xl { "XL" } else { "" }
            ),
            cost,
        }
    }

    /// Truck and bus radial tyres.
    fn tbr(&mut self) -> Draft {
        let &(size, service) = self.rng.pick(TBR_SIZES);
        let &(brand, pattern, abbr, position) = self.rng.pick(TBR_PATTERNS);
        let def = brand_def(brand);
        let parts = size_parts(size);
        let (load, speed) = split_service(service);
        let helper = size_helper(size);
        let tier = def.map_or(Tier::Mid, |d| d.tier);
        let mut p = blank("TBR tyres");
        p.helper_code = helper.clone();
        p.brand = brand.to_string();
        p.manufacturer = def.map_or("", |d| d.maker).to_string();
        p.tag2 = position.to_string();
        p.tag3 = tier.label().to_string();
        p.tyre_model = Some(pattern.to_string());
        p.patterns = Some(pattern.to_string());
        p.width = Some(parts.width.clone());
        p.specification = parts.profile.clone();
        p.diameter = Some(parts.rim.clone());
        p.load_rate = load;
        p.speed_rate = speed;
        p.origin_code = self.article();
        let base = if rim_inches(&parts.rim) >= 22 {
            450
        } else {
            390
        };
        let cost = self.cost(base, (tier.factor() + 100) / 2, 12, 300, 700);
        Draft {
            product: p,
            names: name_candidates(
                def.map_or("", |d| d.upper),
                |b, m, e| format!("{size} {service}{m} {b} {pattern}{e}"),
                TBR_PLY,
                DOT_MARKS,
            ),
            code: format!(
                "{}{}{abbr}",
                def.map_or("", |d| d.prefix),
                helper.replace('.', "")
            ),
            cost,
        }
    }

    /// Alloy and steel wheels.
    fn wheel(&mut self) -> Draft {
        let alloy = self.rng.chance(75);
        let (brand, model, abbr, four_by) = if alloy {
            *self.rng.pick(ALLOY_MODELS)
        } else {
            let &(b, m, a) = self.rng.pick(STEEL_MODELS);
            (b, m, a, true)
        };
        let fitments: Vec<&(&str, &str, bool)> =
            FITMENTS.iter().filter(|f| f.2 == four_by).collect();
        let &&(bolt, bore, _) = self.rng.pick(&fitments);
        let &(rd, rw) = if four_by {
            self.rng.pick(FOUR_BY_RIMS)
        } else {
            self.rng.pick(CAR_RIMS)
        };
        let offset = if four_by {
            *self.rng.pick(FOUR_BY_OFFSETS)
        } else {
            *self.rng.pick(CAR_OFFSETS)
        };
        let &(finish, fin) = if alloy {
            self.rng.pick(ALLOY_FINISHES)
        } else {
            self.rng.pick(STEEL_FINISHES)
        };
        let def = brand_def(brand);
        let tier = def.map_or(Tier::Mid, |d| d.tier);
        let rw_digits: String = rw.chars().filter(char::is_ascii_digit).collect();
        let bolt_digits: String = bolt.chars().filter(char::is_ascii_digit).collect();
        let mut p = blank(if alloy {
            "Wheels/Alloy"
        } else {
            "Wheels/Steel"
        });
        p.helper_code = format!("{rd}{rw_digits}{bolt_digits}");
        p.brand = brand.to_string();
        p.manufacturer = def.map_or("", |d| d.maker).to_string();
        p.auto_parts_type = Some(1);
        p.tag2 = if four_by { "4x4" } else { "Passenger" }.to_string();
        p.tag3 = tier.label().to_string();
        p.material = if alloy { 2 } else { 3 };
        p.rim_diameter = Some(rd.to_string());
        p.rim_width = Some(rw.to_string());
        p.offset = Some(offset.to_string());
        p.center_bore = Some(bore.to_string());
        p.bolt_pattern = Some(bolt.to_string());
        p.origin_code = self.article();
        let base = if alloy {
            95 + (rim_inches(rd) - 15) * 40 + if four_by { 40 } else { 0 }
        } else {
            120 + (rim_inches(rd) - 15) * 20
        };
        let cost = if alloy {
            self.cost(base, tier.factor(), 10, 120, 450)
        } else {
            self.cost(base, 100, 8, 120, 220)
        };
        let off_code = if offset < 0 {
            format!("N{}", -offset)
        } else {
            offset.to_string()
        };
        Draft {
            product: p,
            names: vec![plain(fit(
                &format!(
                    "{rd}x{rw} {} ET{offset} {} {model} {finish}",
                    bolt.replace('x', "/"),
                    def.map_or("", |d| d.upper)
                ),
                "",
            ))],
            code: format!(
                "{}{rd}{rw_digits}{abbr}{fin}{off_code}",
                def.map_or("", |d| d.prefix)
            ),
            cost,
        }
    }

    /// Starter batteries, AGM or sealed maintenance-free.
    fn battery(&mut self) -> Draft {
        let &(model, cca) = self.rng.pick(BATTERY_MODELS);
        let &(brand, series) = self.rng.pick(BATTERY_SERIES);
        let agm = self.rng.chance(40);
        let cca = if agm {
            (cca * 110 / 100 + 5) / 10 * 10
        } else {
            cca
        };
        let def = brand_def(brand);
        let tier = def.map_or(Tier::Mid, |d| d.tier);
        let mut p = blank(if agm {
            "Batteries/AGM"
        } else {
            "Batteries/SMF"
        });
        p.helper_code = model.to_string();
        p.origin_code = model.to_string();
        p.brand = brand.to_string();
        p.manufacturer = def.map_or("", |d| d.maker).to_string();
        p.auto_parts_type = Some(6);
        p.tag2 = if agm { "Start-Stop" } else { "Standard" }.to_string();
        p.tag3 = tier.label().to_string();
        let base = 120 + (cca - 330) * 280 / 920 + if agm { 40 } else { 0 };
        let cost = self.cost(base, (tier.factor() + 100) / 2, 8, 120, 400);
        let series_text = if series.is_empty() {
            String::new()
        } else {
            format!(" {series}")
        };
        let series_code: String = series
            .split_whitespace()
            .filter_map(|w| w.chars().next())
            .collect();
        Draft {
            product: p,
            names: name_candidates(
                def.map_or("", |d| d.upper),
                |b, m, e| {
                    format!(
                        "{model} {}{m} 12V {cca}CCA {b}{series_text}{e}",
                        if agm { "AGM" } else { "MF" }
                    )
                },
                &[" HD", " EFB"][..usize::from(!agm) * 2],
                &[" 24M WTY", " 36M WTY", " 48M WTY", " FLEET"],
            ),
            code: format!(
                "{}{model}{}{series_code}",
                def.map_or("", |d| d.prefix),
                if agm { "A" } else { "M" }
            ),
            cost,
        }
    }
}

impl ProductGen {
    /// Filters, oils, suspension, bumpers and tyre-shop consumables.
    fn part(&mut self) -> Draft {
        match self.rng.weighted(&[35, 18, 22, 10, 15]) {
            0 => self.filter(),
            1 => self.oil(),
            2 => self.shock(),
            3 => self.bumper(),
            _ => self.sundry(),
        }
    }

    fn filter(&mut self) -> Draft {
        let &(kind, prefix, (lo, hi), suffix, (c_lo, c_hi)) = self.rng.pick(FILTERS);
        let part = format!("{prefix}{}{suffix}", self.rng.range_i64(lo, hi));
        let mut p = self.part_blank("Ryco", 2, "Service");
        p.helper_code = part.clone();
        p.origin_code = part.clone();
        let cost = self.cost((c_lo + c_hi) / 2, 100, 30, c_lo, c_hi);
        Draft {
            product: p,
            names: vec![plain(format!("RYCO {part} {kind}"))],
            code: format!("RY{part}"),
            cost,
        }
    }

    fn oil(&mut self) -> Draft {
        let &(product, grade) = self.rng.pick(OILS);
        let packs: &[(&str, i64, i64)] = &[
            ("1L", 12, 20),
            ("5L", 45, 90),
            ("6L", 55, 100),
            ("20L", 150, 280),
            ("BULK", 7, 12),
        ];
        let &(pack, lo, hi) = self.rng.pick(packs);
        let mut p = self.part_blank("Penrite", 3, "Service");
        if pack == "BULK" {
            p.unit = "L".to_string();
        }
        let grade_text = if grade.is_empty() {
            String::new()
        } else {
            format!(" {grade}")
        };
        let short: String = product
            .split_whitespace()
            .map(|w| {
                w.chars()
                    .filter(char::is_ascii_alphanumeric)
                    .take(3)
                    .collect::<String>()
            })
            .collect();
        let grade_code: String = grade.chars().filter(char::is_ascii_alphanumeric).collect();
        p.helper_code = grade_code.clone();
        let cost = self.cost((lo + hi) / 2, 100, 25, lo, hi);
        Draft {
            product: p,
            names: ["", " CTN 3", " CTN 4", " CTN 6"]
                .iter()
                .map(|e| {
                    (
                        format!("PENRITE {product}{grade_text} {pack}{e}"),
                        mark_code(e),
                    )
                })
                .collect(),
            code: format!("PE{short}{grade_code}{pack}"),
            cost,
        }
    }

    fn shock(&mut self) -> Draft {
        let range = *self
            .rng
            .pick(&["GT GAS", "GAS MAGNUM", "OESPECTRUM", "MONRO-MATIC"]);
        let kind = *self.rng.pick(&["SHOCK", "STRUT", "COIL SPRING"]);
        let position = *self.rng.pick(&["FRONT", "REAR"]);
        let number = self.rng.range_i64(10_000, 99_999);
        let mut p = self.part_blank("Monroe", 5, "Suspension");
        p.helper_code = number.to_string();
        p.origin_code = number.to_string();
        let cost = self.cost(150, 100, 60, 60, 250);
        let name = if kind == "COIL SPRING" {
            format!("MONROE {kind} {position} {number}")
        } else {
            format!("MONROE {range} {kind} {position} {number}")
        };
        Draft {
            product: p,
            names: vec![plain(name)],
            code: format!("MO{number}{}", &position[..1]),
            cost,
        }
    }

    fn bumper(&mut self) -> Draft {
        let item = *self.rng.pick(&[
            "FRONT BUMPER BAR",
            "REAR BUMPER BAR",
            "REAR STEP BUMPER",
            "BUMPER REINFORCEMENT",
            "FRONT BUMPER BRACKET",
            "BUMPER FOG LAMP COVER",
        ]);
        let vehicle = *self.rng.pick(VEHICLES);
        let mut p = blank("Autoparts");
        p.manufacturer = "Aftermarket".to_string();
        p.auto_parts_type = Some(4);
        p.tag2 = "Body".to_string();
        p.tag3 = Tier::Budget.label().to_string();
        p.origin_code = self.article();
        let item_code: String = item
            .split_whitespace()
            .filter_map(|w| w.chars().next())
            .collect();
        let vehicle_code: String = vehicle
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect();
        let cost = self.cost(450, 100, 60, 150, 900);
        Draft {
            product: p,
            names: ["", " PRIMED", " BLACK", " CHROME"]
                .iter()
                .map(|e| (format!("{item} {vehicle}{e}"), mark_code(e)))
                .collect(),
            code: format!("BB{item_code}{vehicle_code}"),
            cost,
        }
    }

    fn sundry(&mut self) -> Draft {
        let mut p = blank("Autoparts");
        p.manufacturer = "Generic".to_string();
        p.tag2 = "Workshop".to_string();
        p.tag3 = Tier::Mid.label().to_string();
        p.origin_code = self.article();
        let (name, code, lo, hi) = match self.rng.below(6) {
            0 => {
                let thread = *self.rng.pick(&[
                    "M12x1.5", "M12x1.25", "M14x1.5", "M14x2.0", "1/2 UNF", "7/16 UNF",
                ]);
                let finish = *self.rng.pick(&["CHROME", "BLACK", "ZINC", "SILVER"]);
                let seat = *self.rng.pick(&["TAPER", "FLAT", "BALL"]);
                let (kind, pack) = *self.rng.pick(&[
                    ("WHEEL NUT", "20PK"),
                    ("OPEN NUT", "20PK"),
                    ("WHEEL BOLT", "20PK"),
                    ("LOCKING NUT SET", "4PK"),
                ]);
                p.auto_parts_type = Some(1);
                let code: String = format!("WN{kind}{thread}{seat}{finish}")
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect();
                (
                    format!("{kind} {thread} {seat} {finish} ({pack})"),
                    code,
                    20,
                    60,
                )
            }
            1 => {
                let bore = *self.rng.pick(&[
                    "54.1", "56.1", "57.1", "60.1", "63.4", "64.1", "66.1", "66.6", "67.1", "72.6",
                ]);
                let outer = *self.rng.pick(&["73.1", "74.1", "76.1"]);
                p.auto_parts_type = Some(1);
                (
                    format!("HUB RING {outer}-{bore} (4PK)"),
                    format!("HR{}{}", outer.replace('.', ""), bore.replace('.', "")),
                    8,
                    20,
                )
            }
            2 => {
                let valve = *self
                    .rng
                    .pick(&["TR413", "TR414", "TR418", "TR15", "TR600HP"]);
                (
                    format!("TYRE VALVE {valve} (100PK)"),
                    format!("TV{valve}"),
                    20,
                    45,
                )
            }
            3 => {
                let mhz = *self.rng.pick(&["315MHZ", "433MHZ"]);
                let kind = *self.rng.pick(&["CLAMP-IN", "SNAP-IN", "PROGRAMMABLE"]);
                (
                    format!("TPMS SENSOR {kind} {mhz}"),
                    format!("TPMS{}{mhz}", &kind[..2]),
                    35,
                    70,
                )
            }
            4 => {
                let grams = *self.rng.pick(&["5G", "10G", "5G/10G"]);
                let kind = *self
                    .rng
                    .pick(&["ADHESIVE", "CLIP-ON STEEL", "CLIP-ON ZINC"]);
                let code: String = format!("BW{grams}{kind}")
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect();
                (format!("BALANCE WEIGHTS {grams} {kind}"), code, 15, 60)
            }
            _ => {
                let kind = *self.rng.pick(&[
                    "REPAIR PLUGS (50PK)",
                    "PATCHES 55MM (100PK)",
                    "RUBBER CEMENT 250ML",
                    "MOUNTING PASTE 5KG",
                    "BEAD SEALER 1L",
                ]);
                let code: String = format!("TR{kind}")
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .take(12)
                    .collect();
                (format!("TYRE {kind}"), code, 12, 60)
            }
        };
        let cost = self.cost((lo + hi) / 2, 100, 30, lo, hi);
        let names = vec![
            (format!("{name} BULK"), "B".to_string()),
            (format!("{name} CTN"), "C".to_string()),
        ];
        let names = std::iter::once(plain(name)).chain(names).collect();
        Draft {
            product: p,
            names,
            code,
            cost,
        }
    }

    /// A branded autoparts product with its type and tag.
    fn part_blank(&mut self, brand: &str, parts_type: i32, tag2: &str) -> GenProduct {
        let def = brand_def(brand);
        let mut p = blank("Autoparts");
        p.brand = brand.to_string();
        p.manufacturer = def.map_or("", |d| d.maker).to_string();
        p.auto_parts_type = Some(parts_type);
        p.tag2 = tag2.to_string();
        p.tag3 = def.map_or(Tier::Mid, |d| d.tier).label().to_string();
        p
    }

    /// Trailer tyres, trailer wheels and tyre-on-wheel packages.
    fn trailer(&mut self) -> Draft {
        let mut p = blank("Trailer tyres & Wheel");
        p.tag2 = "Trailer".to_string();
        p.tag3 = Tier::Budget.label().to_string();
        p.origin_code = self.article();
        let kind = self.rng.weighted(&[45, 30, 25]);
        let style = *self.rng.pick(TRAILER_STYLES);
        let finish = *self.rng.pick(TRAILER_FINISHES);
        let &(size, service) = self.rng.pick(TRAILER_SIZES);
        let &(brand, pattern) = self.rng.pick(TRAILER_PATTERNS);
        let def = brand_def(brand);
        let upper = def.map_or("", |d| d.upper);
        let prefix = def.map_or("", |d| d.prefix);
        let parts = size_parts(size);
        // Packages use a rim that matches the tyre; loose wheels any trailer rim.
        let (rd, rw) = if kind == 2 {
            let rims: Vec<&(&str, &str)> =
                TRAILER_RIMS.iter().filter(|r| r.0 == parts.rim).collect();
            if rims.is_empty() {
                ("14", "6")
            } else {
                **self.rng.pick(&rims)
            }
        } else {
            *self.rng.pick(TRAILER_RIMS)
        };
        // Small rims take four studs.
        let (bolt, bore) = if rim_inches(rd) <= 10 {
            ("4x100", "60.1")
        } else {
            *self.rng.pick(TRAILER_BOLTS)
        };
        let bolt_name = bolt.replace('x', "/");
        let bolt_code: String = bolt.chars().filter(char::is_ascii_digit).collect();
        let rw_code = rw.replace('.', "");
        if kind != 1 {
            let (load, speed) = split_service(service);
            p.brand = brand.to_string();
            p.manufacturer = def.map_or("", |d| d.maker).to_string();
            p.helper_code = size_helper(size);
            p.tyre_model = Some(pattern.to_string());
            p.patterns = Some(pattern.to_string());
            p.width = Some(parts.width.clone());
            p.specification = parts.profile.clone();
            p.diameter = Some(parts.rim.clone());
            p.load_rate = load;
            p.speed_rate = speed;
        }
        if kind != 0 {
            p.material = 3;
            p.auto_parts_type = Some(1);
            p.rim_diameter = Some(rd.to_string());
            p.rim_width = Some(rw.to_string());
            p.offset = Some("0".to_string());
            p.center_bore = Some(bore.to_string());
            p.bolt_pattern = Some(bolt.to_string());
        }
        match kind {
            0 => {
                let cost = self.cost(95 + (rim_inches(&parts.rim) - 8) * 8, 100, 15, 70, 160);
                let pat_code: String = pattern
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect();
                Draft {
                    names: name_candidates(
                        upper,
                        |b, m, e| format!("{size} {service}{m} {b} {pattern}{e}"),
                        VAN_PLY,
                        DOT_MARKS,
                    ),
                    code: format!("{prefix}{}{pat_code}T", p.helper_code),
                    product: p,
                    cost,
                }
            }
            1 => {
                p.helper_code = format!("{rd}{rw_code}");
                let cost = self.cost(50 + rim_inches(rd) * 3, 100, 15, 50, 120);
                Draft {
                    names: vec![plain(format!(
                        "{rd}x{rw} {bolt_name} {style} {finish} TRAILER"
                    ))],
                    code: format!("TW{rd}{rw_code}{bolt_code}{}{}", &style[..2], &finish[..1]),
                    product: p,
                    cost,
                }
            }
            _ => {
                let cost = self.cost(190 + (rim_inches(rd) - 10) * 8, 100, 15, 150, 280);
                let with_brand =
                    format!("{size} {upper} ON {rd}x{rw} {bolt_name} {style} {finish}");
                let name = if with_brand.len() <= NAME_MAX {
                    with_brand
                } else {
                    fit(
                        &format!("{size} ON {rd}x{rw} {bolt_name} {style} {finish}"),
                        "",
                    )
                };
                Draft {
                    names: vec![plain(name)],
                    code: format!(
                        "{prefix}{}PK{rw_code}{bolt_code}{}{}",
                        p.helper_code,
                        &style[..2],
                        &finish[..1]
                    ),
                    product: p,
                    cost,
                }
            }
        }
    }

    /// One of the virtual service lines (fitting, levies, alignment …).
    fn service(&mut self, i: usize) -> GenProduct {
        let (code, name, dollars) = SERVICES[i % SERVICES.len()];
        let mut p = blank("Autoparts");
        p.code = claim_code(&mut self.codes, code);
        p.name = claim_name(&mut self.names, &[plain(name.to_string())]).0;
        p.helper_code = code.trim_start_matches("SVC-").to_string();
        p.manufacturer = "TyreDesk".to_string();
        p.tag2 = "Service".to_string();
        p.is_virtual = true;
        p.show_for_shop = false;
        p.is_customer_show = false;
        p.standard_cents = dollars * 100;
        p.class_a_cents = whole_dollars(dollars * 90).min(p.standard_cents);
        p.cost_cents = dollars * 40;
        p.ref_pur_cents = p.cost_cents;
        p
    }
}

/// `n` products (unique codes and names of at most 50 characters): about 55% PCR tyres, 12% TBR,
/// 8% wheels, 7% batteries, 10% autoparts, 5% trailer lines, and 8 virtual service lines when `n >= 100`.
pub fn products(n: usize, seed: u64) -> Vec<GenProduct> {
    let mut g = ProductGen {
        rng: Rng::new(seed ^ 0x7079_7265_5052_4F44),
        names: HashSet::with_capacity(n),
        codes: HashSet::with_capacity(n),
        pcr_count: 0,
    };
    let services = if n >= 100 { SERVICES.len() } else { 0 };
    let mut out = Vec::with_capacity(n);
    for i in 0..services {
        out.push(g.service(i));
    }
    for i in 0..n - services {
        let draw: fn(&mut ProductGen) -> Draft = match group_for(i) {
            Group::Pcr => ProductGen::pcr,
            Group::Tbr => ProductGen::tbr,
            Group::Wheel => ProductGen::wheel,
            Group::Battery => ProductGen::battery,
            Group::Part => ProductGen::part,
            Group::Trailer => ProductGen::trailer,
        };
        out.push(g.make(draw));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seed::catalogue::names::try_compose;
    use std::collections::HashMap;

    fn share(products: &[GenProduct], pred: impl Fn(&GenProduct) -> bool) -> f64 {
        products.iter().filter(|p| pred(p)).count() as f64 / products.len() as f64
    }

    #[test]
    fn brands_and_warehouses() {
        let b = brands();
        assert!((28..=34).contains(&b.len()));
        let names: HashSet<&str> = b.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names.len(), b.len());
        for must in [
            "Michelin",
            "BFGoodrich",
            "ROH",
            "King Wheels",
            "Century",
            "Supercharge",
            "Ryco",
            "Penrite",
            "Monroe",
        ] {
            assert!(names.contains(must), "{must}");
        }
        let w = warehouses();
        assert_eq!(w.len(), 5);
        assert_eq!(
            w.iter()
                .filter(|x| !x.is_calc_for_csr_order)
                .map(|x| x.code.as_str())
                .collect::<Vec<_>>(),
            ["SYD"]
        );
        assert!(w[0].name.contains("Tempe"));
    }

    #[test]
    fn products_unique_and_short_at_20k() {
        let ps = products(20_000, 17);
        assert_eq!(ps.len(), 20_000);
        let codes: HashSet<&str> = ps.iter().map(|p| p.code.as_str()).collect();
        let names: HashSet<&str> = ps.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(codes.len(), ps.len());
        assert_eq!(names.len(), ps.len());
        for p in &ps {
            assert!(p.name.chars().count() <= NAME_MAX, "{}", p.name);
            assert!(!p.name.is_empty() && !p.code.is_empty());
            assert!(p.name.is_ascii() && p.code.is_ascii());
            assert_eq!(p.name, p.name.trim());
        }
        let mut numbered: HashMap<&str, usize> = HashMap::new();
        for p in ps.iter().filter(|p| p.name.contains(" #")) {
            *numbered.entry(p.category_path).or_default() += 1;
        }
        println!("20k products, names with a number suffix: {numbered:?}");
        let total: usize = numbered.values().sum();
        assert!(total < ps.len() / 50, "{total}");
    }

    #[test]
    fn product_codes_unique_at_50k() {
        let ps = products(50_000, 99);
        let codes: HashSet<&str> = ps.iter().map(|p| p.code.as_str()).collect();
        let names: HashSet<&str> = ps.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(codes.len(), ps.len());
        assert_eq!(names.len(), ps.len());
        assert!(ps.iter().all(|p| p.name.chars().count() <= NAME_MAX));
    }

    #[test]
    fn plain_names_never_need_cutting() {
        let mut too_long = Vec::new();
        for &(size, class, std_service, xl_service) in PCR_SIZES {
            for &(brand, pattern, _, kind) in PCR_PATTERNS.iter().filter(|p| p.3.fits(class)) {
                let upper = brand_def(brand).map_or("", |d| d.upper);
                for service in [std_service, xl_service]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                {
                    let xl = if service == xl_service { " XL" } else { "" };
                    let name =
                        try_compose(upper, |b| format!("{size} {service}{xl} {b} {pattern}"));
                    if name.is_none() {
                        too_long.push(format!("{size} {service}{xl} {brand} {pattern} ({kind:?})"));
                    }
                    let ply = match class {
                        SizeClass::LightTruck => " 10PR",
                        SizeClass::Van => " 10PR",
                        _ => " N0",
                    };
                    let marked = try_compose(upper, |b| {
                        format!("{size} {service}{xl}{ply} {b} {pattern}")
                    });
                    if marked.is_none() {
                        too_long.push(format!(
                            "{size} {service}{xl}{ply} {brand} {pattern} ({kind:?})"
                        ));
                    }
                }
            }
        }
        for &(size, service) in TBR_SIZES {
            for &(brand, pattern, _, _) in TBR_PATTERNS {
                let upper = brand_def(brand).map_or("", |d| d.upper);
                if try_compose(upper, |b| format!("{size} {service} 20PR {b} {pattern}")).is_none()
                {
                    too_long.push(format!("{size} {service} 20PR {brand} {pattern}"));
                }
            }
        }
        assert!(too_long.is_empty(), "{too_long:#?}");
        for &(model, cca) in BATTERY_MODELS {
            for &(brand, series) in BATTERY_SERIES {
                let upper = brand_def(brand).map_or("", |d| d.upper);
                let name = format!("{model} AGM 12V {}CCA {upper} {series}", cca * 2);
                assert!(name.len() <= NAME_MAX, "{name}");
            }
        }
        for &(brand, ..) in PCR_PATTERNS.iter().chain(
            TBR_PATTERNS
                .iter()
                .map(|t| (t.0, t.1, t.2, Kind::Van))
                .collect::<Vec<_>>()
                .iter(),
        ) {
            assert!(brand_def(brand).is_some(), "{brand}");
        }
        for &(brand, ..) in ALLOY_MODELS.iter().chain(
            STEEL_MODELS
                .iter()
                .map(|m| (m.0, m.1, m.2, true))
                .collect::<Vec<_>>()
                .iter(),
        ) {
            assert!(brand_def(brand).is_some(), "{brand}");
        }
        for &(brand, _) in BATTERY_SERIES.iter().chain(TRAILER_PATTERNS) {
            assert!(brand_def(brand).is_some(), "{brand}");
        }
    }

    #[test]
    fn small_sets_have_no_services() {
        assert!(products(99, 1).iter().all(|p| !p.is_virtual));
        assert!(products(0, 1).is_empty());
        assert_eq!(products(100, 1).iter().filter(|p| p.is_virtual).count(), 8);
    }

    #[test]
    fn category_mix_is_roughly_right() {
        let ps = products(20_000, 5);
        let cat = |c: &'static str| share(&ps, move |p| p.category_path == c);
        let pcr = cat("PCR tyres");
        let tbr = cat("TBR tyres");
        let wheels = cat("Wheels/Alloy") + cat("Wheels/Steel");
        let batteries = cat("Batteries/AGM") + cat("Batteries/SMF");
        let parts = share(&ps, |p| p.category_path == "Autoparts" && !p.is_virtual);
        let trailer = cat("Trailer tyres & Wheel");
        println!(
            "mix: pcr {pcr:.3} tbr {tbr:.3} wheels {wheels:.3} batteries {batteries:.3} parts {parts:.3} trailer {trailer:.3}"
        );
        assert!((0.52..0.62).contains(&pcr));
        assert!((0.10..0.14).contains(&tbr));
        assert!((0.06..0.10).contains(&wheels));
        assert!((0.05..0.09).contains(&batteries));
        assert!((0.08..0.12).contains(&parts));
        assert!((0.04..0.06).contains(&trailer));
        assert!(
            cat("Wheels/Steel") > 0.01
                && cat("Batteries/AGM") > 0.01
                && cat("Batteries/SMF") > 0.01
        );
        let allowed = [
            "Batteries/AGM",
            "Batteries/SMF",
            "Autoparts",
            "PCR tyres",
            "TBR tyres",
            "Wheels/Alloy",
            "Wheels/Steel",
            "Trailer tyres & Wheel",
        ];
        assert!(ps.iter().all(|p| allowed.contains(&p.category_path)));
        let services: Vec<&GenProduct> = ps.iter().filter(|p| p.is_virtual).collect();
        assert_eq!(services.len(), 8);
        assert!(
            services
                .iter()
                .all(|p| p.category_path == "Autoparts" && p.standard_cents > 0)
        );
        // Small sets follow the same mix.
        let small = products(400, 3);
        let pcr_small = share(&small, |p| p.category_path == "PCR tyres");
        assert!((0.5..0.62).contains(&pcr_small), "{pcr_small}");
    }

    #[test]
    fn tyre_helper_codes_are_size_digits() {
        assert_eq!(size_helper("205/55R16"), "2055516");
        assert_eq!(size_helper("LT265/75R16"), "2657516");
        assert_eq!(size_helper("31x10.50R15"), "31105015");
        assert_eq!(size_helper("195R14C"), "19514");
        assert_eq!(size_helper("215/70R15C"), "2157015");
        assert_eq!(size_helper("295/80R22.5"), "2958022.5");
        assert_eq!(size_helper("11R22.5"), "1122.5");
        assert_eq!(split_service("91V"), (Some("91".into()), Some("V".into())));
        assert_eq!(
            split_service("152/148M"),
            (Some("152/148".into()), Some("M".into()))
        );
        assert_eq!(split_service("6PR"), (None, None));
        assert_eq!(
            fit("LT265/70R17 121/118S YOKOHAMA GEOLANDAR A/T G015", " #2"),
            "LT265/70R17 121/118S YOKOHAMA GEOLANDAR A/T #2"
        );
        assert_eq!(
            fit("205/55R16 91V MICHELIN PRIMACY 4", " #2"),
            "205/55R16 91V MICHELIN PRIMACY 4 #2"
        );
        assert_eq!(fit(&"X".repeat(60), ""), "X".repeat(50));
        let ps = products(5_000, 11);
        let mut checked = 0;
        for p in ps
            .iter()
            .filter(|p| matches!(p.category_path, "PCR tyres" | "TBR tyres"))
        {
            let size = p.name.split(' ').next().unwrap_or_default();
            assert_eq!(p.helper_code, size_helper(size), "{}", p.name);
            assert!(
                p.helper_code
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.'),
                "{}",
                p.helper_code
            );
            let w = p.width.as_deref().unwrap_or_default();
            assert!(p.helper_code.contains(&w.replace('.', "")), "{}", p.name);
            assert!(
                p.diameter.is_some()
                    && p.load_rate.is_some()
                    && p.speed_rate.is_some()
                    && p.patterns.is_some(),
                "{}",
                p.name
            );
            let service = format!(
                "{}{}",
                p.load_rate.as_deref().unwrap_or_default(),
                p.speed_rate.as_deref().unwrap_or_default()
            );
            assert!(p.name.contains(&format!(" {service}")), "{}", p.name);
            checked += 1;
        }
        assert!(checked > 3_000);
        let p = ps
            .iter()
            .find(|p| p.name.starts_with("205/55R16 91V "))
            .expect("a 205/55R16 91V tyre");
        assert_eq!(
            (
                p.width.as_deref(),
                p.specification.as_deref(),
                p.diameter.as_deref()
            ),
            (Some("205"), Some("55"), Some("16"))
        );
    }

    #[test]
    fn product_prices_follow_the_rules() {
        let ps = products(20_000, 23);
        let mut specials = 0;
        for p in ps.iter().filter(|p| !p.is_virtual) {
            assert_eq!(p.standard_cents % 100, 0, "{}", p.name);
            assert_eq!(p.class_a_cents % 100, 0, "{}", p.name);
            assert!(
                p.standard_cents * 100 + 50 * 100 >= p.cost_cents * 135
                    && p.standard_cents * 100 <= p.cost_cents * 160 + 50 * 100,
                "{} {} {}",
                p.name,
                p.cost_cents,
                p.standard_cents
            );
            assert!(
                p.class_a_cents < p.standard_cents && p.class_a_cents > p.cost_cents,
                "{}",
                p.name
            );
            if p.is_special {
                specials += 1;
                assert!(
                    p.special_cents > 0 && p.special_cents < p.class_a_cents,
                    "{}",
                    p.name
                );
            } else {
                assert_eq!(p.special_cents, 0);
            }
            assert!((p.ref_pur_cents - p.cost_cents).abs() * 100 <= p.cost_cents * 4);
            let (lo, hi) = match p.category_path {
                "PCR tyres" => (60, 350),
                "TBR tyres" => (300, 700),
                "Wheels/Alloy" | "Wheels/Steel" => (120, 450),
                "Batteries/AGM" | "Batteries/SMF" => (120, 400),
                _ => (1, 1_000),
            };
            assert!(
                p.cost_cents >= lo * 100 && p.cost_cents <= hi * 100,
                "{} {}",
                p.name,
                p.cost_cents
            );
            match p.category_path {
                "Wheels/Alloy" => assert_eq!(p.material, 2),
                "Wheels/Steel" => assert_eq!(p.material, 3),
                "Batteries/AGM" | "Batteries/SMF" => assert_eq!(p.auto_parts_type, Some(6)),
                _ => {}
            }
            assert!(p.unit == "EA" || p.unit == "L");
        }
        let share = specials as f64 / ps.len() as f64;
        assert!((0.03..0.07).contains(&share), "{share}");
    }
}
