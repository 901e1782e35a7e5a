//! Word search over `search_text` through each backend's text index (issue 10): SQLite's
//! FTS5 trigram tables (`<table>_fts`, kept in step by triggers) and PostgreSQL's pg_trgm GIN
//! indexes. A word matches wherever it occurs inside the text, exactly as `LIKE '%word%'`.

use diesel::dsl::{AsExprOf, sql};
use diesel::expression::{SqlLiteral, UncheckedBind};
use diesel::sql_types::{Bool, Text};

use super::Backend;
use super::masters::like_escape;

/// The tables with a `search_text` column and a text index over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Searchable {
    Products,
    Customers,
    Suppliers,
}

impl Searchable {
    fn table(self) -> &'static str {
        match self {
            Searchable::Products => "products",
            Searchable::Customers => "customers",
            Searchable::Suppliers => "suppliers",
        }
    }
}

/// Trigrams need three characters; a shorter word is matched by `LIKE` alone.
const TRIGRAM: usize = 3;

type Condition = SqlLiteral<Bool, UncheckedBind<SqlLiteral<Bool>, AsExprOf<String, Text>>>;

/// The condition "`table.search_text` contains `word`" (`word` already lower-cased).
///
/// SQLite: the row is among the FTS5 matches of the quoted phrase; a phrase of trigrams
/// matches exactly the texts containing it. PostgreSQL: `LIKE`, which the GIN index serves.
pub fn contains(backend: Backend, table: Searchable, word: &str) -> Condition {
    let t = table.table();
    if backend == Backend::Sqlite && word.chars().count() >= TRIGRAM {
        let phrase = format!("\"{}\"", word.replace('"', "\"\""));
        sql::<Bool>(&format!("{t}.id IN (SELECT rowid FROM {t}_fts WHERE {t}_fts MATCH ")).bind::<Text, _>(phrase).sql(")")
    } else {
        sql::<Bool>(&format!("{t}.search_text LIKE ")).bind::<Text, _>(format!("%{}%", like_escape(word))).sql(" ESCAPE '\\'")
    }
}
