//! Deterministic master data for demo and benchmark seeding: brands, warehouses, products,
//! customers, suppliers and people of an Australian tyre, wheel, battery and parts wholesaler.
//!
//! Everything is derived from a seed through a small splitmix64 generator, so the same arguments
//! always give the same rows. Prices are in AUD cents, GST inclusive.

mod names;
mod parties;
mod products;
mod records;
mod rng;

// The data tables; the modules above build the catalogue from them.
mod party_data;
mod product_data;

pub use parties::{customers, people, suppliers};
pub use products::{brands, products, warehouses};
pub use records::{GenBrand, GenCustomer, GenPerson, GenProduct, GenSupplier, GenWarehouse};
pub use rng::Rng;

// What the product tables are written in (product_data.rs takes them from here).
use products::{BrandDef, Kind, SizeClass, Tier, bd};

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn generators_are_deterministic() {
        assert_eq!(products(600, 42), products(600, 42));
        assert_eq!(customers(300, 42), customers(300, 42));
        assert_eq!(suppliers(20, 42), suppliers(20, 42));
        assert_eq!(people(30, 42), people(30, 42));
        assert_ne!(products(600, 42), products(600, 43));
        assert_ne!(customers(300, 42), customers(300, 43));
        assert_eq!(brands(), brands());
        assert_eq!(warehouses(), warehouses());
    }

    /// The samples a person reads with `cargo test print_samples -- --nocapture`, each checked
    /// as it is printed: the text is the same on a second run, every sample is unique in its
    /// set and within the limits the forms and Xero hold such records to, and the category
    /// counts cover the 400 products.
    #[test]
    fn print_samples() {
        use std::collections::BTreeMap;
        use std::fmt::Write;
        fn render() -> String {
            let mut out = String::new();
            let ps = products(400, 17 * 4);
            writeln!(out, "--- sample products ---").unwrap();
            for p in ps.iter().skip(8).take(10) {
                writeln!(
                    out,
                    "{:<18} {:<50} | {} | {} | helper {} | cost {} std {} A {} | {} {} {}",
                    p.code,
                    p.name,
                    p.category_path,
                    p.brand,
                    p.helper_code,
                    p.cost_cents,
                    p.standard_cents,
                    p.class_a_cents,
                    p.tag2,
                    p.tag3,
                    p.tag4
                )
                .unwrap();
            }
            for p in ps.iter().filter(|p| p.is_virtual).take(3) {
                writeln!(
                    out,
                    "{:<18} {:<50} | virtual std {}",
                    p.code, p.name, p.standard_cents
                )
                .unwrap();
            }
            let mut per_cat: BTreeMap<&str, usize> = BTreeMap::new();
            for p in &ps {
                *per_cat.entry(p.category_path).or_default() += 1;
            }
            writeln!(out, "categories at 400: {per_cat:?}").unwrap();
            writeln!(out, "--- sample customers ---").unwrap();
            for c in customers(60, 4 * 31).iter().take(5) {
                writeln!(out, "{c:?}").unwrap();
            }
            writeln!(out, "--- suppliers/people ---").unwrap();
            for s in suppliers(3, 4) {
                writeln!(out, "{} {} ({} {})", s.code, s.name, s.first, s.last).unwrap();
            }
            writeln!(out, "{:?}", people(4, 7)).unwrap();
            out
        }
        let text = render();
        println!("{text}");
        assert_eq!(text, render(), "the samples are the same on every run");
        assert_eq!(text.lines().count(), 1 + 10 + 3 + 1 + 1 + 5 + 1 + 3 + 1);

        // The products: ten plain ones and three services, out of a set of 400.
        let ps = products(400, 17 * 4);
        assert_eq!(ps.len(), 400);
        let codes: HashSet<&str> = ps.iter().map(|p| p.code.as_str()).collect();
        let names: HashSet<&str> = ps.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            (codes.len(), names.len()),
            (400, 400),
            "codes and names are unique"
        );
        let brand_names: HashSet<String> = brands().into_iter().map(|b| b.name).collect();
        let categories = [
            "Autoparts",
            "Batteries/AGM",
            "Batteries/SMF",
            "PCR tyres",
            "TBR tyres",
            "Trailer tyres & Wheel",
            "Wheels/Alloy",
            "Wheels/Steel",
        ];
        let shown: Vec<&GenProduct> = ps.iter().skip(8).take(10).collect();
        assert_eq!(shown.len(), 10);
        for p in &shown {
            assert!(
                !p.code.is_empty() && p.code.is_ascii() && !p.code.contains(' '),
                "{}",
                p.code
            );
            assert!(
                p.code.len() <= domain::xero::ITEM_CODE_MAX,
                "Xero takes the code: {}",
                p.code
            );
            assert!(
                !p.name.is_empty() && p.name == p.name.trim(),
                "{:?}",
                p.name
            );
            assert!(
                p.name.chars().count() <= domain::validate::PRODUCT_NAME_MAX,
                "{}",
                p.name
            );
            assert!(categories.contains(&p.category_path), "{}", p.category_path);
            assert!(
                brand_names.contains(&p.brand),
                "{}: brand {}",
                p.name,
                p.brand
            );
            assert!(!p.helper_code.is_empty(), "{}", p.name);
            assert!(!p.is_virtual, "{}", p.name);
            assert!(
                0 < p.cost_cents
                    && p.cost_cents < p.class_a_cents
                    && p.class_a_cents < p.standard_cents,
                "{}",
                p.name
            );
        }
        let services: Vec<&GenProduct> = ps.iter().filter(|p| p.is_virtual).take(3).collect();
        assert_eq!(services.len(), 3);
        for p in &services {
            assert_eq!(p.category_path, "Autoparts", "{}", p.name);
            assert!(
                p.standard_cents > 0 && !p.code.is_empty() && !p.name.is_empty(),
                "{}",
                p.name
            );
        }
        let mut per_cat: BTreeMap<&str, usize> = BTreeMap::new();
        for p in &ps {
            *per_cat.entry(p.category_path).or_default() += 1;
        }
        assert_eq!(
            per_cat.keys().copied().collect::<Vec<_>>(),
            categories,
            "every category, no other"
        );
        assert_eq!(per_cat.values().sum::<usize>(), 400);

        // The customers: five of a set of 60.
        let cs = customers(60, 4 * 31);
        assert_eq!(
            cs.iter()
                .map(|c| c.name.as_str())
                .collect::<HashSet<_>>()
                .len(),
            60
        );
        assert_eq!(
            cs.iter()
                .map(|c| c.code.as_str())
                .collect::<HashSet<_>>()
                .len(),
            60
        );
        for c in cs.iter().take(5) {
            assert!(
                !c.name.is_empty() && c.name.chars().count() <= domain::limits::NAME_MAX,
                "{}",
                c.name
            );
            assert!(
                !c.code.is_empty() && c.code.chars().count() <= domain::limits::SHORT_MAX,
                "{}",
                c.code
            );
            assert!(
                c.email.contains('@') && c.email.chars().count() <= domain::limits::SHORT_MAX,
                "{}",
                c.email
            );
            assert!(
                c.phone.chars().count() <= domain::limits::PHONE_MAX
                    && c.mobile.chars().count() <= domain::limits::PHONE_MAX,
                "{c:?}"
            );
            assert!(
                !c.address.is_empty() && c.address.chars().count() <= domain::limits::ADDRESS_MAX,
                "{}",
                c.address
            );
            assert!(!c.city.is_empty() && c.postal.len() == 4, "{c:?}");
        }

        // The suppliers and people.
        let ss = suppliers(3, 4);
        assert_eq!(ss.len(), 3);
        assert_eq!(
            ss.iter()
                .map(|s| s.code.as_str())
                .collect::<HashSet<_>>()
                .len(),
            3
        );
        assert_eq!(
            ss.iter()
                .map(|s| s.name.as_str())
                .collect::<HashSet<_>>()
                .len(),
            3
        );
        for s in &ss {
            assert!(
                !s.code.is_empty() && !s.first.is_empty() && !s.last.is_empty(),
                "{s:?}"
            );
            assert!(
                s.name.chars().count() <= domain::limits::NAME_MAX,
                "{}",
                s.name
            );
        }
        let ps = people(4, 7);
        assert_eq!(ps.len(), 4);
        assert_eq!(
            ps.iter()
                .map(|p| (p.first.as_str(), p.last.as_str()))
                .collect::<HashSet<_>>()
                .len(),
            4
        );
    }
}
