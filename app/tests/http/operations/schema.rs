use std::path::Path;

fn names(dir: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    let mut v: Vec<String> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

#[test]
fn migration_folders_of_both_backends_match() {
    let sqlite = names("migrations/sqlite");
    let pg = names("migrations/postgres");
    assert!(!sqlite.is_empty());
    assert_eq!(sqlite, pg, "migrations/sqlite and migrations/postgres must have the same folders");
}

#[tokio::test]
async fn every_table_of_the_schema_exists_on_this_backend() {
    use diesel::RunQueryDsl;
    use diesel::query_dsl::methods::{LimitDsl, SelectDsl};
    let app = crate::support::TestApp::new().await;
    app.state
        .db
        .run(|c| {
            use db::schema::*;
            macro_rules! probe {
                ($($t:ident),*) => {$(
                    $t::table.select(diesel::dsl::count_star()).limit(1).load::<i64>(c)?;
                )*};
            }
            probe!(organisations, users, memberships, sessions, api_clients, api_tokens, warehouses, brands, area_types, payment_types, suppliers,
                customers, products, price_changes, stocks, orders, order_lines, order_sequences, order_events, stock_moves, ocop_prices,
                jobs, xero_connections, imports, login_failures, audit_log, email_settings, emails);
            Ok(())
        })
        .await
        .unwrap();
}
