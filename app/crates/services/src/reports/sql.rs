//! The statements of the report writers: SQL written once for both backends, its values
//! bound to `$1`, `$2`, … in the order they are pushed. SQLite numbers `$n` parameters by
//! first appearance, so pushing text and values in one pass binds alike on both.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::QueryableByName;
use diesel::query_builder::{BoxedSqlQuery, SqlQuery};
use diesel::sql_types::{BigInt, Date, Integer, Text, Timestamp};

use db::search::like_escape;
use db::{Backend, DbConn, MultiBackend};
use domain::enums::ProductCategory;
use domain::reports::{DateType, Params};
use db::error::{AppError, AppResult};

/// A value bound to a placeholder.
pub enum Bind {
    Int(i32),
    BigInt(i64),
    Date(NaiveDate),
    Timestamp(NaiveDateTime),
    Text(String),
    /// A list of ids and the column it filters ([`Sql::any_of`]).
    Ids(String, Vec<i64>),
}

/// A statement built piece by piece.
#[derive(Default)]
pub struct Sql {
    pub(super) text: String,
    pub(super) binds: Vec<Bind>,
    /// Where each list of ids goes in `text` (a byte offset) and the index of its bind: the
    /// condition is written once the backend is known ([`Sql::written`]).
    lists: Vec<(usize, usize)>,
}

impl Sql {
    pub fn new(text: &str) -> Self {
        Self { text: text.to_string(), binds: Vec::new(), lists: Vec::new() }
    }

    pub fn push(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }

    pub fn bind(&mut self, value: Bind) -> &mut Self {
        self.binds.push(value);
        let n = self.binds.len();
        self.text.push('$');
        self.text.push_str(&n.to_string());
        self
    }

    /// `($a, $b, …)`; callers add it only for a non-empty list.
    pub fn values(&mut self, values: impl IntoIterator<Item = Bind>) -> &mut Self {
        self.push("(");
        for (i, v) in values.into_iter().enumerate() {
            if i > 0 {
                self.push(", ");
            }
            self.bind(v);
        }
        self.push(")")
    }

    /// ` AND column IN (…)` when `ids` is not empty: an empty filter list means "all" (a
    /// report's lists hold at most 1,000 ids, a chunk 500). The condition is written when
    /// the backend is known ([`Sql::written`], by [`db::ids_in`]); until then the text keeps
    /// its place.
    pub fn any_of(&mut self, column: &str, ids: &[i64]) -> &mut Self {
        if !ids.is_empty() {
            self.push(" AND ");
            self.lists.push((self.text.len(), self.binds.len()));
            self.binds.push(Bind::Ids(column.to_string(), ids.to_vec()));
        }
        self
    }

    /// The statement's text for `backend`, each list of ids written in its place as the
    /// backend reads one best, and the value each list binds (by the index of its bind).
    fn written(&self, backend: Backend) -> (String, Vec<Option<String>>) {
        let mut out = String::with_capacity(self.text.len());
        let mut values = vec![None; self.binds.len()];
        let mut from = 0;
        for &(at, i) in &self.lists {
            out.push_str(&self.text[from..at]);
            if let Bind::Ids(column, ids) = &self.binds[i] {
                let (condition, value) = db::ids_in(backend, column, i + 1, ids);
                out.push_str(&condition);
                values[i] = value;
            }
            from = at;
        }
        out.push_str(&self.text[from..]);
        (out, values)
    }

    /// The statement's text for `backend` ([`Sql::written`]).
    #[cfg(test)]
    pub(super) fn render(&self, backend: Backend) -> String {
        self.written(backend).0
    }

    /// ` AND …` of the brand and category filters on products aliased `p`: a category also
    /// matches its children by the `tag1` path ("Wheels" matches "Wheels/Alloy"), as the
    /// product list filters.
    pub fn brands_and_categories(&mut self, p: &Params) -> &mut Self {
        self.any_of("p.brand_id", &p.brands);
        let paths: Vec<String> = p.categories.iter().filter_map(|c| ProductCategory::from_i32(*c)).map(ProductCategory::path).collect();
        if !paths.is_empty() {
            self.push(" AND (");
            for (i, path) in paths.into_iter().enumerate() {
                if i > 0 {
                    self.push(" OR ");
                }
                let children = format!("{}/%", like_escape(&path));
                self.push("p.tag1 = ").bind(Bind::Text(path)).push(" OR p.tag1 LIKE ").bind(Bind::Text(children)).push(" ESCAPE '\\'");
            }
            self.push(")");
        }
        self
    }

    /// The statement for `conn`'s backend, its values bound.
    pub fn query(self, conn: &DbConn) -> BoxedSqlQuery<'static, MultiBackend, SqlQuery> {
        let (text, mut lists) = self.written(conn.backend());
        let mut q = diesel::sql_query(text).into_boxed::<MultiBackend>();
        for (i, b) in self.binds.into_iter().enumerate() {
            q = match b {
                Bind::Int(v) => q.bind::<Integer, _>(v),
                Bind::BigInt(v) => q.bind::<BigInt, _>(v),
                Bind::Date(v) => q.bind::<Date, _>(v),
                Bind::Timestamp(v) => q.bind::<Timestamp, _>(v),
                Bind::Text(v) => q.bind::<Text, _>(v),
                Bind::Ids(..) => match lists[i].take() {
                    Some(v) => q.bind::<Text, _>(v),
                    None => q,
                },
            };
        }
        q
    }

    pub fn load<R: QueryableByName<MultiBackend> + 'static>(self, conn: &mut DbConn) -> AppResult<Vec<R>> {
        use diesel::RunQueryDsl;
        let q = self.query(conn);
        Ok(q.load(conn)?)
    }
}

/// The column of sheet `o` that a report's date range applies to.
pub fn date_column(t: DateType) -> &'static str {
    match t {
        DateType::Date => "o.order_date",
        DateType::DueDate => "o.due_date",
        DateType::DeliveryDate => "o.delivery_date",
    }
}

/// Whether the report filters lines by their product (brand, category or designated ones).
pub fn has_product_filter(p: &Params) -> bool {
    !(p.brands.is_empty() && p.categories.is_empty() && p.products.is_empty())
}

/// A row of ids (`SELECT … AS id`).
#[derive(QueryableByName)]
pub struct Id {
    #[diesel(sql_type = BigInt)]
    pub id: i64,
}

pub fn ids(rows: Vec<Id>) -> Vec<i64> {
    rows.into_iter().map(|r| r.id).collect()
}

/// The message of a figure beyond what a report can add up (never written wrong).
pub fn overflow() -> AppError {
    AppError::bad_request("The report's figures add up beyond the largest amount it can hold; choose a shorter date range or more filters.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_in_the_order_they_are_written() {
        let mut q = Sql::new("SELECT 1 WHERE a = ");
        q.bind(Bind::BigInt(4)).any_of("b", &[]).any_of("c", &[7, 8]).push(" AND d IN ").values([Bind::Int(1), Bind::Text("x".into())]);
        assert_eq!(
            q.render(Backend::Postgres),
            "SELECT 1 WHERE a = $1 AND c = ANY(CAST($2 AS BIGINT[])) AND d IN ($3, $4)",
            "an empty list filters nothing; a list is one parameter"
        );
        // SQLite numbers by first appearance, so the list's number left out binds alike.
        assert_eq!(q.render(Backend::Sqlite), "SELECT 1 WHERE a = $1 AND c IN (7,8) AND d IN ($3, $4)");
        assert_eq!(q.binds.len(), 4);
        assert_eq!(db::ids_in(Backend::Postgres, "c", 2, &[7, 8]).1.as_deref(), Some("{7,8}"), "bound as PostgreSQL's array text");
        assert_eq!(db::ids_in(Backend::Sqlite, "c", 2, &[7, 8]).1, None, "nothing to bind");
    }
}
