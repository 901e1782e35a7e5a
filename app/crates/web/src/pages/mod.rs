//! HTML screens: handlers and askama view structs, grouped by screen family.

pub mod baseinfo;
pub mod customers;
pub mod dispatch;
pub mod dispatch_print;
pub mod documents;
pub mod driver;
pub mod email;
pub mod errors;
pub mod island;
pub mod island_props;
pub mod landed;
pub mod list;
pub mod login;
pub mod masters;
pub mod ocops;
pub mod orders;
pub mod printing;
pub mod products;
pub mod quoting;
pub mod report_center;
pub mod reports;
pub mod settings;
pub mod exchange_rates;
pub mod posted;
pub mod shell;
pub mod stream;
pub mod suggestions;


use axum::Router;
use axum::routing::{get, post};

use db::masters::{Brand, Supplier, Warehouse};
use crate::state::AppState;

/// Routes of the HTML screens (spec §2.1).
pub fn router() -> Router<AppState> {
    let mut r = Router::new()
        .route("/", get(login::page))
        .route("/login", get(login::page).post(login::submit))
        .route("/logout", post(login::logout))
        .route("/switch-org", post(login::switch_org))
        .route("/password/reset", get(login::password_reset))
        .route("/suppliers", get(masters::suppliers))
        .route("/warehouses", get(masters::warehouses))
        .route("/brands", get(masters::brands))
        .route("/employees", get(masters::employees))
        .route("/order_detail/{route}/{id}", get(orders::detail::page))
        .route("/order_add/{route}", get(orders::form::new_page).post(orders::form::create))
        .route("/order_add/{route}/{operation}", get(orders::form::new_page))
        .route("/order_edit/{route}/{id}", get(orders::form::edit_page).post(orders::form::update))
        .route("/order_nav/{id}", get(orders::detail::navigate))
        .route("/order_action/{id}/{action}", post(orders::detail::act))
        .route("/quotings", get(quoting::page))
        .route("/quotations", get(documents::list).post(documents::save))
        .route("/quotations/{id}/pdf", get(documents::quotation_pdf))
        .route("/quotations/{id}/invoice", get(documents::convert))
        .route("/quotations/{id}/email", post(documents::email_quotation))
        .route("/customers/{id}/statement", get(documents::statement))
        .route("/customers/{id}/statement/email", post(documents::email_statement))
        .route("/purchase_order_print/{id}", get(documents::purchase_order))
        .route("/ocops", get(ocops::page))
        .route("/sales_reports", get(reports::sales))
        .route("/purchase_reports", get(reports::purchase))
        .route("/inventory_reports", get(reports::inventory))
        .route("/quotings/history/{id}", get(quoting::history))
        // Purchasing (issue 35): what is coming of a product, for the stock dropdown.
        .route("/quotings/coming/{id}", get(quoting::coming))
        .route("/order_print/batch", get(orders::print::batch))
        .route("/order_print/{id}", get(orders::print::one))
        .route("/reports_download", get(report_center::page))
        .route("/reports_download/jobs", get(report_center::jobs))
        .route("/reports_download/xero_batch", post(report_center::xero_batch))
        .route("/reports_download/statements", post(documents::statements_job))
        .route(
            "/reports_download/import/{kind}",
            post(report_center::import).layer(axum::extract::DefaultBodyLimit::max(domain::uploads::MAX_UPLOAD_BODY_BYTES)),
        )
        .route("/reports_download/template/{kind}", get(report_center::template))
        .route("/settings", get(settings::page).post(settings::save))
        .route("/settings/logo", get(settings::logo).post(settings::upload_logo))
        .route("/settings/xero", post(settings::connect))
        .route("/settings/xero/test", post(settings::test))
        .route("/settings/xero/mapping", post(settings::mapping))
        .route("/settings/xero/authorize", post(settings::authorize))
        .route(services::xero::CALLBACK_PATH, get(settings::callback))
        .route("/settings/xero/organisation", post(settings::organisation))
        .route("/settings/xero/disconnect", post(settings::disconnect))
        .route("/settings/email", post(email::save))
        .route("/settings/email/test", post(email::test))
        .route("/order_email/{id}/{doc}", post(email::send))
        // Purchasing (issue 35): the company's exchange rates.
        .route("/settings/exchange_rates", get(exchange_rates::show).post(exchange_rates::set))
        .route("/settings/exchange_rates/{id}/delete", post(exchange_rates::remove))
        .route("/settings/printers", post(printing::add))
        .route("/settings/printers/{id}", post(printing::edit))
        .route("/settings/printers/{id}/delete", post(printing::remove))
        .route("/settings/printers/{id}/test", post(printing::test))
        .route("/print_jobs", post(printing::send))
        .route("/print_jobs/{id}", get(printing::status))
        .route("/reports_download/{id}/cancel", post(report_center::cancel))
        .route("/products", get(products::list))
        .route("/customers", get(customers::list))
        .route("/baseinfo/products", get(baseinfo::new_product).post(baseinfo::create_product))
        .route("/baseinfo/products/{id}", get(baseinfo::edit_product).post(baseinfo::update_product))
        .route("/baseinfo/customers", get(baseinfo::new_customer).post(baseinfo::create_customer))
        .route("/baseinfo/customers/{id}/shop-invite", post(baseinfo::shop_invite))
        .route("/baseinfo/customers/{id}", get(baseinfo::edit_customer).post(baseinfo::update_customer))
        .route("/baseinfo/suppliers", get(baseinfo::new_record::<Supplier>).post(baseinfo::create_record::<Supplier>))
        .route("/baseinfo/suppliers/{id}", get(baseinfo::edit_record::<Supplier>).post(baseinfo::update_record::<Supplier>))
        .route("/baseinfo/warehouses", get(baseinfo::new_record::<Warehouse>).post(baseinfo::create_record::<Warehouse>))
        .route("/baseinfo/warehouses/{id}", get(baseinfo::edit_record::<Warehouse>).post(baseinfo::update_record::<Warehouse>))
        .route("/baseinfo/brands", get(baseinfo::new_record::<Brand>).post(baseinfo::create_record::<Brand>))
        .route("/baseinfo/brands/{id}", get(baseinfo::edit_record::<Brand>).post(baseinfo::update_record::<Brand>))
        .route("/baseinfo/employees", get(baseinfo::new_staff).post(baseinfo::create_staff))
        .route("/baseinfo/employees/{id}", get(baseinfo::edit_staff).post(baseinfo::update_staff))
        .route("/baseinfo/employees/{id}/password", post(baseinfo::reset_password))
        .route("/password/change", get(login::change_password_page).post(login::change_password));
    // Dispatch (issue 34): the picking list and the run sheet (PDF)
    r = r
        .route("/dispatch/picking", get(dispatch_print::picking))
        .route("/dispatch/runs/{id}/run_sheet", get(dispatch_print::run_sheet));
    // Dispatch (issue 34): driver — the run's link on a phone (no sign-in) and a stop's proof for staff.
    r = r
        .route("/r/{token}", get(driver::run))
        .route("/r/{token}/stops/{stop_id}", get(driver::stop).post(driver::record).layer(axum::extract::DefaultBodyLimit::max(driver::RECORD_BODY_LIMIT)))
        .route("/dispatch/proofs/{stop_id}", get(driver::proof));
    // Purchasing (issue 35): purchase suggestions
    r = r
        .route("/purchase_suggestions", get(suggestions::screen))
        .route("/purchase_suggestions/levels", post(suggestions::levels))
        .route("/purchase_suggestions/create", post(suggestions::create))
        .route("/purchase_suggestions/created", get(suggestions::created));
    // Dispatch (issue 34): board
    r = r
        .route("/dispatch", get(dispatch::board))
        .route("/dispatch/status", post(dispatch::set_status))
        .route("/dispatch/assign", post(dispatch::assign))
        .route("/dispatch/runs/{id}", get(dispatch::run))
        .route("/dispatch/runs/{id}/stops/{stop_id}/{action}", post(dispatch::stop_action))
        .route("/dispatch/runs/{id}/link", post(dispatch::new_link))
        .route("/dispatch/runs/{id}/link/revoke", post(dispatch::revoke_link))
        .route("/dispatch/reconciliation", get(dispatch::reconciliation))
        .route("/dispatch/close_day", post(dispatch::close_day));
    // Purchasing (issue 35): landed costs
    r = r
        .route("/landed_costs", get(landed::list).post(landed::create))
        .route("/landed_costs/new", get(landed::new_page))
        .route("/landed_costs/{id}", get(landed::show))
        .route("/landed_costs/{id}/edit", get(landed::edit_page).post(landed::update))
        .route("/landed_costs/{id}/approve", post(landed::approve))
        .route("/landed_costs/{id}/unapprove", post(landed::unapprove))
        .route("/products/{id}/cost_history", get(landed::cost_history));
    // The seven sheet lists; static routes above take precedence over this parameter.
    r = r.route("/{list}", get(orders::list::list));
    r
}

/// Post/redirect/get (issue 29): keeps what a post has to say once for the browser session
/// and answers the 303 to `to`, which gets `notice=1` so its page knows to take it. A
/// reload of that page shows nothing and posts nothing again.
pub async fn redirect_with_notice(state: &AppState, auth: &crate::auth::Auth, to: &str, level: &'static str, text: String) -> db::error::AppResult<axum::response::Response> {
    use axum::response::IntoResponse;
    if let Some(session) = auth.session.as_ref().map(|s| s.id.clone()) {
        state.db.write(move |c| db::notices::put(c, &session, level, &text)).await?;
    }
    let joiner = if to.contains('?') { '&' } else { '?' };
    Ok(axum::response::Redirect::to(&format!("{to}{joiner}notice=1")).into_response())
}

/// The notice a post kept for this page (level, text), taken: it shows once.
pub async fn take_notice(state: &AppState, auth: &crate::auth::Auth) -> db::error::AppResult<Option<(String, String)>> {
    let Some(session) = auth.session.as_ref().map(|s| s.id.clone()) else { return Ok(None) };
    state.db.write(move |c| db::notices::take(c, &session)).await
}

/// `?notice=1`: the page was reached by [`redirect_with_notice`].
#[derive(serde::Deserialize, Default, Debug, Clone)]
pub struct NoticeFlag {
    #[serde(default)]
    pub notice: Option<String>,
}

impl NoticeFlag {
    /// Takes the kept notice when the address says there is one.
    pub async fn take(&self, state: &AppState, auth: &crate::auth::Auth) -> db::error::AppResult<Option<(String, String)>> {
        if self.notice.as_deref() == Some("1") { take_notice(state, auth).await } else { Ok(None) }
    }
}

/// A stored `yyyy-MM-dd` as the date field shows it, `dd/mm/yyyy`; any other value (a date
/// the server refused, shown back as typed) unchanged. See templates/partials/date_input.html.
pub fn date_text(value: &str) -> String {
    match chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d") {
        Ok(d) => d.format("%d/%m/%Y").to_string(),
        Err(_) => value.to_string(),
    }
}

/// The shortcuts of a date field that has none.
pub const NO_DATE_SHORTCUTS: &[(&str, String)] = &[];

#[cfg(test)]
mod tests {
    #[test]
    fn shows_iso_days_as_dd_mm_yyyy_and_anything_else_as_typed() {
        assert_eq!(super::date_text("2026-11-23"), "23/11/2026");
        assert_eq!(super::date_text("2027-02-03"), "03/02/2027");
        assert_eq!(super::date_text(""), "");
        assert_eq!(super::date_text("31/02/2026"), "31/02/2026");
        assert_eq!(super::date_text("2026-02-31"), "2026-02-31");
    }
}

