//! TyreDesk: the back office of a tyre, wheel, battery and auto-parts wholesaler. This crate
//! is the `tyredesk` binary's: the start-up of `serve`, the demo and scale data (`seed`), the
//! benchmark (`bench`) and the operations commands (`ops`). The server itself is the `web`
//! crate; the layers below it are `services`, `db`, `domain` and the adapters.

pub mod bench;
pub mod ops;
pub mod seed;
pub mod serve;
