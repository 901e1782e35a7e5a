//! Tyre sizes in the ways staff type them, for search: parsing, a canonical form and the digits-only helper code.
//!
//! Accepted shapes (any case, spaces allowed between parts):
//! - metric `205/55R16`, `205/55 R16`, `205/55ZR16`, `205 55 16`, `205/55-16`, `205-55-16`, `205/55/16`;
//! - compact helper codes `2055516` and `2958022.5`;
//! - without profile `195R14C`, `11R22.5`, `7.50R16`, bias `7.50-16`, `4.80-8`;
//! - LT flotation `31x10.50R15`;
//! - an optional `LT` or `P` prefix, `C` (commercial) or `LT` suffix, and a service description
//!   such as `91V`, `91 V`, `102/100R` or `94(W)`.
//!
//! A `-` after a metric profile is read as a typed separator, not as bias construction: no metric
//! car sizes are bias-ply, and staff type `205/55-16` meaning `205/55R16`.

use std::fmt;

/// How the carcass is built, as written in the size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Construction {
    /// `R`, also assumed when the size is typed without a letter.
    Radial,
    /// `ZR`: radial rated above 240 km/h.
    ZRated,
    /// `-` in inch sizes such as `7.50-16`: bias ply.
    Bias,
}

impl Construction {
    /// The letters written between profile and rim.
    pub const fn symbol(self) -> &'static str {
        match self {
            Self::Radial => "R",
            Self::ZRated => "ZR",
            Self::Bias => "-",
        }
    }
}

/// A parsed tyre size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TyreSize {
    /// Marked light truck by an `LT` prefix or suffix.
    pub light_truck: bool,
    /// The overall diameter in inches of a flotation size (`31` in `31x10.50R15`).
    pub diameter: Option<u16>,
    /// Section width: millimetres ("205"), or inches ("11", "7.50", "10.50") for inch and flotation sizes.
    pub width: String,
    /// Aspect ratio in percent; `None` for sizes written without one (`195R14C`, `11R22.5`, flotation).
    pub profile: Option<u16>,
    /// Radial, ZR or bias.
    pub construction: Construction,
    /// Rim diameter in inches: "16" or "22.5".
    pub rim: String,
    /// Marked commercial by a `C` after the rim.
    pub commercial: bool,
    /// Load index (the single-tyre index when two are given).
    pub load_index: Option<u16>,
    /// Dual-fitment load index (`100` in `102/100R`).
    pub load_index_dual: Option<u16>,
    /// Speed symbol (`V` in `91V`).
    pub speed_rating: Option<char>,
}

impl TyreSize {
    /// The digits-only code staff search by: width, profile and rim with separators removed.
    ///
    /// A rim's decimal point is kept ("2958022.5", "1122.5") because "29580225" would read as a
    /// 225-inch rim; inch widths lose theirs ("7.50R16" → "75016", "31x10.50R15" → "31105015").
    /// The `C` and `LT` marks are dropped so commercial and passenger sizes of one dimension meet.
    pub fn helper_code(&self) -> String {
        let width: String = self.width.chars().filter(char::is_ascii_digit).collect();
        let diameter = self.diameter.map(|d| d.to_string()).unwrap_or_default();
        let profile = self.profile.map(|p| p.to_string()).unwrap_or_default();
        format!("{diameter}{width}{profile}{}", self.rim)
    }

    /// The canonical size, e.g. "205/55R16", "195R14C", "LT265/75R16", "31x10.50R15".
    pub fn normalized(&self) -> String {
        let lt = if self.light_truck { "LT" } else { "" };
        let c = if self.commercial { "C" } else { "" };
        let cons = self.construction.symbol();
        let (width, rim) = (&self.width, &self.rim);
        match (self.diameter, self.profile) {
            (Some(d), _) => format!("{lt}{d}x{width}{cons}{rim}{c}"),
            (None, Some(p)) => format!("{lt}{width}/{p}{cons}{rim}{c}"),
            (None, None) => format!("{lt}{width}{cons}{rim}{c}"),
        }
    }

    /// The load index and speed symbol, e.g. "91V" or "102/100R", when given.
    pub fn service_description(&self) -> Option<String> {
        let load = self.load_index?;
        let speed = self.speed_rating?;
        Some(match self.load_index_dual {
            Some(dual) => format!("{load}/{dual}{speed}"),
            None => format!("{load}{speed}"),
        })
    }
}

impl fmt::Display for TyreSize {
    /// The canonical size followed by the service description, e.g. "205/55R16 91V".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.normalized())?;
        if let Some(service) = self.service_description() {
            write!(f, " {service}")?;
        }
        Ok(())
    }
}

/// Parses a whole text as one tyre size; anything left over (a brand, "XL") makes it `None`.
pub fn parse(text: &str) -> Option<TyreSize> {
    let cleaned = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_uppercase();
    if cleaned.is_empty() || !cleaned.is_ascii() {
        return None;
    }
    let mut start = Cursor {
        s: &cleaned,
        pos: 0,
    };
    let lt_prefix = start.eat_str("LT");
    if !lt_prefix {
        start.eat(b'P');
    }
    let shapes: [fn(&mut Cursor<'_>) -> Option<Body>; 4] =
        [compact, flotation, metric, without_profile];
    shapes.iter().find_map(|shape| {
        let mut cursor = start;
        let body = shape(&mut cursor)?;
        finish(cursor, body, lt_prefix)
    })
}

/// The most tokens a typed size spans, e.g. "205 / 55 R 16 91 V".
const MAX_SIZE_TOKENS: usize = 8;

/// Finds the first tyre size inside a free-text query and returns it with the rest of the query.
///
/// "michelin 205/55r16 91v" gives 205/55R16 91V and "michelin". The leftmost size wins, and
/// from there the longest run of words that still reads as one size.
pub fn parse_query(query: &str) -> Option<(TyreSize, String)> {
    let tokens: Vec<&str> = query.split_whitespace().collect();
    for start in 0..tokens.len() {
        let longest = tokens.len().min(start + MAX_SIZE_TOKENS);
        for end in (start + 1..=longest).rev() {
            if let Some(size) = parse(&tokens[start..end].join(" ")) {
                let rest: Vec<&str> = tokens[..start]
                    .iter()
                    .chain(&tokens[end..])
                    .copied()
                    .collect();
                return Some((size, rest.join(" ")));
            }
        }
    }
    None
}

/// Tyre-size keywords offered locally while typing (spec §2.5): common Australian passenger, SUV, 4WD and van sizes, in code order.
pub const COMMON_SIZES: [&str; 37] = [
    "1756514", "1856014", "1856514", "1856515", "1955516", "1956015", "1956515", "1957015",
    "2055516", "2056015", "2056016", "2154517", "2155017", "2155517", "2156016", "2156017",
    "2156516", "2254018", "2254517", "2255017", "2256017", "2354018", "2354517", "2356018",
    "2356517", "2357016", "2454018", "2454518", "2456517", "2457016", "2553519", "2656018",
    "2656517", "2657016", "2657017", "2657516", "2857516",
];

/// Up to `limit` common sizes whose helper code starts with the digits typed so far ("205/5" → 20555…).
pub fn suggest(typed: &str, limit: usize) -> Vec<&'static str> {
    let digits: String = typed.chars().filter(char::is_ascii_digit).collect();
    if digits.is_empty() {
        return Vec::new();
    }
    COMMON_SIZES
        .iter()
        .copied()
        .filter(|code| code.starts_with(&digits))
        .take(limit)
        .collect()
}

/// The dimensions of a size before its marks and service description.
struct Body {
    diameter: Option<u16>,
    width: String,
    profile: Option<u16>,
    construction: Construction,
    rim: String,
}

/// A number as typed: integer digits and optional decimal digits.
#[derive(Clone, Copy)]
struct Num<'a> {
    int: &'a str,
    frac: Option<&'a str>,
}

/// A position in an upper-cased ASCII text; copied to try another reading from the same place.
#[derive(Clone, Copy)]
struct Cursor<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.pos).copied()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let hit = self.peek() == Some(byte);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn eat_str(&mut self, text: &str) -> bool {
        let hit = self
            .s
            .get(self.pos..)
            .is_some_and(|rest| rest.starts_with(text));
        if hit {
            self.pos += text.len();
        }
        hit
    }

    fn spaces(&mut self) -> bool {
        let start = self.pos;
        while self.eat(b' ') {}
        self.pos > start
    }

    fn digits(&mut self) -> Option<&'a str> {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        // The text is ASCII, so every byte index is a char boundary.
        self.s.get(start..self.pos).filter(|d| !d.is_empty())
    }

    fn number(&mut self) -> Option<Num<'a>> {
        let int = self.digits()?;
        let before_point = self.pos;
        let frac = if self.eat(b'.') { self.digits() } else { None };
        if frac.is_none() {
            self.pos = before_point;
        }
        Some(Num { int, frac })
    }

    fn at_end(&self) -> bool {
        self.pos == self.s.len()
    }
}

/// The integer value of `digits` when its length is in `len` and it has no leading zero.
fn int_value(digits: &str, len: std::ops::RangeInclusive<usize>) -> Option<u16> {
    if !len.contains(&digits.len()) || (digits.len() > 1 && digits.starts_with('0')) {
        return None;
    }
    digits.parse().ok()
}

/// A metric section width: three digits from 105 to 455 ending in 5.
fn metric_width(n: Num<'_>) -> Option<String> {
    if n.frac.is_some() {
        return None;
    }
    let v = int_value(n.int, 3..=3)?;
    ((105..=455).contains(&v) && v % 10 == 5).then(|| n.int.to_owned())
}

/// An aspect ratio from 20 to 95.
fn profile(n: Num<'_>) -> Option<u16> {
    if n.frac.is_some() {
        return None;
    }
    int_value(n.int, 2..=2).filter(|v| (20..=95).contains(v))
}

/// A rim diameter from 8 to 30 inches, whole or ending in .5.
fn rim(n: Num<'_>) -> Option<String> {
    let v = int_value(n.int, 1..=2)?;
    if !(8..=30).contains(&v) {
        return None;
    }
    match n.frac {
        None => Some(n.int.to_owned()),
        Some("5") => Some(format!("{}.5", n.int)),
        Some(_) => None,
    }
}

/// An inch width written with decimals ("7.50", "10.5"), from 4 to 17 inches, kept with two decimals.
fn decimal_inch_width(n: Num<'_>) -> Option<String> {
    let frac = n.frac.filter(|f| f.len() <= 2)?;
    let v = int_value(n.int, 1..=2)?;
    (4..=17)
        .contains(&v)
        .then(|| format!("{}.{frac:0<2}", n.int))
}

/// The mark between profile (or width) and rim.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Radial,
    ZRated,
    Dash,
    Slash,
}

fn mark(c: &mut Cursor<'_>) -> Option<Mark> {
    if c.eat_str("ZR") {
        Some(Mark::ZRated)
    } else if c.eat(b'R') {
        Some(Mark::Radial)
    } else if c.eat(b'-') {
        Some(Mark::Dash)
    } else if c.eat(b'/') {
        Some(Mark::Slash)
    } else {
        None
    }
}

/// The mark (or just a space) and the rim after a profile or flotation width.
fn mark_and_rim(c: &mut Cursor<'_>) -> Option<(Option<Mark>, String)> {
    let spaced = c.spaces();
    let found = mark(c);
    c.spaces();
    if found.is_none() && !spaced {
        return None;
    }
    Some((found, rim(c.number()?)?))
}

/// `2055516`, `2958022.5`: width, profile and rim run together.
fn compact(c: &mut Cursor<'_>) -> Option<Body> {
    let n = c.number()?;
    let (width, rest) = n.int.split_at_checked(3).filter(|_| n.int.len() == 7)?;
    let (prof, rim_int) = rest.split_at_checked(2)?;
    let width = metric_width(Num {
        int: width,
        frac: None,
    })?;
    let profile = profile(Num {
        int: prof,
        frac: None,
    })?;
    // A compact rim always has two digits, so it starts at 10.
    let rim = rim(Num {
        int: rim_int,
        frac: n.frac,
    })
    .filter(|_| !rim_int.starts_with('0'))?;
    Some(Body {
        diameter: None,
        width,
        profile: Some(profile),
        construction: Construction::Radial,
        rim,
    })
}

/// `31x10.50R15`: overall diameter × width, then rim.
fn flotation(c: &mut Cursor<'_>) -> Option<Body> {
    let d = c.number()?;
    let diameter = int_value(d.int, 2..=2).filter(|v| d.frac.is_none() && (20..=45).contains(v))?;
    c.spaces();
    if !c.eat(b'X') {
        return None;
    }
    c.spaces();
    let w = c.number()?;
    let width = match w.frac {
        Some(_) => decimal_inch_width(w)?,
        None => int_value(w.int, 1..=2)
            .filter(|v| (7..=17).contains(v))?
            .to_string(),
    };
    let (found, rim) = mark_and_rim(c)?;
    let construction = match found {
        Some(Mark::ZRated) => Construction::ZRated,
        Some(Mark::Dash) => Construction::Bias,
        _ => Construction::Radial,
    };
    Some(Body {
        diameter: Some(diameter),
        width,
        profile: None,
        construction,
        rim,
    })
}

/// `205/55R16` and the ways of typing it with spaces, dashes and slashes.
fn metric(c: &mut Cursor<'_>) -> Option<Body> {
    let width = metric_width(c.number()?)?;
    let spaced = c.spaces();
    let separated = c.eat(b'/') || c.eat(b'-');
    if !spaced && !separated {
        return None;
    }
    c.spaces();
    let profile = profile(c.number()?)?;
    let (found, rim) = mark_and_rim(c)?;
    let construction = if found == Some(Mark::ZRated) {
        Construction::ZRated
    } else {
        Construction::Radial
    };
    Some(Body {
        diameter: None,
        width,
        profile: Some(profile),
        construction,
        rim,
    })
}

/// `195R14C`, `11R22.5`, `7.50R16`, `7.50-16`: a width, a required mark and the rim.
fn without_profile(c: &mut Cursor<'_>) -> Option<Body> {
    let n = c.number()?;
    let decimal = decimal_inch_width(n);
    let width = match (&decimal, metric_width(n)) {
        (Some(inch), _) => inch.clone(),
        (None, Some(mm)) => mm,
        // Whole-inch widths are truck sizes such as 11R22.5 and 8R19.5.
        (None, None) => int_value(n.int, 1..=2)
            .filter(|v| n.frac.is_none() && (7..=14).contains(v))?
            .to_string(),
    };
    c.spaces();
    let construction = match mark(c)? {
        Mark::Radial => Construction::Radial,
        Mark::ZRated => Construction::ZRated,
        // Only decimal inch sizes are written bias; "12-15" is more likely a range than a tyre.
        Mark::Dash if decimal.is_some() => Construction::Bias,
        Mark::Dash | Mark::Slash => return None,
    };
    c.spaces();
    let rim = rim(c.number()?)?;
    Some(Body {
        diameter: None,
        width,
        profile: None,
        construction,
        rim,
    })
}

/// Speed symbols accepted after a load index (the slow-vehicle letters A–G are not tyre-shop sizes).
const SPEED_SYMBOLS: &[u8] = b"HJKLMNPQRSTUVWYZ";

/// A load index from 50 to 170.
fn load_index(digits: &str) -> Option<u16> {
    int_value(digits, 2..=3).filter(|v| (50..=170).contains(v))
}

/// `91V`, `91 V`, `102/100R`, `94(W)`: all or nothing.
fn service(c: &mut Cursor<'_>) -> Option<(u16, Option<u16>, char)> {
    c.spaces();
    let load = load_index(c.digits()?)?;
    let dual = if c.eat(b'/') {
        Some(load_index(c.digits()?)?)
    } else {
        None
    };
    c.spaces();
    let paren = c.eat(b'(');
    let speed = c.peek().filter(|b| SPEED_SYMBOLS.contains(b))?;
    c.pos += 1;
    if paren && !c.eat(b')') {
        return None;
    }
    Some((load, dual, char::from(speed)))
}

/// Reads the marks after the rim and the service description, and requires the end of the text.
fn finish(mut c: Cursor<'_>, body: Body, lt_prefix: bool) -> Option<TyreSize> {
    let commercial = c.eat(b'C');
    let lt_suffix = c.eat_str("LT");
    let mut probe = c;
    let service = service(&mut probe);
    if service.is_some() {
        c = probe;
    }
    c.spaces();
    if !c.at_end() {
        return None;
    }
    let (load_index, load_index_dual, speed_rating) = match service {
        Some((load, dual, speed)) => (Some(load), dual, Some(speed)),
        None => (None, None, None),
    };
    Some(TyreSize {
        light_truck: lt_prefix || lt_suffix,
        diameter: body.diameter,
        width: body.width,
        profile: body.profile,
        construction: body.construction,
        rim: body.rim,
        commercial,
        load_index,
        load_index_dual,
        speed_rating,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn size(text: &str) -> TyreSize {
        parse(text).unwrap_or_else(|| panic!("{text:?} should parse"))
    }

    #[test]
    fn every_way_of_typing_205_55_r16() {
        let inputs = [
            "2055516",
            "205/55R16",
            "205/55 R16",
            "205/55r16",
            "205/55 r 16",
            "205 55 16",
            "205/55-16",
            "205-55-16",
            "205/55/16",
            "205 / 55 R 16",
            "  205/55R16  ",
            "205\t55\t16",
            "P205/55R16",
            "p205/55r16",
        ];
        for text in inputs {
            let s = size(text);
            assert_eq!(s.normalized(), "205/55R16", "{text:?}");
            assert_eq!(s.helper_code(), "2055516", "{text:?}");
            assert_eq!(s.width, "205");
            assert_eq!(s.profile, Some(55));
            assert_eq!(s.rim, "16");
            assert_eq!(s.construction, Construction::Radial);
            assert!(!s.commercial && !s.light_truck);
            assert_eq!((s.load_index, s.speed_rating), (None, None));
        }
    }

    #[test]
    fn accepted_sizes_normalize_and_code() {
        // (typed, normalized, helper code)
        let table = [
            ("205/55ZR16", "205/55ZR16", "2055516"),
            ("225/45zr17", "225/45ZR17", "2254517"),
            ("195R14C", "195R14C", "19514"),
            ("195r14c", "195R14C", "19514"),
            ("195/70R15C", "195/70R15C", "1957015"),
            ("1957015C", "195/70R15C", "1957015"),
            ("11R22.5", "11R22.5", "1122.5"),
            ("12 R 22.5", "12R22.5", "1222.5"),
            ("8R19.5", "8R19.5", "819.5"),
            ("295/80R22.5", "295/80R22.5", "2958022.5"),
            ("275/70R22.5", "275/70R22.5", "2757022.5"),
            ("2958022.5", "295/80R22.5", "2958022.5"),
            ("385/65R22.5", "385/65R22.5", "3856522.5"),
            ("31x10.50R15", "31x10.50R15", "31105015"),
            ("31X10.5R15", "31x10.50R15", "31105015"),
            ("33x12.50R20", "33x12.50R20", "33125020"),
            ("35 x 12.50 R 17", "35x12.50R17", "35125017"),
            ("LT31x10.50R15", "LT31x10.50R15", "31105015"),
            ("LT265/75R16", "LT265/75R16", "2657516"),
            ("lt265/75r16", "LT265/75R16", "2657516"),
            ("265/75R16LT", "LT265/75R16", "2657516"),
            ("LT2657516", "LT265/75R16", "2657516"),
            ("7.50R16", "7.50R16", "75016"),
            ("7.50-16", "7.50-16", "75016"),
            ("7.5-16", "7.50-16", "75016"),
            ("4.80-8", "4.80-8", "4808"),
            ("10.00R20", "10.00R20", "100020"),
            ("185R14C", "185R14C", "18514"),
            ("155R13", "155R13", "15513"),
            ("125/80R17", "125/80R17", "1258017"),
            ("255/35R19", "255/35R19", "2553519"),
            ("205/55R16.5", "205/55R16.5", "2055516.5"),
        ];
        for (typed, normalized, code) in table {
            let s = size(typed);
            assert_eq!(s.normalized(), normalized, "{typed:?}");
            assert_eq!(s.helper_code(), code, "{typed:?}");
            // The canonical form reads back as the same size.
            assert_eq!(
                parse(&s.normalized()),
                Some(s.clone()),
                "{typed:?} round trip"
            );
        }
    }

    #[test]
    fn fields_of_unusual_shapes() {
        let flotation = size("31x10.50R15");
        assert_eq!(flotation.diameter, Some(31));
        assert_eq!(flotation.width, "10.50");
        assert_eq!(flotation.profile, None);
        assert_eq!(flotation.rim, "15");
        let truck = size("11R22.5");
        assert_eq!(
            (truck.width.as_str(), truck.profile, truck.rim.as_str()),
            ("11", None, "22.5")
        );
        let van = size("195R14C");
        assert!(van.commercial);
        assert_eq!(van.profile, None);
        let bias = size("7.50-16");
        assert_eq!(bias.construction, Construction::Bias);
        assert_eq!(size("205/55ZR16").construction, Construction::ZRated);
        assert!(size("LT265/75R16").light_truck);
        assert!(
            !size("31x10.50R15").light_truck,
            "flotation is light truck by nature but not marked"
        );
    }

    #[test]
    fn service_descriptions() {
        // (typed, load, dual, speed, display)
        let table = [
            ("205/55R16 91V", 91, None, 'V', "205/55R16 91V"),
            ("205/55R16 91 V", 91, None, 'V', "205/55R16 91V"),
            ("205/55r16 91v", 91, None, 'V', "205/55R16 91V"),
            ("2055516 91V", 91, None, 'V', "205/55R16 91V"),
            ("205/55R16 91(V)", 91, None, 'V', "205/55R16 91V"),
            ("225/45ZR17 94W", 94, None, 'W', "225/45ZR17 94W"),
            (
                "195/70R15C 104/102R",
                104,
                Some(102),
                'R',
                "195/70R15C 104/102R",
            ),
            (
                "195/70R15C104/102R",
                104,
                Some(102),
                'R',
                "195/70R15C 104/102R",
            ),
            (
                "LT265/75R16 123/120Q",
                123,
                Some(120),
                'Q',
                "LT265/75R16 123/120Q",
            ),
            (
                "295/80R22.5 152/148M",
                152,
                Some(148),
                'M',
                "295/80R22.5 152/148M",
            ),
            ("11R22.5 148/145L", 148, Some(145), 'L', "11R22.5 148/145L"),
            ("31x10.50R15 109S", 109, None, 'S', "31x10.50R15 109S"),
            ("205 55 16 91 h", 91, None, 'H', "205/55R16 91H"),
        ];
        for (typed, load, dual, speed, display) in table {
            let s = size(typed);
            assert_eq!(s.load_index, Some(load), "{typed:?}");
            assert_eq!(s.load_index_dual, dual, "{typed:?}");
            assert_eq!(s.speed_rating, Some(speed), "{typed:?}");
            assert_eq!(s.to_string(), display, "{typed:?}");
        }
        assert_eq!(size("205/55R16").service_description(), None);
        assert_eq!(size("205/55R16").to_string(), "205/55R16");
    }

    #[test]
    fn rejects_what_is_not_a_tyre_size() {
        let rejects = [
            "",
            "   ",
            "michelin",
            "tyre",
            "205",
            "20555",
            "205551",
            "205/55",
            "205/55R",
            "R16",
            "0412345678",   // mobile number
            "0412 345 678", // mobile number with spaces
            "02 9876 5432", // landline
            "98765432",     // eight digits
            "9876543",      // seven digits but no 987 mm width
            "12345",
            "2000",       // a postcode
            "2024-05-16", // a date
            "12-15",      // a range
            "5-16",
            "200/55R16",   // widths end in 5
            "205/15R16",   // profile too low
            "205/55R40",   // rim too large
            "205/55R16.7", // rims end in .5 or nothing
            "205/55.5R16",
            "2055508", // a compact rim has two digits from 10
            "31x10.50",
            "99x10.50R15",
            "31x30R15",
            "11 22.5", // an inch size needs its R
            "195 14",
            "11R",
            "11-22.5",
            "205/55R16 abc",
            "205/55R16 91", // a load index needs its speed symbol
            "205/55R16 9V",
            "205/55R16 191V",
            "205/55R16 91X",
            "205/55R16 91VX",
            "205/55R16 91V 1",
            "205/55R16 91(V",
            "205/55R16 C",
            "205/55R16CC",
            "1/2/3",
            "LT",
            "P",
            "LTX",
            "PP205/55R16",
            "２０５/55R16",
            "205/55R16\u{e9}",
            "205//55R16",
        ];
        for text in rejects {
            assert_eq!(parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn finds_a_size_inside_a_query() {
        // (query, normalized size, rest)
        let table = [
            ("michelin 205/55r16 91v", "205/55R16 91V", "michelin"),
            ("205/55r16 michelin", "205/55R16", "michelin"),
            (
                "michelin primacy 4 205 55 16",
                "205/55R16",
                "michelin primacy 4",
            ),
            ("2 x 205/55R16", "205/55R16", "2 x"),
            ("205/55R16 XL", "205/55R16", "XL"),
            ("205/55R16 94W XL", "205/55R16 94W", "XL"),
            ("bridgestone 195R14C 8PR", "195R14C", "bridgestone 8PR"),
            ("truck 295/80R22.5 drive", "295/80R22.5", "truck drive"),
            ("2055516", "205/55R16", ""),
            ("205 55 16 2", "205/55R16", "2"),
            ("bfg 31x10.50R15 ko2", "31x10.50R15", "bfg ko2"),
            ("215/60R16 then 205/55R16", "215/60R16", "then 205/55R16"),
            ("  lt265/75r16   mt  ", "LT265/75R16", "mt"),
        ];
        for (query, found, rest) in table {
            let (s, left) = parse_query(query).unwrap_or_else(|| panic!("{query:?} holds a size"));
            assert_eq!(s.to_string(), found, "{query:?}");
            assert_eq!(left, rest, "{query:?}");
        }
        for query in [
            "michelin primacy",
            "call 0412 345 678",
            "",
            "order 12345",
            "pirelli p zero",
        ] {
            assert_eq!(parse_query(query), None, "{query:?}");
        }
    }

    #[test]
    fn common_sizes_are_37_distinct_valid_helper_codes() {
        assert_eq!(COMMON_SIZES.len(), 37);
        let unique: HashSet<&str> = COMMON_SIZES.iter().copied().collect();
        assert_eq!(unique.len(), 37, "no duplicates");
        assert!(COMMON_SIZES.contains(&"2055516"), "the spec's example");
        for code in COMMON_SIZES {
            let s = size(code);
            assert_eq!(s.helper_code(), code, "{code} is its own helper code");
            assert_eq!(s.construction, Construction::Radial);
        }
        let mut sorted = COMMON_SIZES;
        sorted.sort_unstable();
        assert_eq!(
            sorted, COMMON_SIZES,
            "listed in code order so typeahead reads in order"
        );
    }

    #[test]
    fn suggestions_follow_the_typed_digits() {
        assert_eq!(suggest("2055", 10), vec!["2055516"]);
        assert_eq!(suggest("205/5", 10), vec!["2055516"]);
        assert_eq!(suggest("205", 10), vec!["2055516", "2056015", "2056016"]);
        assert_eq!(suggest("2", 3), vec!["2055516", "2056015", "2056016"]);
        assert_eq!(
            suggest("265", 10),
            vec!["2656018", "2656517", "2657016", "2657017", "2657516"]
        );
        assert!(suggest("", 10).is_empty());
        assert!(suggest("michelin", 10).is_empty());
        assert!(suggest("999", 10).is_empty());
        assert!(suggest("2055516", 0).is_empty());
    }
}
