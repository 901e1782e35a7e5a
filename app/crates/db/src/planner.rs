//! What the query planner knows and chooses: table statistics, and the plan of a query.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;

use crate::error::AppResult;
use crate::{Backend, DbConn};

/// Refreshes the planner's statistics where they are missing or stale (issue 10). Cheap: on
/// SQLite `PRAGMA optimize` analyses only tables that need it, reading at most about a
/// thousand rows per index; PostgreSQL's autovacuum does the same on its own. Run at start-up
/// and every hour by the server.
pub fn optimize(conn: &mut DbConn) -> AppResult<()> {
    if conn.backend() == Backend::Sqlite {
        // The limit is per connection: put it back, so a full ANALYZE later on this pooled
        // connection (after seeding) reads every row.
        conn.batch_execute("PRAGMA analysis_limit = 1000; PRAGMA optimize = 0x10002; PRAGMA analysis_limit = 0;")?;
    }
    Ok(())
}

/// Tables whose statistics steer the list and search plans.
pub const PLANNED_TABLES: [&str; 6] = ["orders", "order_lines", "products", "customers", "suppliers", "ocop_prices"];

/// Statistics of `tables`, gathered now: after seeding and after a large import, so the
/// first query after them is planned with the new row counts (SQLite never analyses on its
/// own; PostgreSQL's autovacuum would, but only some time later).
pub fn analyze(conn: &mut DbConn, tables: &[&str]) -> AppResult<()> {
    for t in tables {
        debug_assert!(t.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "table names are ours");
        conn.batch_execute(&format!("ANALYZE {t}"))?;
    }
    Ok(())
}

/// `EXPLAIN [QUERY PLAN] <query>`: how the backend will run one of our queries.
#[derive(Debug, Clone, Copy, diesel::query_builder::QueryId)]
struct Explain<Q, ST>(Q, &'static str, std::marker::PhantomData<ST>);

impl<Q, ST: 'static> diesel::query_builder::Query for Explain<Q, ST> {
    type SqlType = ST;
}

impl<Q, ST, DB> diesel::query_builder::QueryFragment<DB> for Explain<Q, ST>
where
    DB: diesel::backend::Backend,
    Q: diesel::query_builder::QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, mut out: diesel::query_builder::AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql(self.1);
        self.0.walk_ast(out.reborrow())
    }
}

impl<Q, ST, C> RunQueryDsl<C> for Explain<Q, ST> {}

/// The plan of `query`, one line per step (SQLite's `EXPLAIN QUERY PLAN` details, or
/// PostgreSQL's `EXPLAIN` lines): for tests that pin which index drives a query.
pub fn plan<Q>(conn: &mut DbConn, query: Q) -> AppResult<Vec<String>>
where
    Q: diesel::query_builder::QueryFragment<crate::multi_connection_impl::MultiBackend> + diesel::query_builder::QueryId,
{
    use diesel::sql_types::{Integer, Text};
    Ok(match conn.backend() {
        Backend::Sqlite => Explain::<_, (Integer, Integer, Integer, Text)>(query, "EXPLAIN QUERY PLAN ", std::marker::PhantomData)
            .load::<(i32, i32, i32, String)>(conn)?
            .into_iter()
            .map(|r| r.3)
            .collect(),
        Backend::Postgres => Explain::<_, Text>(query, "EXPLAIN ", std::marker::PhantomData).load::<String>(conn)?,
    })
}
