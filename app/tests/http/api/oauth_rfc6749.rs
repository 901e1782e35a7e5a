//! Issue 32: `/oauth/token` speaks RFC 6749 to outside clients. A standard client library
//! (the `oauth2` crate, as the Xero link uses it) gets tokens over a real socket with its
//! client credentials in HTTP Basic (§2.3.1) and in the body; every §5.2 error is asserted
//! with plain requests: status, `error`, and the headers.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use diesel::prelude::*;
use oauth2::basic::{BasicClient, BasicErrorResponseType, BasicTokenType};
use oauth2::{AuthType, ClientId, ClientSecret, RequestTokenError, ResourceOwnerPassword, ResourceOwnerUsername, TokenResponse, TokenUrl};

use crate::support::{TestApp, TestResponse};

const PASSWORD: &str = "tyredesk";
const CLIENT: &str = "tyredesk-web";
const SECRET: &str = "demo-secret";
/// The demo client's id and secret in HTTP Basic: base64 of `tyredesk-web:demo-secret`.
const DEMO_BASIC: &str = "Basic dHlyZWRlc2std2ViOmRlbW8tc2VjcmV0";
const LOGIN_FAILED: &str = "Login failed. Incorrect email or password";
const TOO_MANY: &str = "Too many attempts, please slow down the fresh pace";

/// The app on a loopback port, stopped when the test ends.
struct Server {
    addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn serve(app: &TestApp) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(web::server::serve_on(listener, app.router.clone(), web::server::ConnLimits::default(), async {
        let _ = stopped.await;
    }));
    Server { addr, stop: Some(stop) }
}

fn client(server: &Server, id: &str, secret: &str, auth: AuthType) -> BasicClient<oauth2::EndpointNotSet, oauth2::EndpointNotSet, oauth2::EndpointNotSet, oauth2::EndpointNotSet, oauth2::EndpointSet> {
    BasicClient::new(ClientId::new(id.into()))
        .set_client_secret(ClientSecret::new(secret.into()))
        .set_token_uri(TokenUrl::new(format!("http://{}/oauth/token", server.addr)).unwrap())
        .set_auth_type(auth)
}

fn http() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(Duration::from_secs(30)).build().unwrap()
}

/// The warehouses of company `org` with a bearer token, over the socket.
async fn warehouses(server: &Server, token: &str, org: i64) -> (reqwest::StatusCode, serde_json::Value) {
    let res = http().get(format!("http://{}/api/warehouses", server.addr)).bearer_auth(token).header("x-org-id", org.to_string()).send().await.unwrap();
    (res.status(), res.json().await.unwrap_or_default())
}

#[tokio::test]
async fn a_standard_client_gets_a_token_with_basic_and_with_body_credentials() {
    let app = TestApp::new().await;
    let server = serve(&app).await;
    let user = ResourceOwnerUsername::new("multi@demo.test".into());
    let pass = ResourceOwnerPassword::new(PASSWORD.into());
    for auth in [AuthType::BasicAuth, AuthType::RequestBody] {
        let answer = client(&server, CLIENT, SECRET, auth.clone()).exchange_password(&user, &pass).request_async(&http()).await;
        let answer = answer.unwrap_or_else(|e| panic!("{auth:?}: {e:?}"));
        assert_eq!(*answer.token_type(), BasicTokenType::Bearer);
        assert_eq!(answer.expires_in(), Some(Duration::from_secs(12 * 3600)), "{auth:?}");
        let (status, body) = warehouses(&server, answer.access_token().secret(), 4).await;
        assert_eq!(status, reqwest::StatusCode::OK, "{auth:?}: {body}");
        assert!(body["meta"]["total"].as_i64().unwrap() > 0, "{auth:?}: {body}");
    }

    // §2.3.1: inside Basic, id and secret are each form-urlencoded first; a client whose id
    // and secret hold reserved characters gets in by Basic and by the body alike.
    let (id, secret) = ("partner app:1", "s3cr+t/=:&%é ok");
    let hash = services::password::hash(secret).unwrap();
    app.state.db.write(move |c| db::accounts::insert_client(c, id, &hash, "Partner")).await.unwrap();
    for auth in [AuthType::BasicAuth, AuthType::RequestBody] {
        let answer = client(&server, id, secret, auth.clone()).exchange_password(&user, &pass).request_async(&http()).await;
        assert!(answer.is_ok(), "{auth:?}: {answer:?}");
    }
}

#[tokio::test]
async fn the_client_library_reads_the_errors_as_rfc_6749_codes() {
    let app = TestApp::new().await;
    let server = serve(&app).await;
    let user = ResourceOwnerUsername::new("sales@demo.test".into());
    let wrong = ResourceOwnerPassword::new("wrong".into());
    let right = ResourceOwnerPassword::new(PASSWORD.into());
    let refusal = |r: Result<_, RequestTokenError<_, oauth2::basic::BasicErrorResponse>>| match r {
        Err(RequestTokenError::ServerResponse(e)) => (e.error().clone(), e.error_description().cloned().unwrap_or_default()),
        other => panic!("not an RFC 6749 error answer: {other:?}"),
    };
    for auth in [AuthType::BasicAuth, AuthType::RequestBody] {
        let c = client(&server, CLIENT, SECRET, auth.clone());
        let (error, description) = refusal(c.exchange_password(&user, &wrong).request_async(&http()).await);
        assert_eq!(error, BasicErrorResponseType::InvalidGrant, "{auth:?}");
        assert_eq!(description, LOGIN_FAILED);
        let c = client(&server, CLIENT, "not-the-secret", auth.clone());
        let (error, _) = refusal(c.exchange_password(&user, &right).request_async(&http()).await);
        assert_eq!(error, BasicErrorResponseType::InvalidClient, "{auth:?}");
    }
}

/// Posts to `/oauth/token` in-process.
async fn post(app: &TestApp, body: &str, content_type: &str, headers: &[(&str, &str)]) -> TestResponse {
    app.request(Method::POST, "/oauth/token", Some(Body::from(body.to_string())), Some(content_type), headers).await
}

async fn form(app: &TestApp, body: &str, headers: &[(&str, &str)]) -> TestResponse {
    post(app, body, "application/x-www-form-urlencoded", headers).await
}

/// Asserts an RFC 6749 §5.2 answer: status, `error`, a description (also as the app's
/// `message`), no caching (§5.1), and a Basic challenge exactly on 401.
#[track_caller]
fn assert_refused(res: &TestResponse, status: StatusCode, error: &str, case: &str) -> String {
    assert_eq!(res.status, status, "{case}: {}", res.body);
    assert!(res.headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|ct| ct.starts_with("application/json")), "{case}");
    let body = res.json();
    assert_eq!(body["error"], error, "{case}: {body}");
    let description = body["error_description"].as_str().unwrap_or_default().to_string();
    assert!(!description.is_empty(), "{case}: {body}");
    assert_eq!(body["message"], description, "{case}: the app's message is kept");
    assert_eq!(res.headers.get(header::CACHE_CONTROL).and_then(|v| v.to_str().ok()), Some("no-store"), "{case}");
    assert_eq!(res.headers.get(header::PRAGMA).and_then(|v| v.to_str().ok()), Some("no-cache"), "{case}");
    let challenge = res.headers.get(header::WWW_AUTHENTICATE).and_then(|v| v.to_str().ok());
    if status == StatusCode::UNAUTHORIZED {
        assert_eq!(challenge, Some("Basic realm=\"tyredesk\""), "{case}");
    } else {
        assert_eq!(challenge, None, "{case}");
    }
    description
}

#[tokio::test]
async fn every_section_5_2_error_is_answered_as_the_rfc_says() {
    let app = TestApp::new().await;
    let creds = "client_id=tyredesk-web&client_secret=demo-secret";
    let user = "username=sales%40demo.test&password=tyredesk";
    let bad = StatusCode::BAD_REQUEST;

    // invalid_request: a missing parameter, one sent twice, two ways of client authentication,
    // a body that is neither a form nor JSON.
    let cases = [
        (format!("{user}&{creds}"), "no grant_type"),
        (format!("grant_type=&{user}&{creds}"), "an empty grant_type is a missing one"),
        (format!("grant_type=password&password=tyredesk&{creds}"), "no username"),
        (format!("grant_type=password&username=sales%40demo.test&{creds}"), "no password"),
        (format!("grant_type=password&username=sales%40demo.test&password=&{creds}"), "an empty password"),
        (format!("grant_type=password&{user}&password=other&{creds}"), "password twice"),
        (format!("grant_type=password&{user}&{creds}&client_id=tyredesk-web"), "client_id twice"),
    ];
    for (body, case) in &cases {
        assert_refused(&form(&app, body, &[]).await, bad, "invalid_request", case);
    }
    let both = form(&app, &format!("grant_type=password&{user}&{creds}"), &[("authorization", DEMO_BASIC)]).await;
    assert_refused(&both, bad, "invalid_request", "Basic and body credentials at once");
    let json = r#"{"grant_type":"password","username":"sales@demo.test","password":"tyredesk","password":"x","client_id":"tyredesk-web","client_secret":"demo-secret"}"#;
    assert_refused(&post(&app, json, "application/json", &[]).await, bad, "invalid_request", "a JSON member twice");
    assert_refused(&post(&app, "{not json", "application/json", &[]).await, bad, "invalid_request", "broken JSON");
    assert_refused(&post(&app, &format!("grant_type=password&{user}&{creds}"), "text/plain", &[]).await, bad, "invalid_request", "a text body");
    let huge = format!("grant_type=password&{user}&{creds}&scope={}", "a".repeat(3 << 20));
    assert_refused(&form(&app, &huge, &[]).await, StatusCode::PAYLOAD_TOO_LARGE, "invalid_request", "a body over 2 MB");

    // unsupported_grant_type.
    for grant in ["client_credentials", "authorization_code", "Password"] {
        let res = form(&app, &format!("grant_type={grant}&{user}&{creds}"), &[]).await;
        assert_refused(&res, bad, "unsupported_grant_type", grant);
    }

    // invalid_client: 401 with a Basic challenge (§5.2), whichever way the client came.
    let unauthorized = StatusCode::UNAUTHORIZED;
    let clients = [
        (format!("grant_type=password&{user}"), vec![], "no client at all"),
        (format!("grant_type=password&{user}&client_id=tyredesk-web"), vec![], "no secret"),
        (format!("grant_type=password&{user}&client_id=nobody&client_secret=demo-secret"), vec![], "an unknown client"),
        (format!("grant_type=password&{user}&client_id=tyredesk-web&client_secret=wrong"), vec![], "a wrong secret in the body"),
        // base64 of `tyredesk-web:wrong`, of `nobody:demo-secret`, and not base64 at all.
        (format!("grant_type=password&{user}"), vec![("authorization", "Basic dHlyZWRlc2std2ViOndyb25n")], "a wrong secret in Basic"),
        (format!("grant_type=password&{user}"), vec![("authorization", "Basic bm9ib2R5OmRlbW8tc2VjcmV0")], "an unknown client in Basic"),
        (format!("grant_type=password&{user}"), vec![("authorization", "Basic ***")], "a Basic header that is not base64"),
        (format!("grant_type=password&{user}"), vec![("authorization", "Bearer abc")], "a scheme other than Basic"),
    ];
    for (body, headers, case) in &clients {
        let description = assert_refused(&form(&app, body, headers).await, unauthorized, "invalid_client", case);
        assert_eq!(description, "Invalid client: the client id or secret is wrong.", "{case}");
    }
    // A client may name itself in the body beside its Basic credentials (§3.2.1), but only itself.
    let named = form(&app, &format!("grant_type=password&{user}&client_id=tyredesk-web"), &[("authorization", DEMO_BASIC)]).await;
    assert_eq!(named.status, StatusCode::OK, "{}", named.body);
    let other = form(&app, &format!("grant_type=password&{user}&client_id=someone-else"), &[("authorization", DEMO_BASIC)]).await;
    assert_refused(&other, bad, "invalid_request", "Basic for one client, the body naming another");

    // invalid_grant: wrong or unknown credentials, an account without API access, a password
    // that must be changed first: the spec's messages as descriptions.
    let grants = [
        ("username=sales%40demo.test&password=wrong", LOGIN_FAILED, "a wrong password"),
        ("username=nobody%40demo.test&password=tyredesk", domain::shop::SIGN_IN_FAILED, "an unknown e-mail (asked as a customer)"),
        ("username=warehouse%40demo.test&password=tyredesk", domain::permissions::WAREHOUSE_REFUSED, "warehouse staff"),
        ("username=shop%40demo.test&password=wrong", domain::shop::SIGN_IN_FAILED, "a customer's wrong password"),
    ];
    for (who, message, case) in grants {
        let res = form(&app, &format!("grant_type=password&{who}&{creds}"), &[]).await;
        assert_eq!(assert_refused(&res, bad, "invalid_grant", case), message, "{case}");
    }
    app.state
        .db
        .write(|c| {
            use db::schema::{customers, users};
            diesel::update(users::table.filter(users::email.eq("approver@demo.test"))).set(users::must_change_password.eq(true)).execute(c)?;
            diesel::update(customers::table.filter(customers::email.eq("shop@demo.test"))).set(customers::shop_must_change.eq(true)).execute(c)?;
            Ok(())
        })
        .await
        .unwrap();
    let staff = form(&app, &format!("grant_type=password&username=approver%40demo.test&password=tyredesk&{creds}"), &[]).await;
    assert_eq!(assert_refused(&staff, bad, "invalid_grant", "staff must change first"), domain::admin::PASSWORD_CHANGE_REQUIRED);
    let shop = form(&app, &format!("grant_type=password&username=shop%40demo.test&password=tyredesk&{creds}"), &[]).await;
    assert_eq!(assert_refused(&shop, bad, "invalid_grant", "a customer must change first"), domain::shop::PASSWORD_CHANGE_FIRST);

    // The success answer is not cached either (§5.1), for a form with Basic as for JSON.
    let ok = form(&app, &format!("grant_type=password&{user}&scope="), &[("authorization", DEMO_BASIC)]).await;
    let json = serde_json::json!({"grant_type": "password", "username": "sales@demo.test", "password": PASSWORD, "client_id": CLIENT, "client_secret": SECRET, "scope": ""});
    let ok_json = post(&app, &json.to_string(), "application/json", &[]).await;
    for res in [ok, ok_json] {
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        assert_eq!(res.json()["token_type"], "Bearer");
        assert_eq!(res.headers.get(header::CACHE_CONTROL).and_then(|v| v.to_str().ok()), Some("no-store"));
        assert_eq!(res.headers.get(header::PRAGMA).and_then(|v| v.to_str().ok()), Some("no-cache"));
    }
}

#[tokio::test]
async fn a_throttled_account_answers_429_with_invalid_grant() {
    let app = TestApp::new().await;
    let body = "grant_type=password&username=sales%40demo.test&password=guess";
    for n in 1..=5 {
        let res = form(&app, body, &[("authorization", DEMO_BASIC)]).await;
        assert_refused(&res, StatusCode::BAD_REQUEST, "invalid_grant", &format!("guess {n}"));
    }
    let res = form(&app, body, &[("authorization", DEMO_BASIC)]).await;
    assert_eq!(assert_refused(&res, StatusCode::TOO_MANY_REQUESTS, "invalid_grant", "throttled"), TOO_MANY);
}

#[tokio::test]
async fn a_customer_of_several_companies_picks_one_with_x_org_id() {
    let app = TestApp::new().await;
    // shop@demo.test also orders from company 9, with the same password.
    app.state
        .db
        .write(|c| {
            use db::schema::customers;
            let hash: String = customers::table.filter(customers::email.eq("shop@demo.test")).select(customers::shop_password_hash).first(c)?;
            let other: i64 = customers::table.filter(customers::org_id.eq(9)).order(customers::id.asc()).select(customers::id).first(c)?;
            diesel::update(customers::table.find(other))
                .set((customers::email.eq("shop@demo.test"), customers::login_shop.eq(true), customers::shop_password_hash.eq(hash), customers::shop_must_change.eq(false)))
                .execute(c)?;
            Ok(())
        })
        .await
        .unwrap();
    let body = "grant_type=password&username=shop%40demo.test&password=tyredesk&client_id=tyredesk-web&client_secret=demo-secret";
    let which = assert_refused(&form(&app, body, &[]).await, StatusCode::BAD_REQUEST, "invalid_request", "no X-Org-Id");
    assert!(which.contains("X-Org-Id"), "{which}");
    let elsewhere = assert_refused(&form(&app, body, &[("x-org-id", "77")]).await, StatusCode::BAD_REQUEST, "invalid_grant", "a company the customer has no shop in");
    assert_eq!(elsewhere, "No access to this organisation.");
    let chosen = form(&app, body, &[("x-org-id", "9")]).await;
    assert_eq!(chosen.status, StatusCode::OK, "{}", chosen.body);
    let token = chosen.json()["access_token"].as_str().unwrap().to_string();
    let me = app.request(Method::GET, "/api/shop/orders", None, None, &[("authorization", &format!("Bearer {token}"))]).await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.body);
}
