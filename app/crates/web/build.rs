//! Builds the front-end islands (npm + Vite) before the crate embeds `static/`, so
//! `cargo run` on a fresh clone needs no separate step. Set `TYREDESK_SKIP_ISLANDS=1` when
//! the islands were built already (CI does so explicitly).

use std::path::Path;
use std::process::Command;

fn main() {
    for p in ["../../../islands/src", "../../../islands/package.json", "../../../islands/package-lock.json", "../../../islands/vite.config.ts", "../../../islands/vite.ssr.config.ts"] {
        println!("cargo:rerun-if-changed={p}");
    }
    println!("cargo:rerun-if-env-changed=TYREDESK_SKIP_ISLANDS");
    let manifest = Path::new("../../../static/islands/.vite/manifest.json");
    if std::env::var("TYREDESK_SKIP_ISLANDS").is_ok_and(|v| v == "1") && manifest.exists() {
        return;
    }
    let islands = Path::new("../../../islands");
    if !islands.join("node_modules").exists() {
        run(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(islands), "npm ci");
    }
    run(Command::new("npm").args(["run", "build"]).current_dir(islands), "npm run build");
}

fn run(cmd: &mut Command, what: &str) {
    match cmd.status() {
        Ok(s) if s.success() => {}
        Ok(s) => panic!("{what} in islands/ failed ({s}); install Node.js 20+ and npm, then build again"),
        Err(e) => panic!("cannot run {what} in islands/: {e}; install Node.js 20+ and npm, then build again"),
    }
}
