//! Customers, suppliers and people: ABNs, trading names, contacts and account terms of a
//! Sydney and regional NSW customer base.

use std::collections::HashSet;

use super::party_data::*;
use super::records::{GenCustomer, GenPerson, GenSupplier};
use super::rng::Rng;

/// A valid 11-digit Australian Business Number (weighted checksum modulo 89).
fn abn(rng: &mut Rng) -> String {
    const WEIGHTS: [u64; 11] = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
    let mut d = [0u64; 11];
    for x in d.iter_mut().skip(2) {
        *x = rng.below(10);
    }
    let rest: u64 = (2..11).map(|i| WEIGHTS[i] * d[i]).sum();
    let need = (89 - rest % 89) % 89;
    d[0] = need / 10 + 1;
    d[1] = need % 10;
    d.iter().map(|x| char::from(b'0' + *x as u8)).collect()
}

/// Lower-case ASCII letters and digits of `text`, at most `max` of them.
fn slug(text: &str, max: usize) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .take(max)
        .collect()
}

/// A random run of `n` decimal digits.
fn digits(rng: &mut Rng, n: usize) -> String {
    (0..n)
        .map(|_| char::from(b'0' + rng.below(10) as u8))
        .collect()
}

/// `n` customers with unique names and codes across Sydney and regional NSW. The first 17 use
/// payment types 1..=17 in turn and the first 6 area types 1..=6, so small sets still cover them.
pub fn customers(n: usize, seed: u64) -> Vec<GenCustomer> {
    let mut rng = Rng::new(seed ^ 0x6375_7374_6F6D_6572);
    let mut names: HashSet<String> = HashSet::with_capacity(n);
    let mut codes: HashSet<String> = HashSet::with_capacity(n);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let area = if i < 6 {
            i as i32 + 1
        } else {
            [1, 2, 3, 4, 5, 6][rng.weighted(&[15, 15, 15, 25, 15, 15])]
        };
        let local: Vec<&Place> = PLACES.iter().filter(|p| p.2 == area).collect();
        let &&(suburb, postal, _, lead) = rng.pick(&local);
        let first = (*rng.pick(FIRST_NAMES)).to_string();
        let last = (*rng.pick(LAST_NAMES)).to_string();

        // Trading name: a few draws, then the suburb, then a number to stay unique.
        let mut name = String::new();
        let mut business_type = 1;
        let mut person = false;
        for _ in 0..12 {
            let (candidate, bt, is_person) = customer_name(&mut rng, suburb, &first, &last);
            name = candidate;
            business_type = bt;
            person = is_person;
            if !names.contains(&name) {
                break;
            }
        }
        if names.contains(&name) && !name.contains(suburb) {
            name = match name.strip_suffix(" Pty Ltd") {
                Some(stem) => format!("{stem} {suburb} Pty Ltd"),
                None => format!("{name} {suburb}"),
            };
        }
        let base = name.clone();
        let mut k = 2;
        while names.contains(&name) {
            name = format!("{base} {k}");
            k += 1;
        }
        names.insert(name.clone());

        // Account code: mostly an ABN, some 6-character codes, a few starting with C.
        let code = loop {
            let roll = rng.below(100);
            let candidate = if roll < 80 {
                abn(&mut rng)
            } else if roll < 94 {
                let letters: String = name
                    .chars()
                    .filter(char::is_ascii_alphabetic)
                    .map(|c| c.to_ascii_uppercase())
                    .take(4)
                    .collect();
                format!("{letters:X<4}{:02}", rng.below(100))
            } else {
                format!("C{}", rng.range_i64(10_000, 99_999))
            };
            if codes.insert(candidate.clone()) {
                break candidate;
            }
        };

        let payment_type = if i < 17 {
            i as i32 + 1
        } else if person {
            *rng.pick(&[5, 6, 7])
        } else {
            1 + rng.weighted(&[6, 5, 6, 4, 4, 5, 5, 3, 3, 10, 3, 8, 6, 15, 12, 3, 2]) as i32
        };
        let price_strategy = 1 + rng.weighted(&[20, 15, 10, 8, 7, 10, 30]) as i32;
        let cash_terms = payment_type <= 8 || payment_type == 10;
        let no_credit = if cash_terms {
            rng.chance(90)
        } else {
            rng.chance(10)
        };
        let credit_limit_cents = if no_credit {
            0
        } else {
            rng.range_i64(20, 500) * 10_000
        };
        let xero_balance_cents = if credit_limit_cents == 0 {
            match rng.below(100) {
                0..=69 => 0,
                70..=94 => rng.range_i64(5_000, 300_000),
                _ => -rng.range_i64(2_000, 50_000),
            }
        } else {
            match rng.below(100) {
                0..=14 => 0,
                15..=21 => credit_limit_cents * rng.range_i64(101, 150) / 100,
                _ => rng.range_i64(0, credit_limit_cents),
            }
        };
        let default_ship_type = if area == 6 || rng.chance(75) { 1 } else { 2 };

        let slug_name = slug(name.trim_end_matches(" Pty Ltd"), 28);
        let email = if person {
            let domain = *rng.pick(&["gmail.com", "bigpond.com", "outlook.com", "icloud.com"]);
            format!(
                "{}.{}{}@{domain}",
                slug(&first, 20),
                slug(&last, 20),
                rng.range_i64(1, 99)
            )
        } else {
            let local_part = match rng.below(4) {
                0 => "accounts".to_string(),
                1 => "admin".to_string(),
                2 => "info".to_string(),
                _ => slug(&first, 20),
            };
            format!("{local_part}@{slug_name}.com.au")
        };
        let website = if !person && rng.chance(40) {
            format!("www.{slug_name}.com.au")
        } else {
            String::new()
        };
        let attention = match rng.below(5) {
            0 | 1 if !person => "Accounts Payable".to_string(),
            2 if !person => "Workshop Manager".to_string(),
            3 => format!("{first} {last}"),
            _ => String::new(),
        };
        let phone_digits = format!("{lead}{}", digits(&mut rng, 8 - lead.len()));
        let phone = format!("(02) {} {}", &phone_digits[..4], &phone_digits[4..]);
        let mobile = format!(
            "04{} {} {}",
            digits(&mut rng, 2),
            digits(&mut rng, 3),
            digits(&mut rng, 3)
        );
        let unit = if rng.chance(20) {
            format!("Unit {}, ", rng.range_i64(1, 20))
        } else {
            String::new()
        };
        let address = format!("{unit}{} {}", rng.range_i64(1, 420), rng.pick(STREETS));
        let origin_code = if rng.chance(30) {
            format!("CUS{:05}", rng.range_i64(1, 99_999))
        } else {
            String::new()
        };
        let note = if rng.chance(30) {
            (*rng.pick(NOTES)).to_string()
        } else {
            String::new()
        };

        out.push(GenCustomer {
            name,
            code,
            origin_code,
            attention,
            first,
            last,
            phone,
            mobile,
            email,
            address,
            city: suburb.to_string(),
            state: "NSW".to_string(),
            postal: postal.to_string(),
            price_strategy,
            payment_type,
            area_type: area,
            business_type,
            default_ship_type,
            credit_limit_cents,
            xero_balance_cents,
            note,
            website,
        });
    }
    out
}

/// One trading name for a customer in `suburb`: (name, business type, is a private person).
fn customer_name(rng: &mut Rng, suburb: &str, first: &str, last: &str) -> (String, i32, bool) {
    if rng.chance(6) {
        let bt = if rng.chance(50) { 5 } else { 7 };
        return (format!("{first} {last}"), bt, true);
    }
    let &(template, bt) = rng.pick(CUSTOMER_TEMPLATES);
    let regions: Vec<&str> = REGIONS
        .iter()
        .filter(|r| r.1.contains(&suburb))
        .map(|r| r.0)
        .collect();
    let place = if regions.is_empty() || rng.chance(70) {
        suburb
    } else {
        *rng.pick(&regions)
    };
    let surname = *rng.pick(LAST_NAMES);
    let initials = format!(
        "{}{}",
        char::from(b'A' + rng.below(26) as u8),
        char::from(b'A' + rng.below(26) as u8)
    );
    let mut name = template
        .replace("{P}", place)
        .replace("{S}", surname)
        .replace("{I}", &initials);
    if rng.chance(12) {
        name.push_str(" Pty Ltd");
    }
    (name, bt, false)
}

/// `n` suppliers with unique codes and names: real-world importers first, then generated ones.
pub fn suppliers(n: usize, seed: u64) -> Vec<GenSupplier> {
    let mut rng = Rng::new(seed ^ 0x7375_7070_6C69_6572);
    let adjectives = [
        "Pacific",
        "Southern Cross",
        "Harbour",
        "Coastal",
        "National",
        "Eastern",
        "Allied",
        "Premier",
        "Metro",
        "Global",
    ];
    let nouns = [
        "Tyre Imports",
        "Wheel Distributors",
        "Auto Parts",
        "Tyre Wholesale",
        "Battery Supplies",
        "Trading",
    ];
    let mut names: HashSet<String> = HashSet::with_capacity(n);
    (0..n)
        .map(|i| {
            let mut name = match SUPPLIER_NAMES.get(i) {
                Some(known) => (*known).to_string(),
                None => format!("{} {} Pty Ltd", rng.pick(&adjectives), rng.pick(&nouns)),
            };
            let base = name.clone();
            let mut k = 2;
            while names.contains(&name) {
                name = format!("{base} ({k})");
                k += 1;
            }
            names.insert(name.clone());
            let letters: String = name
                .chars()
                .filter(char::is_ascii_alphabetic)
                .map(|c| c.to_ascii_uppercase())
                .take(3)
                .collect();
            GenSupplier {
                code: format!("{letters}{:03}", i + 1),
                name,
                first: (*rng.pick(FIRST_NAMES)).to_string(),
                last: (*rng.pick(LAST_NAMES)).to_string(),
            }
        })
        .collect()
}

/// `n` people with plain ASCII-letter names, distinct pairs while the name lists allow it.
pub fn people(n: usize, seed: u64) -> Vec<GenPerson> {
    let mut rng = Rng::new(seed ^ 0x7065_6F70_6C65_0001);
    let mut seen: HashSet<(usize, usize)> = HashSet::with_capacity(n);
    let capacity = FIRST_NAMES.len() * LAST_NAMES.len();
    (0..n)
        .map(|_| {
            let mut pair = (
                rng.below(FIRST_NAMES.len() as u64) as usize,
                rng.below(LAST_NAMES.len() as u64) as usize,
            );
            if seen.len() < capacity {
                while seen.contains(&pair) {
                    pair = (
                        rng.below(FIRST_NAMES.len() as u64) as usize,
                        rng.below(LAST_NAMES.len() as u64) as usize,
                    );
                }
            }
            seen.insert(pair);
            GenPerson {
                first: FIRST_NAMES[pair.0].to_string(),
                last: LAST_NAMES[pair.1].to_string(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn customer_names_unique_at_5k() {
        let cs = customers(5_000, 31);
        let names: HashSet<&str> = cs.iter().map(|c| c.name.as_str()).collect();
        let codes: HashSet<&str> = cs.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(names.len(), cs.len());
        assert_eq!(codes.len(), cs.len());
        let big = customers(20_000, 1);
        assert_eq!(
            big.iter()
                .map(|c| c.name.as_str())
                .collect::<HashSet<_>>()
                .len(),
            20_000
        );
        assert_eq!(
            big.iter()
                .map(|c| c.code.as_str())
                .collect::<HashSet<_>>()
                .len(),
            20_000
        );
    }

    #[test]
    fn customer_fields_are_plausible() {
        let cs = customers(5_000, 77);
        let n = cs.len() as f64;
        let frac = |f: &dyn Fn(&GenCustomer) -> bool| cs.iter().filter(|c| f(c)).count() as f64 / n;
        let abns = frac(&|c| c.code.len() == 11 && c.code.chars().all(|d| d.is_ascii_digit()));
        let six = frac(&|c| c.code.len() == 6);
        let with_c = frac(&|c| c.code.starts_with('C') && c.code.len() == 6);
        let cbd = frac(&|c| c.payment_type == 10);
        let no_credit = frac(&|c| c.credit_limit_cents == 0);
        let vip = frac(&|c| c.price_strategy == 6);
        let over =
            frac(&|c| c.credit_limit_cents > 0 && c.xero_balance_cents > c.credit_limit_cents);
        println!(
            "abn {abns:.2} six {six:.2} C {with_c:.3} cbd {cbd:.3} no-credit {no_credit:.2} vip {vip:.3} over-limit {over:.3}"
        );
        assert!(abns > 0.7 && six > 0.1 && with_c > 0.02);
        assert!((0.07..0.13).contains(&cbd));
        assert!((0.4..0.6).contains(&no_credit));
        assert!((0.07..0.13).contains(&vip));
        assert!(over > 0.02);
        for c in &cs {
            if c.code.len() == 11 {
                const W: [u32; 11] = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
                let d: Vec<u32> = c.code.chars().filter_map(|x| x.to_digit(10)).collect();
                let sum: u32 = (0..11)
                    .map(|i| W[i] * if i == 0 { d[0] - 1 } else { d[i] })
                    .sum();
                assert_eq!(sum % 89, 0, "ABN {}", c.code);
            }
            assert!(
                c.email.is_ascii() && c.email.contains('@') && !c.email.contains(' '),
                "{}",
                c.email
            );
            assert!((1..=7).contains(&c.price_strategy) && (1..=17).contains(&c.payment_type));
            assert!(
                (1..=6).contains(&c.area_type)
                    && (1..=7).contains(&c.business_type)
                    && (1..=2).contains(&c.default_ship_type)
            );
            assert!(
                c.credit_limit_cents == 0 || (200_000..=5_000_000).contains(&c.credit_limit_cents)
            );
            assert_eq!(c.state, "NSW");
            assert_eq!(c.postal.len(), 4);
            assert_eq!(c.phone.len(), "(02) 9123 4567".len(), "{}", c.phone);
        }
    }

    #[test]
    fn regions_name_known_suburbs() {
        for (region, suburbs) in REGIONS {
            for s in *suburbs {
                assert!(PLACES.iter().any(|p| p.0 == *s), "{region}: {s}");
            }
        }
    }

    #[test]
    fn every_payment_and_area_type_at_40() {
        let cs = customers(40, 9);
        let pays: HashSet<i32> = cs.iter().map(|c| c.payment_type).collect();
        let areas: HashSet<i32> = cs.iter().map(|c| c.area_type).collect();
        assert_eq!(pays, (1..=17).collect());
        assert_eq!(areas, (1..=6).collect());
    }

    #[test]
    fn people_and_suppliers() {
        let ps = people(200, 7);
        assert_eq!(ps.len(), 200);
        for p in &ps {
            assert!(
                !p.first.is_empty() && p.first.chars().all(|c| c.is_ascii_alphabetic()),
                "{}",
                p.first
            );
            assert!(
                !p.last.is_empty() && p.last.chars().all(|c| c.is_ascii_alphabetic()),
                "{}",
                p.last
            );
        }
        let pairs: HashSet<(&str, &str)> = ps
            .iter()
            .map(|p| (p.first.as_str(), p.last.as_str()))
            .collect();
        assert_eq!(pairs.len(), ps.len());
        assert!(
            FIRST_NAMES
                .iter()
                .chain(LAST_NAMES)
                .all(|n| n.chars().all(|c| c.is_ascii_alphabetic()))
        );
        let ss = suppliers(60, 4);
        assert_eq!(
            ss.iter()
                .map(|s| s.code.as_str())
                .collect::<HashSet<_>>()
                .len(),
            60
        );
        assert_eq!(
            ss.iter()
                .map(|s| s.name.as_str())
                .collect::<HashSet<_>>()
                .len(),
            60
        );
    }
}
