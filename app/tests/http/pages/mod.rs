//! What every page shares: the shell and its menu, islands rendered on the server, and
//! streamed answers.

mod shell;
mod ssr;
mod streaming;
