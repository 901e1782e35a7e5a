//! Serving the fake over HTTP, and the answer to each call: the token endpoint, then every API
//! call through the bearer check, the limits, the knobs, the idempotent replay and the route
//! table.

use std::net::SocketAddr;

use axum::Router;
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use chrono::NaiveDateTime;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::checks::{DAY_LIMIT, IDEMPOTENCY_MINUTES, MINUTE_LIMIT, base64_decode, where_of};
use super::description::Description;
use super::store::{CREDIT_NOTES, INVOICES, TAX_RATES, ok, random_id};
use super::{Answer, CLI_CLIENT_ID, CLI_CLIENT_SECRET, FakeXero, Logged, State};

impl FakeXero {
    /// The router (every path goes through one handler).
    pub fn router(&self) -> Router {
        let me = self.clone();
        Router::new().fallback(move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
            let me = me.clone();
            async move { me.handle(method, uri, headers, body).await }
        })
    }

    /// Binds `addr`, serves in a spawned task, answers the bound address.
    pub async fn spawn(&self, addr: SocketAddr) -> std::io::Result<SocketAddr> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let bound = listener.local_addr()?;
        let router = self.router();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Ok(bound)
    }

    /// `tyredesk xero-fake`: serves on `bind` until Ctrl-C, after printing the settings to paste.
    pub async fn run_cli(bind: SocketAddr) -> std::io::Result<()> {
        let fake = Self::new(CLI_CLIENT_ID, CLI_CLIENT_SECRET);
        let listener = tokio::net::TcpListener::bind(bind).await?;
        let addr = listener.local_addr()?;
        println!("A Xero stand-in ('Demo Company (AU)') is running on http://{addr}. Start TyreDesk with TYREDESK_XERO_STANDIN=1, then in Settings › Accounting link:");
        println!("  Client id      {CLI_CLIENT_ID}");
        println!("  Client secret  {CLI_CLIENT_SECRET}");
        println!("  Identity URL   http://{addr}");
        println!("  API URL        http://{addr}/api.xro/2.0");
        println!("For Connect to Xero use the same client id, secret and addresses (the sign-in URL is http://{addr} too).");
        println!("To make it fail as Xero documents: POST http://{addr}/fake/control with {{\"action\": \"fail-next\", \"status\": 429}} (or 400, 401, 403, 404, 500, 503), {{\"action\": \"refuse-next-element\", \"collection\": \"Invoices\", \"message\": \"…\"}}, {{\"action\": \"expire-tokens\"}}, {{\"action\": \"revoke\"}} or {{\"action\": \"add-organisation\", \"name\": \"…\"}}.");
        println!("What was created: GET http://{addr}/api.xro/2.0/Invoices (with a bearer token from /connect/token). Ctrl-C stops it; nothing is kept.");
        axum::serve(listener, fake.router()).with_graceful_shutdown(async { let _ = tokio::signal::ctrl_c().await; }).await
    }

    async fn handle(&self, method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
        let at = self.now();
        let path = uri.path().to_string();
        let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_string);
        let answer = if path == "/connect/token" && method == Method::POST {
            self.token(&headers, &body)
        } else if path == "/fake/control" && method == Method::POST {
            self.control(&body)
        } else if path == "/identity/connect/authorize" && method == Method::GET {
            self.authorize_page(uri.query().unwrap_or(""))
        } else if path == "/connect/revocation" && method == Method::POST {
            self.revocation(&body)
        } else if path == "/connections" || path.starts_with("/connections/") {
            // Xero's identity API, checked against its own description (`/Connections`).
            let described = format!("/C{}", &path[2..]);
            let problems = Description::identity().check_request(method.as_str(), &described, uri.query().unwrap_or(""), &[], None);
            let answer = if !problems.is_empty() {
                self.st().violations.extend(problems.iter().map(|p| format!("{method} {path}: {p}")));
                Answer::new(400, json!({"Title": "BadRequest", "Detail": problems.join("; ")}))
            } else if method == Method::GET && path == "/connections" {
                self.code_connections(bearer_of(&headers)).unwrap_or_else(|| self.connections(&headers))
            } else if self.code_connections(bearer_of(&headers)).is_some() {
                self.remove_connection(&path["/connections/".len()..])
            } else {
                Answer::new(401, json!({"Title": "Unauthorized", "Status": 401}))
            };
            let wrong = Description::identity().check_answer(method.as_str(), &described, answer.status, &answer.body);
            self.st().violations.extend(wrong.into_iter().map(|p| format!("{method} {path}: {p}")));
            answer
        } else if let Some(rest) = path.strip_prefix("/api.xro/2.0/") {
            let query = uri.query().unwrap_or("");
            match self.refuse_undescribed(&method, rest, query, &headers, &body) {
                Some(refusal) => refusal,
                None => {
                    let answer = self.api(&method, rest, query, &headers, &body, key.as_deref()).await;
                    self.check_answer(&method, rest, &answer);
                    answer
                }
            }
        } else {
            Answer::new(404, json!({"Title": "NotFound"}))
        };
        // Logged before a hang: a client that gives up drops this future.
        let (query, if_modified_since) = (uri.query().unwrap_or("").to_string(), headers.get("if-modified-since").and_then(|v| v.to_str().ok()).map(str::to_string));
        self.st().log.push(Logged { at, method: method.to_string(), path, status: answer.status, idempotency_key: key, query, if_modified_since });
        if let Some(h) = answer.hang {
            tokio::time::sleep(h).await;
        }
        let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut res = match answer.html {
            Some(page) => (status, axum::response::Html(page)).into_response(),
            None if answer.status == 204 => status.into_response(),
            None => (status, axum::Json(answer.body)).into_response(),
        };
        for (k, v) in answer.headers {
            if let Ok(v) = HeaderValue::from_str(&v) {
                res.headers_mut().insert(k, v);
            }
        }
        res
    }

    /// Checks the call against Xero's API description: a call it does not describe is
    /// recorded and refused with Xero's error shape, and nothing is stored.
    fn refuse_undescribed(&self, method: &Method, rest: &str, query: &str, headers: &HeaderMap, body: &[u8]) -> Option<Answer> {
        let sent: Vec<(String, String)> = headers.iter().map(|(k, v)| (k.as_str().to_ascii_lowercase(), String::from_utf8_lossy(v.as_bytes()).into_owned())).collect();
        let json: Option<Value> = if body.is_empty() { None } else { Some(serde_json::from_slice(body).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()))) };
        let problems = Description::get().check_request(method.as_str(), &format!("/{rest}"), query, &sent, json.as_ref());
        if problems.is_empty() {
            return None;
        }
        let mut st = self.st();
        st.violations.extend(problems.iter().map(|p| format!("{method} /{rest}: {p}")));
        let message = format!("The request does not match Xero's API description: {}", problems.join("; "));
        Some(Answer::new(400, json!({"ErrorNumber": 10, "Type": "ValidationException", "Message": message})))
    }

    /// Records where an answer differs from what Xero's API description documents.
    fn check_answer(&self, method: &Method, rest: &str, answer: &Answer) {
        let problems = Description::get().check_answer(method.as_str(), &format!("/{rest}"), answer.status, &answer.body);
        self.st().violations.extend(problems.into_iter().map(|p| format!("{method} /{rest}: {p}")));
    }

    fn token(&self, headers: &HeaderMap, body: &[u8]) -> Answer {
        let form = String::from_utf8_lossy(body);
        let grant_ok = form.split('&').any(|p| p == "grant_type=client_credentials");
        let creds = headers.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Basic ")).and_then(base64_decode).and_then(|b| String::from_utf8(b).ok());
        if !grant_ok && form.split('&').any(|p| p.starts_with("grant_type=")) {
            // The code and refresh grants; the app authenticates with Basic, or (a PKCE app
            // without a secret) names its client_id in the body (RFC 6749 §2.3.1, §3.2.1).
            let fields: std::collections::HashMap<String, String> = serde_urlencoded::from_bytes::<Vec<(String, String)>>(body).unwrap_or_default().into_iter().collect();
            let decode = |s: &str| serde_urlencoded::from_str::<Vec<(String, String)>>(&format!("v={s}")).ok().and_then(|v| v.into_iter().next()).map(|(_, v)| v).unwrap_or_default();
            let client = match creds.as_deref().and_then(|c| c.split_once(':')) {
                Some((id, secret)) => Some((decode(id), Some(decode(secret)))),
                None => fields.get("client_id").map(|id| (id.clone(), fields.get("client_secret").cloned())),
            };
            return self.code_grants(client, &fields);
        }
        let expected = format!("{}:{}", self.inner.client_id, self.inner.client_secret);
        if !grant_ok {
            return Answer::new(400, json!({"error": "unsupported_grant_type"}));
        }
        if creds.as_deref() != Some(expected.as_str()) {
            return Answer::new(400, json!({"error": "invalid_client"}));
        }
        let token = random_id();
        self.st().tokens.insert(token.clone(), self.now() + chrono::Duration::minutes(30));
        Answer::new(200, json!({"access_token": token, "expires_in": 1800, "token_type": "Bearer", "scope": "accounting.transactions accounting.contacts accounting.settings"}))
    }

    /// `POST /fake/control` (the stand-in's own, not Xero's): tells it to fail the way Xero
    /// documents, so a manual run or a browser test can show each failure. `{"action": …}`:
    /// `fail-next` (`status`, `message`, `retryAfter`: a 400 ValidationException, a 401, a
    /// 403, a 404, a 429 with `Retry-After` and `X-Rate-Limit-Problem`, a 5xx),
    /// `refuse-next-element` (`collection`, `message`: a 200 whose element is refused),
    /// `expire-tokens` (every access token expires), `revoke` (every grant is revoked, as
    /// disconnecting the app in Xero does), `add-organisation` (`name`).
    fn control(&self, body: &[u8]) -> Answer {
        let v: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        let text = |k: &str| v[k].as_str().unwrap_or_default().to_string();
        match v["action"].as_str().unwrap_or_default() {
            "fail-next" => {
                let status = v["status"].as_u64().and_then(|s| u16::try_from(s).ok()).filter(|s| (400..600).contains(s)).unwrap_or(500);
                let message = text("message");
                let body = match status {
                    400 => json!({"ErrorNumber": 10, "Type": "ValidationException", "Message": "A validation exception occurred", "Elements": [{"ValidationErrors": [{"Message": if message.is_empty() { "A validation error occurred." } else { message.as_str() }}]}]}),
                    401 => json!({"Title": "Unauthorized", "Status": 401, "Detail": "TokenExpired"}),
                    403 => json!({"Title": "Forbidden", "Status": 403, "Detail": "AuthorizationUnsuccessful"}),
                    404 => json!({"Title": "NotFound", "Status": 404, "Detail": "Resource not found"}),
                    429 => json!({"Title": "Too Many Requests", "Status": 429, "Detail": "minute rate limit exceeded"}),
                    _ => json!({"Title": "An error occurred", "Status": status, "Detail": message}),
                };
                let retry = v["retryAfter"].as_u64().or((status == 429).then_some(60));
                self.fail_next(status, body, retry);
            }
            "refuse-next-element" => self.refuse_next_element(&text("collection"), &text("message")),
            "expire-tokens" => {
                let mut st = self.st();
                st.tokens.clear();
                st.identity_expire();
            }
            "revoke" => self.revoke_grants(),
            "add-organisation" => {
                let tenant = self.add_organisation(&text("name"));
                return Answer::new(200, json!({"tenantId": tenant}));
            }
            _ => return Answer::new(400, json!({"error": "unknown action: fail-next, refuse-next-element, expire-tokens, revoke or add-organisation"})),
        }
        Answer::new(200, json!({"ok": true}))
    }

    /// The bearer token of a call, when it is one the fake issued and it has not expired.
    fn signed_in(&self, headers: &HeaderMap, now: NaiveDateTime) -> bool {
        let bearer = headers.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("");
        self.st().tokens.get(bearer).is_some_and(|exp| *exp > now)
    }

    /// `GET /connections` (Xero's identity API): the one organisation a Custom Connection reaches.
    fn connections(&self, headers: &HeaderMap) -> Answer {
        let now = self.now();
        if !self.signed_in(headers, now) {
            return Answer::new(401, json!({"Title": "Unauthorized", "Status": 401, "Detail": "AuthenticationUnsuccessful"}));
        }
        Answer::new(200, json!([super::identity::connection(&random_id(), &self.inner.tenant_id, "Demo Company (AU)", now)]))
    }

    /// Checks the token and the limits, then runs the call; the concurrency slot is held
    /// until the answer is ready (including a hang).
    async fn api(&self, method: &Method, rest: &str, query: &str, headers: &HeaderMap, body: &[u8], key: Option<&str>) -> Answer {
        let now = self.now();
        if !self.signed_in(headers, now) {
            return Answer::new(401, json!({"Title": "Unauthorized", "Status": 401, "Detail": "AuthenticationUnsuccessful"}));
        }
        // A call naming another organisation than the one the token reaches is refused.
        if headers.get("xero-tenant-id").and_then(|v| v.to_str().ok()).is_some_and(|t| t != self.inner.tenant_id || self.own_removed()) {
            return Answer::new(403, json!({"Type": null, "Title": "Forbidden", "Status": 403, "Detail": "AuthenticationUnsuccessful"}));
        }
        {
            let mut st = self.st();
            if let Some(refusal) = st.take_slot(now) {
                return refusal;
            }
        }
        let since = headers.get("if-modified-since").and_then(|v| v.to_str().ok()).map(modified_since);
        let mut answer = match since {
            Some(Err(m)) => Answer::new(400, json!({"ErrorNumber": 10, "Type": "ValidationException", "Message": m})),
            Some(Ok(t)) => self.call(method, rest, query, body, key, Some(t), now),
            None => self.call(method, rest, query, body, key, None, now),
        };
        {
            let mut st = self.st();
            st.in_flight = st.in_flight.saturating_sub(1);
            let (min_left, day_left) = (MINUTE_LIMIT.saturating_sub(st.minute.len()), DAY_LIMIT.saturating_sub(st.day.map_or(0, |d| d.1)));
            answer.headers.push(("X-MinLimit-Remaining", min_left.to_string()));
            answer.headers.push(("X-DayLimit-Remaining", day_left.to_string()));
        }
        answer
    }

    fn call(&self, method: &Method, rest: &str, query: &str, body: &[u8], key: Option<&str>, since: Option<NaiveDateTime>, now: NaiveDateTime) -> Answer {
        let mut st = self.st();
        if let Some((status, b, retry)) = st.fail_next.take() {
            let mut a = Answer::new(status, b);
            if let Some(r) = retry {
                a.headers.push(("Retry-After", r.to_string()));
            }
            if status == 429 {
                a.headers.push(("X-Rate-Limit-Problem", "minute".into()));
            }
            return a;
        }
        let writes = matches!(*method, Method::PUT | Method::POST);
        let digest = hex::encode(Sha256::digest(body));
        if let (true, Some(k)) = (writes, key) {
            if k.len() > 128 {
                return Answer::new(400, json!({"Type": "IdempotencyException", "Message": "Idempotency-Key must be 128 characters or less."}));
            }
            st.idempotent.retain(|_, v| now - v.3 < chrono::Duration::minutes(IDEMPOTENCY_MINUTES));
            if let Some((d, status, b, _)) = st.idempotent.get(k) {
                if *d != digest {
                    return Answer::new(400, json!({"Type": "IdempotencyException", "Message": "The Idempotency-Key was used with a different request body."}));
                }
                return Answer::new(*status, b.clone());
            }
        }
        let segs: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
        let parsed: Result<Value, Answer> = if writes {
            serde_json::from_slice(body).map_err(|e| Answer::new(400, json!({"ErrorNumber": 14, "Type": "PostDataInvalidException", "Message": format!("Invalid JSON: {e}")})))
        } else {
            Ok(Value::Null)
        };
        let refuse = st.refuse_element_next.take_if(|(coll, _)| writes && segs.first() == Some(&coll.as_str()));
        let mut answer = match (parsed, refuse) {
            (Err(a), _) => a,
            (Ok(b), Some((coll, message))) => st.refuse_all(&coll, &b, &message, now),
            (Ok(b), None) => st.route(method, &segs, query, &b, since, now),
        };
        if writes && answer.status == 200 && matches!(segs.first(), Some(&"Invoices") | Some(&"CreditNotes")) {
            answer.hang = st.hang_next.take();
        }
        if let (true, Some(k)) = (writes, key) {
            st.idempotent.insert(k.to_string(), (digest, answer.status, answer.body.clone(), now));
        }
        answer
    }
}

impl State {
    pub(super) fn route(&mut self, method: &Method, segs: &[&str], query: &str, body: &Value, since: Option<NaiveDateTime>, now: NaiveDateTime) -> Answer {
        let filter = match where_of(query) {
            Ok(f) => f,
            Err(m) => return Answer::new(400, json!({"Type": "QueryParseException", "Message": m})),
        };
        // Xero's default is to summarise: one refused element refuses the whole call.
        let summarize = !query.split('&').any(|p| p.eq_ignore_ascii_case("summarizeErrors=false"));
        match (method.as_str(), segs) {
            ("GET", ["Organisation"]) => ok("Organisations", vec![json!({"OrganisationID": "00000000-0000-0000-0000-00000000a001", "Name": "Demo Company (AU)", "CountryCode": "AU", "BaseCurrency": "AUD"})], now),
            ("GET", ["TaxRates"]) => ok(
                "TaxRates",
                TAX_RATES.iter().map(|(n, t, r)| json!({"Name": n, "TaxType": t, "Status": "ACTIVE", "EffectiveRate": r, "DisplayTaxRate": r})).collect(),
                now,
            ),
            ("GET", ["Accounts"]) => ok("Accounts", self.chart().iter().map(|(c, n, t)| json!({"Code": c, "Name": n, "Type": t, "Status": "ACTIVE"})).collect(), now),
            ("GET", ["Contacts"]) => ok("Contacts", self.contacts.iter().filter(|c| filter.matches(c)).cloned().collect(), now),
            ("GET", ["Contacts", id]) => match self.contacts.iter().find(|c| c["ContactID"] == *id).cloned() {
                Some(mut c) => {
                    c["Balances"] = self.balances(id, now.date());
                    ok("Contacts", vec![c], now)
                }
                None => Answer::new(404, json!({"Title": "NotFound", "Detail": "Resource not found"})),
            },
            ("PUT", ["Contacts"]) => self.save_contacts(body, None, false, summarize, now),
            ("POST", ["Contacts"]) => self.save_contacts(body, None, true, summarize, now),
            ("POST", ["Contacts", id]) => self.save_contacts(body, Some(id), true, true, now),
            ("GET", ["Items"]) => ok("Items", self.items.iter().filter(|i| filter.matches(i)).cloned().collect(), now),
            ("GET", ["Items", id]) => match self.items.iter().find(|i| i["ItemID"] == *id || i["Code"] == *id).cloned() {
                Some(i) => ok("Items", vec![i], now),
                None => Answer::new(404, json!({"Title": "NotFound"})),
            },
            ("PUT", ["Items"]) => self.save_items(body, false, summarize, now),
            ("POST", ["Items"]) => self.save_items(body, true, summarize, now),
            ("GET", [coll]) if *coll == "Invoices" || *coll == "CreditNotes" => {
                let k = if *coll == "Invoices" { INVOICES } else { CREDIT_NOTES };
                let number = |name: &str| query.split('&').find_map(|p| p.strip_prefix(name)).and_then(|p| p.parse::<usize>().ok());
                let paged = number("page=").is_some();
                let (page, size) = (number("page=").unwrap_or(1).max(1), number("pageSize=").unwrap_or(100).clamp(1, 1000));
                // `If-Modified-Since`: only documents whose UpdatedDateUTC is after it.
                let changed = |d: &&Value| since.is_none_or(|t| d["UpdatedDateUTC"].as_str().and_then(domain::payments::parse_ms_date).is_some_and(|u| u > t));
                let all: Vec<&Value> = self.docs(k).iter().filter(|d| filter.matches(d)).filter(changed).collect();
                let docs: Vec<Value> = all.iter().skip((page - 1) * size).take(size).map(|d| (*d).clone()).collect();
                let mut a = ok(k.coll, docs, now);
                if paged {
                    a.body["pagination"] = json!({"page": page, "pageSize": size, "pageCount": all.len().div_ceil(size), "itemCount": all.len()});
                }
                a
            }
            ("GET", [coll, id]) if *coll == "Invoices" || *coll == "CreditNotes" => {
                let k = if *coll == "Invoices" { INVOICES } else { CREDIT_NOTES };
                match self.docs(k).iter().find(|d| d[k.id] == *id || d[k.number] == *id).cloned() {
                    Some(d) => ok(k.coll, vec![d], now),
                    None => Answer::new(404, json!({"Title": "NotFound"})),
                }
            }
            ("PUT" | "POST", [coll, rest @ ..]) if (*coll == "Invoices" || *coll == "CreditNotes") && rest.len() <= 1 => {
                let k = if *coll == "Invoices" { INVOICES } else { CREDIT_NOTES };
                // `summarizeErrors` is a parameter of the collection only, not of `/{id}`.
                self.save_docs(k, body, rest.first().copied(), method == Method::POST, summarize || !rest.is_empty(), now)
            }
            _ => Answer::new(404, json!({"Title": "NotFound"})),
        }
    }
}

/// The bearer token a call carries.
fn bearer_of(headers: &HeaderMap) -> &str {
    headers.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).unwrap_or("")
}

/// An `If-Modified-Since` as Xero's description has it (a date-time; RFC 3339, or without an
/// offset as UTC), or why it cannot be read.
fn modified_since(text: &str) -> Result<NaiveDateTime, String> {
    chrono::DateTime::parse_from_rfc3339(text.trim())
        .map(|t| t.naive_utc())
        .or_else(|_| NaiveDateTime::parse_from_str(text.trim(), "%Y-%m-%dT%H:%M:%S%.f"))
        .map_err(|_| format!("If-Modified-Since '{text}' is not a date-time."))
}
