//! Settings › Exchange rates (issue 35, role 4): the company's dated rates, the form that
//! sets one and the buttons that remove one (`services::exchange_rates`).

use std::collections::BTreeMap;

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::NoticeFlag;
use super::shell::Shell;
use crate::auth::Auth;
use crate::state::AppState;
use db::error::{AppError, AppResult};
use domain::Actor;
use domain::currency::{CURRENCIES, Rate, rate_text};
use services::exchange_rates::{self as svc, RateForm};

const PATH: &str = "/settings/exchange_rates";

/// One listed rate.
pub struct RateLine {
    pub id: i64,
    pub currency: String,
    pub date: String,
    pub rate: String,
    pub text: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "settings/exchange_rates.html")]
pub struct RatesPage {
    pub shell: Shell,
    pub rows: Vec<RateLine>,
    /// The foreign currencies a rate may be set for (code, name).
    pub currencies: Vec<(&'static str, &'static str)>,
    /// What was typed (after a refusal) and the messages.
    pub currency: String,
    pub date: String,
    pub rate: String,
    pub errors: BTreeMap<String, String>,
    pub alert: Option<(&'static str, String)>,
}

impl RatesPage {
    fn err(&self, field: &str) -> &str {
        self.errors.get(field).map(String::as_str).unwrap_or("")
    }
}

async fn page(state: &AppState, auth: &Auth, typed: RateForm, errors: BTreeMap<String, String>, alert: Option<(&'static str, String)>) -> AppResult<RatesPage> {
    let rows = svc::list(state, &Actor::from(auth)).await?;
    let shell = Shell::new(state, auth, "Exchange rates", "/settings", &[]).await?;
    Ok(RatesPage {
        shell,
        rows: rows
            .into_iter()
            .map(|r| RateLine {
                id: r.id,
                date: domain::dates::date(r.rate_date),
                rate: Rate(r.rate).plain(),
                text: rate_text(&r.currency, Rate(r.rate)),
                currency: r.currency,
            })
            .collect(),
        currencies: CURRENCIES.iter().copied().filter(|(c, _)| *c != domain::currency::AUD).collect(),
        currency: typed.currency,
        date: if typed.date.is_empty() { domain::dates::today(auth.zone).to_string() } else { typed.date },
        rate: typed.rate,
        errors,
        alert,
    })
}

/// `GET /settings/exchange_rates`.
pub async fn show(State(state): State<AppState>, auth: Auth, Query(q): Query<NoticeFlag>) -> AppResult<Response> {
    let alert = q.take(&state, &auth).await?.map(|(level, text)| (if level == "error" { "error" } else { "success" }, text));
    Ok(page(&state, &auth, RateForm::default(), BTreeMap::new(), alert).await?.into_response())
}

#[derive(Deserialize, Default)]
pub struct RatePost {
    #[serde(default)]
    currency: String,
    #[serde(default)]
    date: String,
    #[serde(default)]
    rate: String,
}

/// `POST /settings/exchange_rates`: sets a rate; 422 with the messages when refused.
pub async fn set(State(state): State<AppState>, auth: Auth, Form(f): Form<RatePost>) -> AppResult<Response> {
    let form = RateForm { currency: f.currency, date: f.date, rate: f.rate };
    match svc::set(&state, &Actor::from(&auth), form.clone()).await {
        Ok(message) => super::redirect_with_notice(&state, &auth, PATH, "success", message).await,
        Err(AppError::Validation { message, errors }) => {
            let page = page(&state, &auth, form, errors, Some(("error", message))).await?;
            Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response())
        }
        Err(e) => Err(e),
    }
}

/// `POST /settings/exchange_rates/{id}/delete`.
pub async fn remove(State(state): State<AppState>, auth: Auth, Path(id): Path<i64>) -> AppResult<Response> {
    let message = svc::remove(&state, &Actor::from(&auth), id).await?;
    super::redirect_with_notice(&state, &auth, PATH, "success", message).await
}
