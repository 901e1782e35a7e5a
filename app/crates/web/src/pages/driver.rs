//! The driver's pages (issue 34, docs/decisions/dispatch.md "The driver's phone"): a run
//! opened by its link `/r/{token}` without signing in, one stop's form, and the record the
//! phone posts; and for signed-in staff, a stop's signature or photo.
//!
//! The token is the only key. These pages have their own small layout (no staff shell, no
//! islands, no link into the app), answer every refusal themselves (never the staff error
//! page, which links to the app) and are never cached nor passed on as a referrer.

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::{FromRequest, Multipart, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use crate::auth::Auth;
use crate::state::AppState;
use db::dispatch::StopRow;
use db::error::{AppError, AppResult};
use domain::Actor;
use domain::dispatch::{self as rules, DRIVER_PAY_TYPES, MAX_PROOF_BYTES, Outcome, ProofKind, StopInput};
use domain::enums::{ActualPayType, PaymentType, ShipType};
use domain::money::Cents;
use services::dispatch::{self as svc, Proof, Recorded, RunView};

/// The largest body a stop's post may have: a proof over [`MAX_PROOF_BYTES`] is still read
/// whole (and refused with the form kept), up to this.
pub const RECORD_BODY_LIMIT: usize = 8 * 1024 * 1024;
/// The longest text field of a stop's form.
const FIELD_LIMIT: usize = 1024;
/// What a phone that lost its link sees: nothing of the company.
const GONE: &str = "This link does not work (any more). Ask the office for the run's new link.";
/// A stop's post that could not be read.
const BROKEN: &str = "The form did not arrive whole: check the connection and save again.";
/// The header the phone's script sends to get JSON answers instead of pages.
const FETCH_HEADER: &str = "x-driver-fetch";

pub use crate::http::is_driver_path;

fn money(c: Cents) -> String {
    format!("${}", c.grouped())
}

/// Cents as the amount field shows them: `219.00`, no grouping.
fn amount_text(c: Cents) -> String {
    format!("{}.{:02}", c.0 / 100, (c.0 % 100).abs())
}

/// A phone number as a `tel:` address: its digits and a leading `+`.
fn tel(phone: &str) -> String {
    let mut out = String::new();
    for ch in phone.chars() {
        if ch.is_ascii_digit() || (ch == '+' && out.is_empty()) {
            out.push(ch);
        }
    }
    out
}

/// The money a driver recorded at a stop, `$219.00 Cash`, or empty.
fn collected_text(s: &StopRow) -> String {
    if s.collected <= 0 {
        return String::new();
    }
    format!("{} {}", money(Cents(s.collected)), ActualPayType::from_i32(s.collected_pay_type).map_or("", ActualPayType::label))
}

fn ship_of(s: &StopRow) -> ShipType {
    ShipType::from_i32(s.ship_type).unwrap_or(ShipType::Delivery)
}

/// A stop as the run's list shows it.
pub struct StopLine {
    pub id: i64,
    pub position: usize,
    pub customer: String,
    pub address: String,
    pub phone: String,
    pub tel: String,
    pub no: String,
    pub qty: i64,
    pub comment: String,
    /// `$219.00 Cash`, or empty.
    pub collect: String,
    /// What the driver recorded as collected: `$219.00 Cash`, or empty.
    pub collected: String,
    pub state: &'static str,
    pub done: bool,
    pub not_done: bool,
}

impl StopLine {
    fn new(n: usize, s: &StopRow) -> Self {
        let ship = ship_of(s);
        let outcome = Outcome::from_i32(s.outcome).unwrap_or(Outcome::Open);
        Self {
            id: s.stop_id,
            position: n + 1,
            customer: s.customer.clone().unwrap_or_default(),
            address: s.address.clone(),
            phone: s.phone.clone(),
            tel: tel(&s.phone),
            no: s.no.clone(),
            qty: s.total_qty,
            comment: s.delivery_comment.clone(),
            collect: svc::to_collect(s).map(|(how, due)| format!("{} {}", money(due), how.label())).unwrap_or_default(),
            collected: collected_text(s),
            state: outcome.wording(ship),
            done: outcome == Outcome::Done,
            not_done: outcome == Outcome::NotDone,
        }
    }
}

#[derive(Template, WebTemplate)]
#[template(path = "driver/run.html")]
pub struct RunPage {
    pub css: String,
    pub js: String,
    pub title: String,
    pub run_name: String,
    pub day: String,
    pub driver: String,
    pub token: String,
    pub stops: Vec<StopLine>,
    pub total: String,
    /// 'Saved: INV-1 Delivered' after a post.
    pub saved: Option<String>,
}

#[derive(Template, WebTemplate)]
#[template(path = "driver/stop.html")]
pub struct StopPage {
    pub css: String,
    pub js: String,
    pub title: String,
    pub token: String,
    pub stop: StopLine,
    pub run_name: String,
    /// The wording of done and not done for this ship type.
    pub done_label: &'static str,
    pub not_done_label: &'static str,
    pub key: String,
    pub form: StopForm,
    pub pay_types: Vec<(i32, &'static str)>,
    pub message: Option<String>,
    pub errors: BTreeMap<String, String>,
    /// What was recorded before, when the stop was: the form corrects it.
    pub recorded: Option<String>,
}

impl StopPage {
    fn error(&self, field: &str) -> &str {
        self.errors.get(field).map_or("", String::as_str)
    }
    fn has_error(&self, field: &str) -> bool {
        self.errors.contains_key(field)
    }
    fn is_pay_type(&self, code: &i32) -> bool {
        self.form.pay_type == code.to_string()
    }
}

/// What the stop's form holds, as typed.
#[derive(Clone, Debug, Default)]
pub struct StopForm {
    pub outcome: String,
    pub received_by: String,
    pub reason: String,
    pub collected: String,
    pub pay_type: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "driver/gone.html")]
pub struct GonePage {
    pub css: String,
    pub message: &'static str,
}

/// Headers of every driver's page: the token is in the address, so no cache keeps the page
/// and no referrer carries it on.
fn private(mut res: Response) -> Response {
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert("x-robots-tag", HeaderValue::from_static("noindex, nofollow"));
    res
}

/// The same plain 404 for every link that does not (or no longer) work.
pub fn gone(state: &AppState) -> Response {
    plain(state.assets.url("css/driver.css"), StatusCode::NOT_FOUND, GONE)
}

/// A plain page saying `message`, with nothing of the company and no link.
fn plain(css: String, status: StatusCode, message: &'static str) -> Response {
    let mut res = GonePage { css, message }.into_response();
    *res.status_mut() = status;
    private(res)
}

/// An error under `/r/` that no driver's handler answered (an address that is no page, a
/// body over the server's limit): the plain page, never the staff error page.
pub fn unhandled(status: StatusCode) -> Response {
    let message = if status == StatusCode::NOT_FOUND { GONE } else if status.is_server_error() { "Something went wrong on the server: nothing was saved. Try again, or call the office." } else { BROKEN };
    plain("/static/css/driver.css".into(), status, message)
}

/// Any other failure, on the driver's plain page (the staff error page links into the app).
fn failed(state: &AppState, e: &AppError) -> Response {
    if matches!(e, AppError::NotFound) {
        return gone(state);
    }
    let status = e.status();
    let message: &'static str = match status {
        StatusCode::SERVICE_UNAVAILABLE | StatusCode::CONFLICT => "The server is busy: wait a moment and try again.",
        s if s.is_server_error() => "Something went wrong on the server: nothing was saved. Try again, or call the office.",
        _ => BROKEN,
    };
    if status.is_server_error() {
        tracing::error!(error = %e, "a driver's page failed");
    }
    plain(state.assets.url("css/driver.css"), status, message)
}

async fn open_run(state: &AppState, token: &str) -> AppResult<RunView> {
    svc::driver_run(state, token.to_string()).await
}

#[derive(Deserialize, Default)]
pub struct RunQuery {
    saved: Option<i64>,
}

/// `GET /r/{token}`: the run's stops in order.
pub async fn run(State(state): State<AppState>, Path(token): Path<String>, Query(q): Query<RunQuery>) -> Response {
    let view = match open_run(&state, &token).await {
        Ok(v) => v,
        Err(e) => return failed(&state, &e),
    };
    let saved = q.saved.and_then(|id| view.stops.iter().find(|s| s.stop_id == id)).map(|s| {
        let outcome = Outcome::from_i32(s.outcome).unwrap_or(Outcome::Open);
        format!("Saved: {} {}", s.no, outcome.wording(ship_of(s)))
    });
    let total = view.total_to_collect().filter(|t| *t > Cents::ZERO).map(money).unwrap_or_default();
    let page = RunPage {
        css: state.assets.url("css/driver.css"),
        js: state.assets.url("js/driver.js"),
        title: format!("{} · {}", view.run.name, domain::dates::date(view.run.run_date)),
        run_name: view.run.name.clone(),
        day: domain::dates::date(view.run.run_date),
        driver: view.driver.clone(),
        stops: view.stops.iter().enumerate().map(|(n, s)| StopLine::new(n, s)).collect(),
        token,
        total,
        saved,
    };
    private(page.into_response())
}

fn stop_page(state: &AppState, token: String, view: &RunView, stop: i64, form: Option<StopForm>, refusal: Option<(String, BTreeMap<String, String>)>) -> Option<StopPage> {
    let n = view.stops.iter().position(|s| s.stop_id == stop)?;
    let s = &view.stops[n];
    let ship = ship_of(s);
    let due = svc::to_collect(s);
    let outcome = Outcome::from_i32(s.outcome).unwrap_or(Outcome::Open);
    let preselected = due
        .map(|(how, _)| how)
        .or_else(|| s.payment_type.and_then(PaymentType::from_i32).and_then(rules::pay_on_delivery))
        .or_else(|| ActualPayType::from_i32(s.collected_pay_type).filter(|p| DRIVER_PAY_TYPES.contains(p)))
        .unwrap_or(ActualPayType::Cash);
    let form = form.unwrap_or_else(|| match outcome {
        // A correction starts from what was recorded.
        Outcome::Done | Outcome::NotDone => StopForm {
            outcome: if outcome == Outcome::Done { "done".into() } else { "not_done".into() },
            received_by: s.received_by.clone(),
            reason: s.reason.clone(),
            collected: if s.collected > 0 { amount_text(Cents(s.collected)) } else { String::new() },
            pay_type: ActualPayType::from_i32(s.collected_pay_type).filter(|p| DRIVER_PAY_TYPES.contains(p)).unwrap_or(preselected).as_i32().to_string(),
        },
        Outcome::Open => StopForm {
            collected: due.map(|(_, c)| amount_text(c)).unwrap_or_default(),
            pay_type: preselected.as_i32().to_string(),
            ..StopForm::default()
        },
    });
    let recorded = (outcome != Outcome::Open).then(|| {
        let mut text = outcome.wording(ship).to_string();
        if !s.received_by.is_empty() {
            text.push_str(&format!(" · Received by {}", s.received_by));
        }
        if !s.reason.is_empty() {
            text.push_str(&format!(" · {}", s.reason));
        }
        if s.collected > 0 {
            text.push_str(&format!(" · collected {}", collected_text(s)));
        }
        if s.has_proof {
            text.push_str(" · proof kept");
        }
        text
    });
    let (message, errors) = match refusal {
        Some((m, e)) => (Some(m), e),
        None => (None, BTreeMap::new()),
    };
    Some(StopPage {
        css: state.assets.url("css/driver.css"),
        js: state.assets.url("js/driver.js"),
        title: format!("{} · {}", s.no, s.customer.clone().unwrap_or_default()),
        token,
        stop: StopLine::new(n, s),
        run_name: view.run.name.clone(),
        done_label: Outcome::Done.wording(ship),
        not_done_label: Outcome::NotDone.wording(ship),
        // 128 random bits: the key of this one post, so a retry is recognised.
        key: db::token::random_token()[..32].to_string(),
        form,
        pay_types: DRIVER_PAY_TYPES.iter().map(|p| (p.as_i32(), p.label())).collect(),
        message,
        errors,
        recorded,
    })
}

/// `GET /r/{token}/stops/{stop_id}`: the stop's form.
pub async fn stop(State(state): State<AppState>, Path((token, stop)): Path<(String, String)>) -> Response {
    let Ok(stop) = stop.parse::<i64>() else { return gone(&state) };
    let view = match open_run(&state, &token).await {
        Ok(v) => v,
        Err(e) => return failed(&state, &e),
    };
    match stop_page(&state, token, &view, stop, None, None) {
        Some(page) => private(page.into_response()),
        None => gone(&state),
    }
}

/// What the phone posted.
struct Posted {
    key: String,
    form: StopForm,
    signature: Option<Vec<u8>>,
    photo: Option<Vec<u8>>,
}

impl Posted {
    /// The proof: a photo when one was taken, else the signature.
    fn proof(self) -> (String, StopForm, Option<Proof>) {
        let proof = match (self.photo, self.signature) {
            (Some(bytes), _) => Some(Proof { kind: ProofKind::Photo, bytes }),
            (None, Some(bytes)) => Some(Proof { kind: ProofKind::Signature, bytes }),
            (None, None) => None,
        };
        (self.key, self.form, proof)
    }
}

/// Reads the post: short text fields, and a `signature` or `photo` file kept up to one byte
/// over the limit (so the service refuses it by its size) while the rest is still read, to
/// show the form back as it was typed.
async fn read_post(mut multipart: Multipart) -> Result<Posted, ()> {
    let mut posted = Posted { key: String::new(), form: StopForm::default(), signature: None, photo: None };
    while let Some(mut field) = multipart.next_field().await.map_err(|_| ())? {
        let name = field.name().unwrap_or("").to_string();
        let is_file = matches!(name.as_str(), "signature" | "photo");
        let limit = if is_file { MAX_PROOF_BYTES + 1 } else { FIELD_LIMIT };
        let mut data = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(|_| ())? {
            let room = limit.saturating_sub(data.len());
            data.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        if is_file {
            // A file input left empty still sends its part, with no bytes.
            if !data.is_empty() {
                if name == "photo" { posted.photo = Some(data) } else { posted.signature = Some(data) }
            }
            continue;
        }
        let text = String::from_utf8_lossy(&data).trim().to_string();
        match name.as_str() {
            "key" => posted.key = text,
            "outcome" => posted.form.outcome = text,
            "received_by" => posted.form.received_by = text,
            "reason" => posted.form.reason = text,
            "collected" => posted.form.collected = text,
            "pay_type" => posted.form.pay_type = text,
            _ => {}
        }
    }
    Ok(posted)
}

/// `POST /r/{token}/stops/{stop_id}` (multipart): records the stop. Without the phone's
/// script the answer is the run's list (303) or the form with its messages (422); with it
/// (`X-Driver-Fetch: 1`), JSON: `{saved, repeat, next}` or `{message, errors}`.
pub async fn record(State(state): State<AppState>, Path((token, stop)): Path<(String, String)>, headers: HeaderMap, req: Request) -> Response {
    let json = headers.contains_key(FETCH_HEADER);
    let Ok(stop) = stop.parse::<i64>() else { return gone(&state) };
    // The link and the stop first: a refused link is 404 whatever was posted.
    let view = match open_run(&state, &token).await {
        Ok(v) => v,
        Err(e) => return failed(&state, &e),
    };
    if !view.stops.iter().any(|s| s.stop_id == stop) {
        return gone(&state);
    }
    let posted = match Multipart::from_request(req, &()).await {
        Ok(m) => read_post(m).await,
        Err(_) => Err(()),
    };
    let Ok(posted) = posted else {
        return refused(&state, json, token, &view, stop, StopForm::default(), StatusCode::BAD_REQUEST, BROKEN.into(), BTreeMap::new());
    };
    let (key, form, proof) = posted.proof();
    let input = StopInput {
        outcome: form.outcome.clone(),
        received_by: form.received_by.clone(),
        reason: form.reason.clone(),
        collected: form.collected.clone(),
        pay_type: form.pay_type.parse().ok(),
        has_proof: false,
    };
    match svc::driver_record(&state, token.clone(), stop, key, input, proof).await {
        Ok(done) => {
            let next = format!("/r/{token}?saved={stop}");
            if json {
                let body = serde_json::json!({ "saved": true, "repeat": done == Recorded::Repeat, "next": next });
                return private((StatusCode::OK, axum::Json(body)).into_response());
            }
            private(Redirect::to(&next).into_response())
        }
        Err(AppError::NotFound) => gone(&state),
        Err(AppError::Validation { message, errors }) => refused(&state, json, token, &view, stop, form, StatusCode::UNPROCESSABLE_ENTITY, message, errors),
        Err(AppError::BadRequest(message)) => refused(&state, json, token, &view, stop, form, StatusCode::UNPROCESSABLE_ENTITY, message, BTreeMap::new()),
        Err(AppError::Conflict { message, .. }) => refused(&state, json, token, &view, stop, form, StatusCode::CONFLICT, message, BTreeMap::new()),
        Err(e) if json => {
            let status = e.status();
            if status.is_server_error() {
                tracing::error!(error = %e, "a driver's record failed");
            }
            private((status, axum::Json(serde_json::json!({ "message": "Not saved yet: the server is busy." })) ).into_response())
        }
        Err(e) => failed(&state, &e),
    }
}

/// A refused post: JSON for the phone's script, else the form again with what was typed.
#[allow(clippy::too_many_arguments)]
fn refused(state: &AppState, json: bool, token: String, view: &RunView, stop: i64, form: StopForm, status: StatusCode, message: String, errors: BTreeMap<String, String>) -> Response {
    if json {
        return private((status, axum::Json(serde_json::json!({ "message": message, "errors": errors }))).into_response());
    }
    match stop_page(state, token, view, stop, Some(form), Some((message, errors))) {
        Some(page) => {
            let mut res = page.into_response();
            *res.status_mut() = status;
            private(res)
        }
        None => gone(state),
    }
}

/// `GET /dispatch/proofs/{stop_id}`: a stop's signature or photo, for staff of its company.
pub async fn proof(State(state): State<AppState>, auth: Auth, Path(stop): Path<i64>) -> AppResult<Response> {
    let actor = Actor::from(&auth);
    let (mime, bytes) = svc::proof(&state, &actor, stop).await?;
    // Stored only after its first bytes said PNG or JPEG; anything else is not served as an image.
    let mime = match mime.as_str() {
        "image/png" => "image/png",
        "image/jpeg" => "image/jpeg",
        _ => return Err(AppError::NotFound),
    };
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(mime)),
            (header::CACHE_CONTROL, HeaderValue::from_static("private, no-store")),
            (header::CONTENT_DISPOSITION, HeaderValue::from_static("inline")),
        ],
        bytes,
    )
        .into_response())
}

/// One stop of a sheet as its "Proof of delivery" section shows it.
pub struct ProofLine {
    pub stop_id: i64,
    pub run: String,
    pub day: String,
    pub outcome: &'static str,
    pub received_by: String,
    pub reason: String,
    /// `$219.00 Cash`, or empty.
    pub collected: String,
    pub at: String,
    pub at_iso: String,
    pub has_proof: bool,
    pub no: String,
}

/// The sheet's stops on runs, newest first, for its detail page (empty when it has none).
pub async fn proof_lines(state: &AppState, auth: &Auth, order: i64) -> AppResult<Vec<ProofLine>> {
    let actor = Actor::from(auth);
    let stops = svc::stops_of_sheet(state, &actor, order).await?;
    Ok(stops
        .into_iter()
        .map(|(run, s)| {
            let ship = ship_of(&s);
            ProofLine {
                stop_id: s.stop_id,
                run: run.name.clone(),
                day: domain::dates::date(run.run_date),
                outcome: Outcome::from_i32(s.outcome).unwrap_or(Outcome::Open).wording(ship),
                received_by: s.received_by.clone(),
                reason: s.reason.clone(),
                collected: collected_text(&s),
                at: s.recorded_at.map(|t| domain::dates::date_time(t, auth.zone)).unwrap_or_default(),
                at_iso: s.recorded_at.map(|t| domain::dates::date_time_iso(t, auth.zone)).unwrap_or_default(),
                has_proof: s.has_proof,
                no: s.no.clone(),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phone_numbers_become_tel_addresses() {
        assert_eq!(tel("(02) 9876 5432"), "0298765432");
        assert_eq!(tel("+61 412 345 678"), "+61412345678");
        assert_eq!(tel("0412-345+678"), "0412345678");
        assert_eq!(tel(""), "");
    }

    #[test]
    fn amounts_are_prefilled_without_grouping() {
        assert_eq!(amount_text(Cents(123_456)), "1234.56");
        assert_eq!(amount_text(Cents(5)), "0.05");
        assert!(Cents::parse_non_negative(&amount_text(Cents(123_456))).is_ok_and(|c| c == Cents(123_456)));
    }

    #[test]
    fn only_the_run_link_is_a_drivers_path() {
        assert!(is_driver_path("/r/23456789ABCDEFGHJKMN"));
        assert!(!is_driver_path("/reports_download") && !is_driver_path("/r"));
    }
}
