//! The migrations are embedded (`embed_migrations!`): a changed or new migration rebuilds the crate.

fn main() {
    println!("cargo:rerun-if-changed=../../../migrations");
}
