//! Paging: the count and the sorted page of a list, keyset cursors, and reading a whole
//! query in keyset chunks from one snapshot (exports).

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::expression::{AsExpression, BoxableExpression, TypedExpressionType};
use diesel::query_builder::QueryFragment;
use diesel::sql_types::{BigInt, Bool, SqlType};

use crate::error::AppResult;
use crate::{Backend, DbConn, MultiBackend};

/// `SELECT COUNT(*) FROM (<query>) AS counted`: with a `LIMIT` inside, a count that stops at
/// the limit instead of visiting every match (list totals, issue 10).
#[derive(Debug, Clone, Copy, diesel::query_builder::QueryId)]
pub struct CountOf<Q>(pub Q);

impl<Q> diesel::query_builder::Query for CountOf<Q> {
    type SqlType = diesel::sql_types::BigInt;
}

impl<Q, DB> diesel::query_builder::QueryFragment<DB> for CountOf<Q>
where
    DB: diesel::backend::Backend,
    Q: diesel::query_builder::QueryFragment<DB>,
{
    fn walk_ast<'b>(&'b self, mut out: diesel::query_builder::AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("SELECT COUNT(*) FROM (");
        self.0.walk_ast(out.reborrow())?;
        out.push_sql(") AS counted");
        Ok(())
    }
}

impl<Q, C> RunQueryDsl<C> for CountOf<Q> {}

/// `SELECT id, COUNT(*) OVER () FROM (<query>) AS matched ORDER BY <order> LIMIT <limit>
/// OFFSET <offset>`: a page of the ids that `query` selects (with `id` and the columns `order`
/// names), sorted after they are all found, each with the number found. With a `LIMIT`
/// inside, the derived table is planned on its own, so its rows are found through the most
/// selective index (a text index) whatever the order wants.
#[derive(Debug, Clone, diesel::query_builder::QueryId)]
pub struct SortedPage<Q> {
    pub query: Q,
    /// An ORDER BY list over the query's column names; our own text, never input.
    pub order: &'static str,
    pub offset: i64,
    pub limit: i64,
}

impl<Q> diesel::query_builder::Query for SortedPage<Q> {
    type SqlType = (diesel::sql_types::BigInt, diesel::sql_types::BigInt);
}

impl<Q, DB> diesel::query_builder::QueryFragment<DB> for SortedPage<Q>
where
    DB: diesel::backend::Backend,
    Q: diesel::query_builder::QueryFragment<DB>,
    i64: diesel::serialize::ToSql<diesel::sql_types::BigInt, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: diesel::query_builder::AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("SELECT id, COUNT(*) OVER () FROM (");
        self.query.walk_ast(out.reborrow())?;
        out.push_sql(") AS matched ORDER BY ");
        out.push_sql(self.order);
        out.push_sql(" LIMIT ");
        out.push_bind_param::<diesel::sql_types::BigInt, _>(&self.limit)?;
        out.push_sql(" OFFSET ");
        out.push_bind_param::<diesel::sql_types::BigInt, _>(&self.offset)?;
        Ok(())
    }
}

impl<Q, C> RunQueryDsl<C> for SortedPage<Q> {}

/// A filter of a boxed query on `QS`, chosen at run time.
pub type Predicate<QS> = Box<dyn BoxableExpression<QS, MultiBackend, SqlType = Bool>>;

/// The rows after a keyset cursor: `(key_col, id_col) > (key, id)`, or `<` when the list runs
/// descending. One row-value comparison, which both backends answer from an index holding
/// the columns in that order instead of filtering from the start of the list.
pub fn after_key<QS, ST, T>(key_col: &str, id_col: &str, desc: bool, key: T, id: i64) -> Predicate<QS>
where
    ST: SqlType + TypedExpressionType + 'static,
    T: AsExpression<ST>,
    T::Expression: QueryFragment<MultiBackend> + Send + 'static,
{
    let op = if desc { "<" } else { ">" };
    Box::new(diesel::dsl::sql::<Bool>(&format!("({key_col}, {id_col}) {op} (")).bind::<ST, _>(key).sql(", ").bind::<BigInt, _>(id).sql(")"))
}

/// Reads a query in keyset chunks: `page(conn, after, limit)` answers up to `limit` rows that
/// follow the row `after` (from the start when `None`) in a fixed order, and `visit` gets each
/// chunk. Every chunk costs what the first does, however deep the reader is (OFFSET paging
/// re-reads all skipped rows, so a whole export by OFFSET grows with the square of its size).
pub fn keyset_chunks<R: Clone>(
    conn: &mut DbConn,
    chunk: usize,
    mut page: impl FnMut(&mut DbConn, Option<&R>, i64) -> AppResult<Vec<R>>,
    visit: &mut impl FnMut(&mut DbConn, Vec<R>) -> AppResult<()>,
) -> AppResult<()> {
    let chunk = chunk.max(1);
    let mut last: Option<R> = None;
    loop {
        let rows = page(conn, last.as_ref(), chunk as i64)?;
        let n = rows.len();
        match rows.last() {
            Some(row) => last = Some(row.clone()),
            None => return Ok(()),
        }
        visit(conn, rows)?;
        if n < chunk {
            return Ok(());
        }
    }
}

/// Where a nullable sort key puts its NULLs: SQLite sorts them first ascending, PostgreSQL
/// last ascending; descending reverses both. Keyset readers walk the NULL rows and the others
/// as two runs in this order so the export keeps the list's order on either backend.
pub fn nulls_first(backend: Backend, desc: bool) -> bool {
    match backend {
        Backend::Sqlite => !desc,
        Backend::Postgres => desc,
    }
}

/// Runs `f` in one read-only transaction that sees a single snapshot (REPEATABLE READ on
/// PostgreSQL, a WAL read transaction on SQLite), so an export read in many chunks is
/// consistent even while rows change: none is skipped or sent twice.
pub fn read_snapshot<T>(conn: &mut DbConn, f: impl FnOnce(&mut DbConn) -> AppResult<T>) -> AppResult<T> {
    conn.transaction(|c| {
        if c.backend() == Backend::Postgres {
            c.batch_execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")?;
        }
        f(c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connect;

    /// Pages over `data` (sorted) the way a keyset query does.
    fn pages(data: &[i64], chunk: usize) -> (Vec<i64>, Vec<usize>) {
        let url = crate::DatabaseUrl::Sqlite(":memory:".into());
        let mut conn = connect(&url).expect("in-memory SQLite");
        let mut seen = vec![];
        let mut sizes = vec![];
        let mut visit = |_: &mut DbConn, rows: Vec<i64>| {
            sizes.push(rows.len());
            seen.extend(rows);
            Ok(())
        };
        keyset_chunks(
            &mut conn,
            chunk,
            |_, after, limit| Ok(data.iter().copied().filter(|v| after.is_none_or(|a| v > a)).take(limit as usize).collect()),
            &mut visit,
        )
        .unwrap();
        (seen, sizes)
    }

    #[test]
    fn every_row_once_in_order_whatever_the_chunk() {
        let data: Vec<i64> = (1..=23).collect();
        for chunk in [1, 2, 7, 22, 23, 24, 100] {
            let (seen, sizes) = pages(&data, chunk);
            assert_eq!(seen, data, "chunk {chunk}");
            assert!(sizes.iter().all(|&n| n > 0 && n <= chunk), "chunk {chunk}: {sizes:?}");
        }
        assert_eq!(pages(&data, 7).1, vec![7, 7, 7, 2]);
        assert_eq!(pages(&[], 7).0, Vec::<i64>::new(), "no rows, no chunk");
        assert_eq!(pages(&data, 0).0, data, "a zero chunk reads one row at a time, never loops");
    }

    #[test]
    fn null_placement_follows_each_backend() {
        assert!(nulls_first(Backend::Sqlite, false) && !nulls_first(Backend::Sqlite, true));
        assert!(!nulls_first(Backend::Postgres, false) && nulls_first(Backend::Postgres, true));
    }
}
