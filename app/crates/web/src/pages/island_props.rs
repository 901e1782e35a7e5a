//! The TypeScript types of the islands' props, generated from the Rust structs that the
//! screens serialize (`islands/src/generated/island-props.ts`). This module names every
//! screen's props, so it sits above the screens; `island` below them knows none.

/// Where the generated prop types live, for the islands to import.
pub const PROP_TYPES_FILE: &str = "islands/src/generated/island-props.ts";

/// The TypeScript types of every island's props, generated from the Rust structs the
/// pages serialize, so a changed field fails the islands' typecheck (their parsers read
/// the props through these types) and the check below fails until the file is renewed.
pub fn island_prop_types() -> String {
    use ts_rs::TS;

    use crate::pages::orders::form::{EditorProps, IslandLine, IslandLot};
    use crate::pages::quoting::{PriceDialogProps, QuotingCartProps, TierUplifts};
    use crate::pages::reports::{CodeOption, IdOption, ReportFormProps, TabProps};
    use crate::pages::shell::ChangePasswordProps;

    let decls = [
        ChangePasswordProps::decl(),
        EditorProps::decl(),
        IslandLine::decl(),
        IslandLot::decl(),
        QuotingCartProps::decl(),
        PriceDialogProps::decl(),
        TierUplifts::decl(),
        ReportFormProps::decl(),
        TabProps::decl(),
        IdOption::decl(),
        CodeOption::decl(),
    ];
    let mut out = String::from(
        "// Generated from the Rust structs of the island props (app/crates/web/src/pages/island.rs,\n\
         // `island_prop_types`). Do not edit: after changing one of those structs run\n\
         //   TYREDESK_WRITE_TYPES=1 cargo test --lib prop_types\n\n",
    );
    for decl in decls {
        out.push_str("export ");
        out.push_str(&decl);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_prop_types_are_up_to_date() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").join(PROP_TYPES_FILE);
        let fresh = island_prop_types();
        if std::env::var("TYREDESK_WRITE_TYPES").is_ok_and(|v| v == "1") {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &fresh).unwrap();
        }
        let kept = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            kept == fresh,
            "{PROP_TYPES_FILE} is out of date with the Rust prop structs; run `TYREDESK_WRITE_TYPES=1 cargo test --lib prop_types` and commit it"
        );
    }
}
