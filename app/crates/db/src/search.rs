//! Word search through each backend's text index (issue 10): SQLite's FTS5 trigram tables
//! (`<table>_fts`, kept in step by triggers) and PostgreSQL's pg_trgm GIN indexes. A word
//! matches wherever it occurs inside the text, exactly as `LIKE '%word%'`.

use diesel::dsl::{AsExprOf, sql};
use diesel::expression::{SqlLiteral, UncheckedBind};
use diesel::sql_types::{Bool, Text};

use super::Backend;

/// The text columns with a text index over them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Searchable {
    /// `products.search_text`
    Products,
    /// `customers.search_text`
    Customers,
    /// `suppliers.search_text`
    Suppliers,
    /// `orders.no`
    SheetNumbers,
    /// `orders.reference`
    SheetReferences,
}

impl Searchable {
    /// Table and column (the column has the same name inside the table's FTS5 index).
    fn parts(self) -> (&'static str, &'static str) {
        match self {
            Searchable::Products => ("products", "search_text"),
            Searchable::Customers => ("customers", "search_text"),
            Searchable::Suppliers => ("suppliers", "search_text"),
            Searchable::SheetNumbers => ("orders", "no"),
            Searchable::SheetReferences => ("orders", "reference"),
        }
    }
}

/// Trigrams need three characters; a shorter word is matched by `LIKE` alone.
const TRIGRAM: usize = 3;

type Condition = SqlLiteral<Bool, UncheckedBind<SqlLiteral<Bool>, AsExprOf<String, Text>>>;

/// The condition "the column contains `word`" (the search texts are lower case, so their
/// words come lower-cased).
///
/// SQLite: the row is among the FTS5 matches of the quoted phrase in that column; a phrase of
/// trigrams matches exactly the texts containing it, ignoring case as SQLite's `LIKE` did.
/// PostgreSQL: `LIKE`, which the GIN index serves.
pub fn contains(backend: Backend, what: Searchable, word: &str) -> Condition {
    in_index(backend, what, word, "").unwrap_or_else(|| like(what, word))
}

/// The FTS5 query for `word` in the column: the quoted phrase under a column filter. `None`
/// where the FTS5 index cannot answer (PostgreSQL, or a word without a trigram).
fn fts_phrase(backend: Backend, what: Searchable, word: &str) -> Option<String> {
    (backend == Backend::Sqlite && word.chars().count() >= TRIGRAM).then(|| format!("{} : \"{}\"", what.parts().1, word.replace('"', "\"\"")))
}

/// `<prefix>table.id IN (FTS5 matches)`, when the index can answer.
fn in_index(backend: Backend, what: Searchable, word: &str, prefix: &str) -> Option<Condition> {
    let t = what.parts().0;
    let phrase = fts_phrase(backend, what, word)?;
    Some(sql::<Bool>(&format!("{prefix}{t}.id IN (SELECT rowid FROM {t}_fts WHERE {t}_fts MATCH ")).bind::<Text, _>(phrase).sql(")"))
}

/// `table.column LIKE '%word%'`.
fn like(what: Searchable, word: &str) -> Condition {
    let (t, col) = what.parts();
    sql::<Bool>(&format!("{t}.{col} LIKE ")).bind::<Text, _>(format!("%{}%", like_escape(word))).sql(" ESCAPE '\\'")
}

/// Like [`contains`], for a page sorted by another index when the word matches many rows:
/// on SQLite the text index then only filters (`+id IN (…)`: unary plus keeps the planner
/// from driving the query by the matches and sorting them all), so the sorted walk stops
/// after a page. PostgreSQL: the same `LIKE`.
pub fn filters(backend: Backend, what: Searchable, word: &str) -> Condition {
    in_index(backend, what, word, "+").unwrap_or_else(|| like(what, word))
}

#[derive(diesel::QueryableByName)]
struct RowId {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    id: i64,
}

/// The ids of the rows (of every company) whose column contains `word`, when there are at
/// most `max` of them; `None` when there are more or the index cannot answer.
///
/// SQLite only: there a sheet list filtered by a rare number or reference must be driven by
/// the few matching ids, but the planner cannot see how few an FTS5 match returns and walks
/// the list's date index instead (600k rows at scale L). Given the ids as a list it looks
/// them up. Many matches are better served by that walk, which soon finds a page's worth.
/// PostgreSQL's planner estimates the GIN index itself.
pub fn few(conn: &mut super::DbConn, what: Searchable, word: &str, max: i64) -> crate::error::AppResult<Option<Vec<i64>>> {
    use diesel::RunQueryDsl;
    let Some(phrase) = fts_phrase(conn.backend(), what, word) else { return Ok(None) };
    let t = what.parts().0;
    let ids: Vec<RowId> = diesel::sql_query(format!("SELECT rowid AS id FROM {t}_fts WHERE {t}_fts MATCH ? LIMIT ?"))
        .bind::<Text, _>(phrase)
        .bind::<diesel::sql_types::BigInt, _>(max + 1)
        .load(conn)?;
    Ok((ids.len() as i64 <= max).then(|| ids.into_iter().map(|r| r.id).collect()))
}

/// Escapes LIKE wildcards in user input.
pub fn like_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}
