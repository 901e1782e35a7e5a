//! Deserializers for input that arrives either as an HTML form (every value a string, an
//! unticked checkbox absent) or as JSON (numbers, booleans, null), so one input struct
//! serves both and the rules never see the difference.

use serde::{Deserialize, Deserializer, de::Error};

/// A submitted value in any of the shapes a form or a JSON body uses.
#[derive(Deserialize)]
#[serde(untagged)]
enum Raw {
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(String),
}

fn raw<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Raw>, D::Error> {
    Option::<Raw>::deserialize(d)
}

/// Text; `null` becomes empty and a number its digits.
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(text(d)?.unwrap_or_default())
}

/// Text where absence matters (`None` when sent as `null`).
pub fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    match raw(d)? {
        None => Ok(None),
        Some(Raw::Text(s)) => Ok(Some(s)),
        Some(Raw::Int(n)) => Ok(Some(n.to_string())),
        Some(Raw::Float(f)) => Ok(Some(f.to_string())),
        Some(Raw::Bool(_)) => Err(D::Error::custom("expected text, found a boolean")),
    }
}

/// A whole number such as a code or an id; an empty form value is `None`.
pub fn int<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<i64>,
{
    let n = match raw(d)? {
        None => return Ok(None),
        Some(Raw::Int(n)) => n,
        Some(Raw::Text(s)) if s.trim().is_empty() => return Ok(None),
        Some(Raw::Text(s)) => s.trim().parse().map_err(|_| D::Error::custom(format!("expected a whole number, found {s:?}")))?,
        Some(Raw::Float(f)) => return Err(D::Error::custom(format!("expected a whole number, found {f}"))),
        Some(Raw::Bool(_)) => return Err(D::Error::custom("expected a whole number, found a boolean")),
    };
    T::try_from(n).map(Some).map_err(|_| D::Error::custom(format!("{n} is out of range")))
}

fn parse_flag(s: &str) -> Option<Option<bool>> {
    match s.trim().to_ascii_lowercase().as_str() {
        "" => Some(None),
        "1" | "true" | "on" | "yes" => Some(Some(true)),
        "0" | "false" | "off" | "no" => Some(Some(false)),
        _ => None,
    }
}

/// A yes/no value that may be left unanswered (`None`).
pub fn flag_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    match raw(d)? {
        None => Ok(None),
        Some(Raw::Bool(b)) => Ok(Some(b)),
        Some(Raw::Int(0)) => Ok(Some(false)),
        Some(Raw::Int(1)) => Ok(Some(true)),
        Some(Raw::Text(s)) => parse_flag(&s).ok_or_else(|| D::Error::custom(format!("expected yes or no, found {s:?}"))),
        Some(_) => Err(D::Error::custom("expected yes or no")),
    }
}

/// A checkbox: present and ticked is true; absent (the field default) is false.
pub fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(flag_opt(d)?.unwrap_or(false))
}

/// An amount of money as sent: typed text (dollars, from a form or JSON) or JSON cents.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum Amount {
    /// What staff typed, e.g. "1,500.00"; parsed by the rules.
    Typed(String),
    /// Integer cents, as the JSON API sends money.
    Cents(i64),
}

/// An optional amount; JSON numbers are cents and must be whole.
pub fn amount<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Amount>, D::Error> {
    match raw(d)? {
        None => Ok(None),
        Some(Raw::Int(n)) => Ok(Some(Amount::Cents(n))),
        Some(Raw::Text(s)) => Ok(Some(Amount::Typed(s))),
        Some(Raw::Float(f)) => Err(D::Error::custom(format!("amounts are whole cents, found {f}"))),
        Some(Raw::Bool(_)) => Err(D::Error::custom("expected an amount, found a boolean")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Debug, Default, PartialEq)]
    #[serde(default)]
    struct Probe {
        #[serde(deserialize_with = "string")]
        s: String,
        #[serde(deserialize_with = "text")]
        t: Option<String>,
        #[serde(deserialize_with = "int")]
        n: Option<i32>,
        #[serde(deserialize_with = "flag")]
        f: bool,
        #[serde(deserialize_with = "flag_opt")]
        o: Option<bool>,
        #[serde(deserialize_with = "amount")]
        a: Option<Amount>,
    }

    fn form(q: &str) -> Result<Probe, String> {
        serde_urlencoded::from_str(q).map_err(|e| e.to_string())
    }

    fn json(v: serde_json::Value) -> Result<Probe, String> {
        serde_json::from_value(v).map_err(|e| e.to_string())
    }

    #[test]
    fn form_values_are_strings() {
        let p = form("s=a+b&t=x&n=+7+&f=on&o=0&a=1%2C500.50").unwrap();
        assert_eq!(p, Probe { s: "a b".into(), t: Some("x".into()), n: Some(7), f: true, o: Some(false), a: Some(Amount::Typed("1,500.50".into())) });
        assert_eq!(form("").unwrap(), Probe::default());
        let empty = form("n=&o=&t=").unwrap();
        assert_eq!((empty.n, empty.o, empty.t), (None, None, Some(String::new())));
        assert!(form("n=abc").is_err());
        assert!(form("o=maybe").is_err());
        assert!(form("n=99999999999").is_err(), "out of i32 range");
    }

    #[test]
    fn json_values_keep_their_types() {
        let p = json(serde_json::json!({"s": null, "t": 12, "n": 3, "f": true, "o": 1, "a": 150050})).unwrap();
        assert_eq!(p, Probe { s: String::new(), t: Some("12".into()), n: Some(3), f: true, o: Some(true), a: Some(Amount::Cents(150_050)) });
        let p = json(serde_json::json!({"n": "4", "o": false, "a": "12.50", "t": null})).unwrap();
        assert_eq!((p.n, p.o, p.a, p.t), (Some(4), Some(false), Some(Amount::Typed("12.50".into())), None));
        assert!(json(serde_json::json!({"a": 12.5})).is_err(), "cents must be whole");
        assert!(json(serde_json::json!({"n": 1.5})).is_err());
        assert!(json(serde_json::json!({"n": true})).is_err());
        assert!(json(serde_json::json!({"t": false})).is_err());
        assert!(json(serde_json::json!({"o": 2})).is_err());
    }
}
