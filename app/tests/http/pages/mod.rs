//! What every page shares: the shell and its menu, islands rendered on the server, and
//! streamed answers, and how dates and times are shown.

mod dates;
mod shell;
mod ssr;
mod streaming;
