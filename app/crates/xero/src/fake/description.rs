//! Xero's own OpenAPI description of the Accounting API (`openapi/xero_accounting.yaml`,
//! vendored from XeroAPI/Xero-OpenAPI), and the checks the stand-in holds every call and every
//! answer to: the path and method exist, each query parameter and documented header is one the
//! operation documents and its value fits, required parameters are sent, a JSON body fits the
//! operation's schema (strictly: an undocumented field is refused), and an answer fits the
//! schema documented for its status.
//!
//! OpenAPI 3.0 schemas are turned into JSON Schema draft 4 (its dialect is close to it):
//! `nullable` becomes a type that also allows null, the OpenAPI-only keywords (`x-*`,
//! `example`, `xml`, `discriminator`, `externalDocs`) and the texts are dropped. Of the
//! formats only `uuid` is checked (Xero's examples keep to it); `date`, `date-time`, `double`
//! and `int32` are not, and the `x-is-msdate` dates are plain strings (Xero takes ISO
//! `YYYY-MM-DD` on input and answers `/Date(…)/`). Validators are compiled on first use.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::{Draft, Validator};
use serde_json::{Map, Value, json};

const ACCOUNTING: &str = include_str!("../../openapi/xero_accounting.yaml");
const IDENTITY: &str = include_str!("../../openapi/xero-identity.yaml");

/// Statuses any call may answer without the description listing them: Xero's OAuth 2.0
/// and limits pages document 401, 403 (a token not connected to the `xero-tenant-id` it
/// names: "AuthorizationUnsuccessful"), 429 and 5xx for every call; the description lists
/// none of them per operation.
fn always_allowed(status: u16) -> bool {
    status == 401 || status == 403 || status == 429 || status >= 500
}

/// The parsed description and the validators compiled from it.
pub struct Description {
    doc: Value,
    /// `{"components": {"schemas": …}}` converted for requests (objects strict) and answers.
    strict: Value,
    lenient: Value,
    /// Path templates split into segments (`None` for a `{parameter}`), most literal first.
    templates: Vec<(String, Vec<Option<String>>)>,
    validators: Mutex<HashMap<(bool, String), Arc<Validator>>>,
    /// Whether a missing required header (`xero-tenant-id`) is a violation.
    require_headers: bool,
}

/// The operation a call matched.
struct Operation<'a> {
    template: &'a str,
    op: &'a Value,
    params: Vec<&'a Value>,
}

impl Description {
    /// The description, parsed once.
    pub fn get() -> &'static Description {
        static ONE: OnceLock<Description> = OnceLock::new();
        ONE.get_or_init(|| Description::parse(ACCOUNTING, true))
    }

    /// Xero's description of its identity API (`/Connections`, which Xero serves at
    /// `/connections`: its paths are not case-sensitive), parsed once.
    pub fn identity() -> &'static Description {
        static ONE: OnceLock<Description> = OnceLock::new();
        ONE.get_or_init(|| Description::parse(IDENTITY, false))
    }

    fn parse(yaml: &str, require_headers: bool) -> Self {
        let doc: Value = serde_yaml::from_str(yaml).expect("the vendored descriptions are YAML");
        let schemas = doc.pointer("/components/schemas").and_then(Value::as_object).cloned().unwrap_or_default();
        let convert_all = |strict: bool| {
            let converted: Map<String, Value> = schemas.iter().map(|(k, v)| (k.clone(), convert(v, strict))).collect();
            json!({"components": {"schemas": converted}})
        };
        let mut templates: Vec<(String, Vec<Option<String>>)> = doc["paths"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(t, _)| {
                let segs = t.split('/').filter(|s| !s.is_empty()).map(|s| if s.starts_with('{') && s.ends_with('}') { None } else { Some(s.to_string()) }).collect();
                (t.clone(), segs)
            })
            .collect();
        templates.sort_by_key(|(_, segs): &(String, Vec<Option<String>>)| std::cmp::Reverse(segs.iter().filter(|s| s.is_some()).count()));
        Self { strict: convert_all(true), lenient: convert_all(false), doc, templates, validators: Mutex::new(HashMap::new()), require_headers }
    }

    /// Follows a local `$ref` (`#/components/…`) to what it names.
    fn deref<'a>(&'a self, v: &'a Value) -> &'a Value {
        let mut v = v;
        for _ in 0..8 {
            match v.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')) {
                Some(pointer) => v = self.doc.pointer(pointer).unwrap_or(&Value::Null),
                None => break,
            }
        }
        v
    }

    /// The operations whose template fits `path`, most literal first, with the method's.
    fn operations(&self, method: &str, path: &str) -> (bool, Vec<Operation<'_>>) {
        let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let method = method.to_ascii_lowercase();
        let mut any_template = false;
        let mut found = Vec::new();
        for (template, tsegs) in &self.templates {
            if tsegs.len() != segs.len() || !tsegs.iter().zip(&segs).all(|(t, s)| t.as_deref().is_none_or(|t| t == *s)) {
                continue;
            }
            any_template = true;
            let item = &self.doc["paths"][template.as_str()];
            let Some(op) = item.get(method.as_str()) else { continue };
            // Operation-level parameters override path-level ones of the same name and place.
            let mut params: Vec<&Value> = op["parameters"].as_array().into_iter().flatten().map(|p| self.deref(p)).collect();
            for p in item["parameters"].as_array().into_iter().flatten().map(|p| self.deref(p)) {
                if !params.iter().any(|q| q["name"] == p["name"] && q["in"] == p["in"]) {
                    params.push(p);
                }
            }
            found.push(Operation { template, op, params });
        }
        (any_template, found)
    }

    /// What in this request Xero's description does not allow, as sentences (empty: none).
    /// `path` is below `/api.xro/2.0`, `query` the raw query string, `headers` with lower-case
    /// names.
    pub fn check_request(&self, method: &str, path: &str, query: &str, headers: &[(String, String)], body: Option<&Value>) -> Vec<String> {
        let (any_template, ops) = self.operations(method, path);
        if !any_template {
            return vec![format!("Xero's API description has no path {path}")];
        }
        if ops.is_empty() {
            return vec![format!("Xero's API description has no {method} for {path}")];
        }
        // Of templates of the same shape (/Contacts/{ContactID}, /Contacts/{ContactNumber}) the
        // first whose path parameters fit.
        let path_problems = |o: &Operation| -> Vec<String> {
            let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
            let tsegs: Vec<&str> = o.template.split('/').filter(|s| !s.is_empty()).collect();
            let mut out = Vec::new();
            for (t, s) in tsegs.iter().zip(&segs) {
                let Some(name) = t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) else { continue };
                let decoded = percent_decode(s);
                if let Some(p) = o.params.iter().find(|p| p["in"] == "path" && p["name"] == name)
                    && let Err(m) = self.fits_param(&p["schema"], &decoded)
                {
                    out.push(format!("path parameter {name} ({decoded}) {m}"));
                }
            }
            out
        };
        let (o, mut out) = match ops.iter().find(|o| path_problems(o).is_empty()) {
            Some(o) => (o, Vec::new()),
            None => (&ops[0], path_problems(&ops[0])),
        };
        let what = format!("{} {}", method.to_ascii_uppercase(), o.template);

        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap_or_else(|_| {
            out.push(format!("the query string of {what} is not URL-encoded"));
            Vec::new()
        });
        for (name, value) in &pairs {
            match o.params.iter().find(|p| p["in"] == "query" && p["name"] == name.as_str()) {
                None => out.push(format!("query parameter {name} is not documented for {what}")),
                Some(p) => {
                    if let Err(m) = self.fits_param(&p["schema"], value) {
                        out.push(format!("query parameter {name}={value} {m}"));
                    }
                }
            }
        }
        for p in o.params.iter().filter(|p| p["required"] == true) {
            let name = p["name"].as_str().unwrap_or("");
            let present = match p["in"].as_str() {
                Some("query") => pairs.iter().any(|(n, _)| n == name),
                Some("header") => !self.require_headers || headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)),
                _ => true,
            };
            if !present {
                out.push(format!("the required {} parameter {name} is missing ({what})", p["in"].as_str().unwrap_or("")));
            }
        }
        for (name, value) in headers {
            if let Some(p) = o.params.iter().find(|p| p["in"] == "header" && p["name"].as_str().is_some_and(|n| n.eq_ignore_ascii_case(name)))
                && let Err(m) = self.fits_param(&p["schema"], value)
            {
                out.push(format!("header {name}: {value} {m}"));
            }
        }

        let documented = o.op.get("requestBody").map(|b| self.deref(b));
        match (documented, body) {
            (None, Some(_)) => out.push(format!("{what} documents no request body, but one was sent")),
            (Some(d), None) if d["required"] == true => out.push(format!("{what} requires a JSON body")),
            (Some(d), Some(b)) => match d.pointer("/content/application~1json/schema") {
                Some(schema) => out.extend(self.validate(schema, b, true).into_iter().map(|m| format!("body {m}"))),
                None => out.push(format!("{what} documents no JSON body")),
            },
            _ => {}
        }
        out
    }

    /// What in this answer Xero's description does not allow (empty: none).
    pub fn check_answer(&self, method: &str, path: &str, status: u16, body: &Value) -> Vec<String> {
        let (_, ops) = self.operations(method, path);
        let Some(o) = ops.first() else { return Vec::new() };
        let responses = &o.op["responses"];
        let documented = responses.get(status.to_string()).or_else(|| responses.get("default")).map(|r| self.deref(r));
        let Some(r) = documented else {
            return if always_allowed(status) { Vec::new() } else { vec![format!("Xero's API description documents no {status} answer for {} {}", method.to_ascii_uppercase(), o.template)] };
        };
        match r.pointer("/content/application~1json/schema") {
            Some(schema) => self.validate(schema, body, false).into_iter().map(|m| format!("{status} answer {m}")).collect(),
            None => Vec::new(),
        }
    }

    /// Validates `value` against an (OpenAPI) schema of the description.
    fn validate(&self, schema: &Value, value: &Value, strict: bool) -> Vec<String> {
        let key = (strict, schema.to_string());
        let cached = self.validators.lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
        let validator = match cached {
            Some(v) => v,
            None => {
                let mut root = if strict { self.strict.clone() } else { self.lenient.clone() };
                root["allOf"] = json!([convert(schema, strict)]);
                let built = jsonschema::options().with_draft(Draft::Draft4).should_validate_formats(true).with_format("uuid", is_uuid).build(&root);
                match built {
                    Ok(v) => {
                        let v = Arc::new(v);
                        self.validators.lock().unwrap_or_else(|e| e.into_inner()).insert(key, v.clone());
                        v
                    }
                    Err(e) => return vec![format!("cannot be checked: the description's schema does not compile ({e})")],
                }
            }
        };
        validator.iter_errors(value).map(|e| format!("at {}: {}", display_path(&e.instance_path().to_string()), shorten(&e.to_string()))).collect()
    }

    /// Whether a parameter's text fits its schema (boolean, integer, number, enum, uuid, array).
    fn fits_param(&self, schema: &Value, text: &str) -> Result<(), String> {
        let schema = self.deref(schema);
        if schema["type"] == "array" {
            return text.split(',').try_for_each(|item| self.fits_param(&schema["items"], item));
        }
        let ok = match schema["type"].as_str() {
            Some("boolean") => matches!(text, "true" | "false"),
            Some("integer") => text.parse::<i64>().is_ok(),
            Some("number") => text.parse::<f64>().is_ok(),
            _ => true,
        };
        if !ok {
            return Err(format!("is not a {}", schema["type"].as_str().unwrap_or("")));
        }
        if let Some(values) = schema["enum"].as_array()
            && !values.iter().any(|v| v.as_str() == Some(text))
        {
            return Err("is not one of the values the description lists".into());
        }
        match schema["format"].as_str() {
            Some("uuid") if !is_uuid(text) => Err("is not a uuid".into()),
            Some("date-time") if !is_date_time(text) => Err("is not a date-time".into()),
            _ => Ok(()),
        }
    }
}

/// An OpenAPI 3.0 schema as JSON Schema draft 4; `strict` closes every object with
/// `properties` to other fields.
fn convert(schema: &Value, strict: bool) -> Value {
    let Some(obj) = schema.as_object() else { return schema.clone() };
    let mut out = Map::new();
    for (k, v) in obj {
        let v = match k.as_str() {
            _ if k.starts_with("x-") => continue,
            "example" | "examples" | "xml" | "discriminator" | "externalDocs" | "description" | "default" | "nullable" => continue,
            // Checked only for uuid (see the module's notes).
            "format" if v != "uuid" => continue,
            "properties" => Value::Object(v.as_object().into_iter().flatten().map(|(name, s)| (name.clone(), convert(s, strict))).collect()),
            "items" | "not" => convert(v, strict),
            "additionalProperties" if v.is_object() => convert(v, strict),
            "allOf" | "anyOf" | "oneOf" => Value::Array(v.as_array().into_iter().flatten().map(|s| convert(s, strict)).collect()),
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    if obj.get("nullable") == Some(&Value::Bool(true)) {
        if let Some(t) = out.get("type").and_then(Value::as_str) {
            out.insert("type".into(), json!([t, "null"]));
        }
        if let Some(Value::Array(e)) = out.get_mut("enum") {
            e.push(Value::Null);
        }
        if out.contains_key("$ref") {
            return json!({"anyOf": [Value::Object(out), {"type": "null"}]});
        }
    }
    if strict && out.contains_key("properties") && !out.contains_key("additionalProperties") && !out.contains_key("$ref") {
        out.insert("additionalProperties".into(), Value::Bool(false));
    }
    Value::Object(out)
}

fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36 && b.iter().enumerate().all(|(i, c)| if matches!(i, 8 | 13 | 18 | 23) { *c == b'-' } else { c.is_ascii_hexdigit() })
}

/// RFC 3339, ISO without a zone (Xero's `2009-11-12T00:00:00`), or an HTTP date.
fn is_date_time(s: &str) -> bool {
    chrono::DateTime::parse_from_rfc3339(s).is_ok() || chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S%.f").is_ok() || chrono::DateTime::parse_from_rfc2822(s).is_ok()
}

fn percent_decode(s: &str) -> String {
    serde_urlencoded::from_str::<Vec<(String, String)>>(&format!("x={}", s.replace('+', "%2B"))).ok().and_then(|v| v.into_iter().next()).map_or_else(|| s.to_string(), |(_, v)| v)
}

fn display_path(p: &str) -> String {
    if p.is_empty() { "/".into() } else { p.to_string() }
}

/// Long enum lists make unreadable sentences: keep the start.
fn shorten(m: &str) -> String {
    if m.chars().count() <= 240 { m.to_string() } else { format!("{}…", m.chars().take(240).collect::<String>()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers() -> Vec<(String, String)> {
        vec![("xero-tenant-id".into(), "00000000-0000-0000-0000-00000000a001".into()), ("idempotency-key".into(), "tyredesk-sheet-1-1".into())]
    }

    fn invoice() -> Value {
        json!({"Invoices": [{
            "Type": "ACCREC",
            "Contact": {"ContactID": "5b96e86b-418e-48e8-8949-308c14aec278"},
            "LineItems": [{"Description": "Tyre 205/55R16", "Quantity": 4.0, "UnitAmount": 149.5, "AccountCode": "200", "TaxType": "OUTPUT", "ItemCode": "T-20555R16"}],
            "Date": "2026-11-24",
            "DueDate": "2026-12-24",
            "Status": "AUTHORISED",
            "LineAmountTypes": "Inclusive",
            "CurrencyCode": "AUD",
            "InvoiceNumber": "TD-1001"
        }]})
    }

    fn put(body: &Value) -> Vec<String> {
        Description::get().check_request("PUT", "/Invoices", "", &headers(), Some(body))
    }

    fn one_naming(v: Vec<String>, what: &str) {
        assert!(v.iter().any(|m| m.contains(what)), "a violation naming {what:?}: {v:#?}");
    }

    #[test]
    fn a_documented_invoice_put_passes() {
        assert_eq!(put(&invoice()), Vec::<String>::new());
        let d = Description::get();
        assert_eq!(d.check_request("PUT", "/Invoices", "summarizeErrors=false&unitdp=4", &headers(), Some(&invoice())), Vec::<String>::new());
        assert_eq!(d.check_request("GET", "/Invoices", "where=Type%3D%3D%22ACCREC%22&page=2", &headers(), None), Vec::<String>::new());
        assert_eq!(d.check_request("GET", "/Invoices/5b96e86b-418e-48e8-8949-308c14aec278", "", &headers(), None), Vec::<String>::new());
        assert_eq!(d.check_request("GET", "/Contacts/SB2", "", &headers(), None), Vec::<String>::new(), "a contact number (its own template)");
    }

    #[test]
    fn a_usd_bill_as_tyredesk_sends_it_is_documented() {
        use domain::currency::Rate;
        use domain::enums::TaxType;
        use domain::money::Cents;
        use domain::xero::{DocDraft, DocKind, DocLine};
        use domain::xero_mapping::Mapping;
        let date = chrono::NaiveDate::from_ymd_opt(2026, 11, 24).unwrap();
        let line = DocLine { description: "Tyre 205/55R16".into(), quantity: 400, price: Cents(4500), amount: Cents(1_800_000), item_code: Some("T-20555R16".into()), tracked: true };
        let draft = DocDraft {
            kind: DocKind::Bill,
            number: "B-000042".into(),
            date,
            due_date: Some(date),
            reference: String::new(),
            contact_id: "5b96e86b-418e-48e8-8949-308c14aec278".into(),
            tax: TaxType::NoTax,
            lines: vec![line],
            currency: Some(("USD".into(), Rate(652_375))),
        };
        let body = json!({"Invoices": [draft.to_json(&Mapping::au_default()).unwrap()]});
        assert_eq!(body["Invoices"][0]["CurrencyRate"], json!(0.652375));
        assert_eq!(put(&body), Vec::<String>::new(), "CurrencyCode and CurrencyRate as Xero's description has them");
        let mut b = body.clone();
        b["Invoices"][0]["CurrencyCode"] = json!("USX");
        one_naming(put(&b), "USX");
        let mut b = body;
        b["Invoices"][0]["CurrencyRate"] = json!("0.65");
        one_naming(put(&b), "CurrencyRate");
    }

    #[test]
    fn an_undocumented_field_in_a_line_item_is_named() {
        let mut b = invoice();
        b["Invoices"][0]["LineItems"][0]["Quantiti"] = json!(4);
        one_naming(put(&b), "Quantiti");
    }

    #[test]
    fn enum_values_xero_does_not_list_are_named() {
        let mut b = invoice();
        b["Invoices"][0]["Type"] = json!("ACCRECX");
        one_naming(put(&b), "ACCRECX");
        let mut b = invoice();
        b["Invoices"][0]["Status"] = json!("SENT");
        one_naming(put(&b), "SENT");
    }

    #[test]
    fn the_tenant_header_is_required() {
        let no_tenant: Vec<(String, String)> = headers().into_iter().filter(|(n, _)| n != "xero-tenant-id").collect();
        one_naming(Description::get().check_request("PUT", "/Invoices", "", &no_tenant, Some(&invoice())), "xero-tenant-id");
        let upper = vec![("Xero-Tenant-Id".to_string(), "x".to_string())];
        assert_eq!(Description::get().check_request("GET", "/Organisation", "", &upper, None), Vec::<String>::new(), "header names are case-insensitive");
        let lax = Description::parse(ACCOUNTING, false);
        assert_eq!(lax.check_request("PUT", "/Invoices", "", &no_tenant, Some(&invoice())), Vec::<String>::new());
    }

    #[test]
    fn query_parameters_must_be_documented_and_fit() {
        let d = Description::get();
        one_naming(d.check_request("PUT", "/Invoices", "foo=1", &headers(), Some(&invoice())), "foo");
        one_naming(d.check_request("PUT", "/Invoices", "summarizeErrors=maybe", &headers(), Some(&invoice())), "summarizeErrors=maybe");
        one_naming(d.check_request("GET", "/Invoices", "page=two", &headers(), None), "page=two");
        one_naming(d.check_request("GET", "/Invoices", "IDs=5b96e86b-418e-48e8-8949-308c14aec278,nope", &headers(), None), "IDs=");
    }

    #[test]
    fn paths_methods_and_bodies_must_be_documented() {
        let d = Description::get();
        one_naming(d.check_request("GET", "/Invoicez", "", &headers(), None), "/Invoicez");
        one_naming(d.check_request("DELETE", "/Invoices", "", &headers(), None), "DELETE");
        one_naming(d.check_request("GET", "/Invoices", "", &headers(), Some(&json!({"Invoices": []}))), "no request body");
        one_naming(d.check_request("PUT", "/Invoices", "", &headers(), None), "requires a JSON body");
        one_naming(d.check_request("GET", "/Items/not-a-uuid", "", &headers(), None), "ItemID");
    }

    #[test]
    fn the_identity_apis_connections_are_checked_against_its_own_description() {
        let d = Description::identity();
        assert!(d.check_request("GET", "/Connections", "", &[], None).is_empty());
        assert!(!d.check_request("GET", "/Connections", "foo=1", &[], None).is_empty(), "an undocumented parameter");
        let good = json!([{"id": "7cb59f93-2964-421d-bb5e-a0f7a4572a44", "tenantId": "fe79f7dd-b6d4-4a92-ba7b-538af6289c58", "tenantType": "ORGANISATION", "tenantName": "Demo Company (AU)"}]);
        assert!(d.check_answer("GET", "/Connections", 200, &good).is_empty());
        assert!(!d.check_answer("GET", "/Connections", 200, &json!({"tenantId": 5})).is_empty(), "not an array of connections");
        assert!(d.check_request("DELETE", "/Connections/7cb59f93-2964-421d-bb5e-a0f7a4572a44", "", &[], None).is_empty());
    }

    #[test]
    fn answers_are_checked_against_the_documented_status() {
        let d = Description::get();
        let ok = json!({"Id": "e0b1a7b5-5c1a-4f39-b5c1-0d0c6a9a4b1e", "Status": "OK", "ProviderName": "TyreDesk", "DateTimeUTC": "/Date(1764000000000)/",
            "Invoices": [{"InvoiceID": "5b96e86b-418e-48e8-8949-308c14aec278", "Type": "ACCREC", "Status": "AUTHORISED", "Total": 598.0, "Date": "/Date(1763942400000+0000)/", "DateString": "2026-11-24T00:00:00"}]});
        assert_eq!(d.check_answer("PUT", "/Invoices", 200, &ok), Vec::<String>::new());
        one_naming(d.check_answer("PUT", "/Invoices", 200, &json!({"Invoices": "x"})), "/Invoices");
        assert_eq!(d.check_answer("PUT", "/Invoices", 400, &json!({"ErrorNumber": 10, "Type": "ValidationException", "Message": "A validation exception occurred", "Elements": []})), Vec::<String>::new());
        one_naming(d.check_answer("PUT", "/Invoices", 400, &json!({"ErrorNumber": "ten"})), "ErrorNumber");
        one_naming(d.check_answer("GET", "/Invoices", 418, &json!({})), "418");
        assert_eq!(d.check_answer("GET", "/Invoices", 503, &json!({})), Vec::<String>::new());
    }

    /// Strict request bodies still take Xero's own request examples.
    #[test]
    fn xeros_own_request_examples_pass_for_the_paths_the_link_uses() {
        let d = Description::get();
        let id = "8138a266-fb42-49b2-a104-014b7045753d";
        let (mut bad, mut checked) = (Vec::new(), 0);
        for template in ["/Contacts", "/Contacts/{ContactID}", "/Items", "/Items/{ItemID}", "/Invoices", "/Invoices/{InvoiceID}", "/CreditNotes", "/CreditNotes/{CreditNoteID}"] {
            let path = template.split('/').map(|s| if s.starts_with('{') { id } else { s }).collect::<Vec<_>>().join("/");
            for (method, op) in d.doc["paths"][template].as_object().into_iter().flatten().filter(|(m, _)| *m != "parameters") {
                let Some(example) = op.pointer("/requestBody/content/application~1json/example") else { continue };
                let example = match example.as_str() {
                    Some(text) => serde_json::from_str(text).expect("a JSON example"),
                    None => example.clone(),
                };
                checked += 1;
                bad.extend(d.check_request(&method.to_ascii_uppercase(), &path, "", &headers(), Some(&example)).into_iter().map(|m| format!("{method} {template}: {m}")));
            }
        }
        assert!(bad.is_empty(), "{bad:#?}");
        assert_eq!(checked, 12, "every create and update of these paths has an example");
    }

    /// The conversion and the formats checked agree with Xero's own examples.
    #[test]
    fn xeros_own_answer_examples_pass_for_the_paths_the_link_uses() {
        let d = Description::get();
        let (mut bad, mut checked) = (Vec::new(), 0);
        for template in ["/Organisation", "/TaxRates", "/Accounts", "/Contacts", "/Contacts/{ContactID}", "/Items", "/Items/{ItemID}", "/Invoices", "/Invoices/{InvoiceID}", "/CreditNotes", "/CreditNotes/{CreditNoteID}"] {
            let path = template.replace("{ContactID}", "8138a266-fb42-49b2-a104-014b7045753d").replace("{ItemID}", "8138a266-fb42-49b2-a104-014b7045753d").replace("{InvoiceID}", "8138a266-fb42-49b2-a104-014b7045753d").replace("{CreditNoteID}", "8138a266-fb42-49b2-a104-014b7045753d");
            for (method, op) in d.doc["paths"][template].as_object().into_iter().flatten().filter(|(m, _)| *m != "parameters") {
                for (status, r) in op["responses"].as_object().into_iter().flatten() {
                    let r = d.deref(r);
                    if let (Some(example), Ok(status)) = (r.pointer("/content/application~1json/example"), status.parse::<u16>()) {
                        checked += 1;
                        bad.extend(d.check_answer(method, &path, status, example).into_iter().map(|m| format!("{method} {template}: {m}")));
                    }
                }
            }
        }
        assert!(bad.is_empty(), "{bad:#?}");
        assert!(checked >= 20, "only {checked} examples");
    }
}
