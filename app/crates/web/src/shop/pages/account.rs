//! Signing in and out, and the customer's own password.

use super::*;

#[derive(Template, WebTemplate)]
#[template(path = "shop/login.html")]
pub struct LoginPage {
    pub css: String,
    pub csrf: String,
    pub email: String,
    pub alert: Option<String>,
    /// Companies to choose from when the e-mail and password open more than one shop.
    pub companies: Vec<(i64, String)>,
}

fn login_view(state: &AppState, secret: &str, email: String, alert: Option<String>, companies: Vec<(i64, String)>) -> LoginPage {
    LoginPage { css: state.assets.url("css/shop.css"), csrf: csrf::token_for(secret), email, alert, companies }
}

/// `GET /shop/login`.
pub async fn login_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    SHOP_COOKIES.form_page(&headers, state.secure_cookies, |secret| login_view(&state, secret, String::new(), None, vec![]).into_response())
}

#[derive(Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    org: String,
}

/// `POST /shop/login`.
pub async fn login(State(state): State<AppState>, ClientIp(ip): ClientIp, headers: HeaderMap, Form(form): Form<LoginForm>) -> Response {
    let Some(secret) = SHOP_COOKIES.secret(&headers) else {
        // No cookie, so the CSRF guard had nothing to check (as at the staff sign-in): a fresh form.
        return SHOP_COOKIES.form_page(&headers, state.secure_cookies, |secret| {
            (StatusCode::FORBIDDEN, login_view(&state, secret, form.email, Some(csrf::SIGN_IN_FORM_EXPIRED.into()), vec![])).into_response()
        });
    };
    if let Some(m) = validate::sign_in_email(&form.email).err().or_else(|| validate::sign_in_password(&form.password).err()) {
        return (StatusCode::UNPROCESSABLE_ENTITY, login_view(&state, &secret, form.email, Some(m.into()), vec![])).into_response();
    }
    let opened = match sign_in::customer(&state, &form.email, &form.password, ip).await {
        Ok(o) => o,
        Err(e) => return (e.status(), login_view(&state, &secret, form.email, Some(e.to_string()), vec![])).into_response(),
    };
    let chosen = match opened.as_slice() {
        [one] => one.clone(),
        many => match form.org.trim().parse::<i64>().ok().and_then(|o| many.iter().find(|a| a.org_id == o)) {
            Some(a) => a.clone(),
            None => {
                let companies = many.iter().map(|a| (a.org_id, a.org_name.clone())).collect();
                let alert = Some("This e-mail opens the shops of several companies. Choose one and sign in again.".to_string());
                return (StatusCode::OK, login_view(&state, &secret, form.email, alert, companies)).into_response();
            }
        },
    };
    let (org, customer) = (chosen.org_id, chosen.customer_id);
    match state.db.write(move |c| shop_db::create_session(c, org, customer)).await {
        Ok(token) => {
            let mut res = Redirect::to(if chosen.must_change { "/shop/password" } else { "/shop" }).into_response();
            SHOP_COOKIES.signed_in(&mut res, state.secure_cookies, &token);
            res
        }
        Err(e) => e.into_response(),
    }
}

/// `POST /shop/logout`.
pub async fn logout(State(state): State<AppState>, s: Shopper) -> AppResult<Response> {
    if let Some(id) = s.session {
        state.db.write(move |c| shop_db::delete_session(c, &id)).await?;
    }
    let mut res = Redirect::to("/shop/login").into_response();
    SHOP_COOKIES.signed_out(&mut res, state.secure_cookies);
    Ok(res)
}

#[derive(Template, WebTemplate)]
#[template(path = "shop/password.html")]
pub struct PasswordPage {
    pub shell: Shell,
    pub forced: bool,
    pub errors: BTreeMap<String, String>,
}

impl PasswordPage {
    fn error(&self, field: &str) -> &str {
        self.errors.get(field).map(String::as_str).unwrap_or("")
    }
}

const PASSWORD_TITLE: &str = "Password";

/// `GET /shop/password`.
pub async fn password_page(State(state): State<AppState>, s: Shopper, headers: HeaderMap) -> AppResult<Response> {
    let forced = s.who.must_change;
    let shell = Shell::new(&state, &s, PASSWORD_TITLE).await?;
    shell::respond(&state, &headers, shell, move |shell| async move { Ok(PasswordPage { forced, shell, errors: BTreeMap::new() }) }).await
}

#[derive(Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    password: String,
    #[serde(default)]
    confirm: String,
}

/// `POST /shop/password`: the customer's own password; their other sessions and tokens end.
pub async fn change_password(State(state): State<AppState>, s: Shopper, Form(f): Form<PasswordForm>) -> AppResult<Response> {
    if let Err(m) = validate::new_password_confirmed(&f.password, &f.confirm) {
        let errors = BTreeMap::from([("password".to_string(), m.to_string())]);
        return Ok((StatusCode::UNPROCESSABLE_ENTITY, PasswordPage { forced: s.who.must_change, shell: Shell::new(&state, &s, PASSWORD_TITLE).await?, errors }).into_response());
    }
    let hash = password::hash(&f.password)?;
    let (org, customer, keep) = (s.who.org_id, s.who.customer_id, s.session.clone());
    state
        .db
        .write(move |c| {
            shop_db::set_password(c, org, customer, &hash, false)?;
            shop_db::end_access(c, org, customer, keep.as_deref())
        })
        .await?;
    Ok(Redirect::to("/shop?m=password").into_response())
}
