//! Fitting product names and codes: the 50-character name limit, trade abbreviations of long
//! brands, candidate names with their marks, and claiming a unique name and code.

use std::collections::HashSet;

/// The longest product name the application accepts (characters).
pub(super) const NAME_MAX: usize = 50;

/// Shortens `base` so that `base + suffix` fits in [`NAME_MAX`] characters: whole trailing words
/// are dropped first, and only a single over-long word is cut.
pub(super) fn fit(base: &str, suffix: &str) -> String {
    let room = NAME_MAX.saturating_sub(suffix.chars().count());
    let mut kept = base.trim_end();
    while kept.chars().count() > room {
        match kept.rfind(' ') {
            Some(i) => kept = kept[..i].trim_end(),
            None => break,
        }
    }
    let cut: String = kept.chars().take(room).collect();
    format!("{}{suffix}", cut.trim_end())
}

/// A candidate product name with the suffix its code gets when this candidate is used.
pub(super) type Candidate = (String, String);

/// A candidate without a code suffix.
pub(super) fn plain(name: String) -> Candidate {
    (name, String::new())
}

/// The code suffix of a name mark: its letters and digits, upper case (" DOT25" → "DOT25").
pub(super) fn mark_code(mark: &str) -> String {
    mark.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Claims a unique product name: the first free candidate, else the first one numbered " #2", " #3" …
/// Returns the name and the code suffix that goes with it.
pub(super) fn claim_name(taken: &mut HashSet<String>, candidates: &[Candidate]) -> Candidate {
    for (c, suffix) in candidates {
        let name = fit(c, "");
        if taken.insert(name.clone()) {
            return (name, suffix.clone());
        }
    }
    let base = candidates.first().map_or("", |c| c.0.as_str());
    let mut k = 2u64;
    loop {
        let name = fit(base, &format!(" #{k}"));
        if taken.insert(name.clone()) {
            return (name, String::new());
        }
        k += 1;
    }
}

/// Claims a unique code: `base`, else `base-2`, `base-3` …
pub(super) fn claim_code(taken: &mut HashSet<String>, base: &str) -> String {
    if taken.insert(base.to_string()) {
        return base.to_string();
    }
    let mut k = 2u64;
    loop {
        let code = format!("{base}-{k}");
        if taken.insert(code.clone()) {
            return code;
        }
        k += 1;
    }
}

/// The trade abbreviation of a long brand name, used when a full product name would not fit.
fn short_brand(upper: &str) -> &str {
    match upper {
        "BRIDGESTONE" => "B/STONE",
        "CONTINENTAL" => "CONTI",
        "BFGOODRICH" => "BFG",
        "GOODYEAR" => "G/YEAR",
        "YOKOHAMA" => "YOKO",
        "TRIANGLE" => "TRI",
        "LINGLONG" => "L/LONG",
        "SUPERCHARGE" => "S/CHARGE",
        other => other,
    }
}

/// A product name from `compose(brand)` with the full brand, or the short brand; `None` if neither fits.
pub(super) fn try_compose(upper: &str, compose: impl Fn(&str) -> String) -> Option<String> {
    let full = compose(upper);
    if full.chars().count() <= NAME_MAX {
        return Some(full);
    }
    let short = compose(short_brand(upper));
    (short.chars().count() <= NAME_MAX).then_some(short)
}

/// A product name from `compose(brand)`: with the full brand if it fits, else the short brand, else cut to fit.
fn compose_name(upper: &str, compose: impl Fn(&str) -> String) -> String {
    try_compose(upper, &compose).unwrap_or_else(|| fit(&compose(short_brand(upper)), ""))
}

/// Candidate names: the plain name, then with each `mid` mark after the size, then with each `end`
/// mark appended; marked names that would not fit are left out rather than cut.
pub(super) fn name_candidates(
    upper: &str,
    compose: impl Fn(&str, &str, &str) -> String,
    mid: &[&str],
    end: &[&str],
) -> Vec<Candidate> {
    let mut out = vec![plain(compose_name(upper, |b| compose(b, "", "")))];
    out.extend(
        mid.iter()
            .filter_map(|m| Some((try_compose(upper, |b| compose(b, m, ""))?, mark_code(m)))),
    );
    out.extend(
        end.iter()
            .filter_map(|e| Some((try_compose(upper, |b| compose(b, "", e))?, mark_code(e)))),
    );
    out
}
