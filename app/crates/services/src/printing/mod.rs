//! Printing without a dialog (issue 33, docs/decisions/documents.md "Printing to IPP
//! printers"): the company's IPP printers (Settings › Printers, role 4, audited), sending
//! sheets to the printer of their warehouse as a job of the one queue, and what became of it.
//! The job itself is `worker`'s; the IPP requests are `ipp`'s.

pub mod ipp;
pub mod worker;

use std::collections::BTreeMap;

use db::error::{AppError, AppResult};
use db::printing::{self as store, PrintJob, Printer, PrinterInput};
use db::schema::{orders, organisations, warehouses};
use diesel::prelude::*;
use documents::Variant;
use domain::Actor;

use crate::Core;
use crate::reference_data::{audit_change, only_approver};

/// The longest printer name.
pub const MAX_NAME: usize = 60;
/// The longest printer URL.
pub const MAX_URL: usize = 300;
/// The paper every printer prints on (the PDFs are A4).
pub const PAPER: &str = "A4";

/// A printer's URL as typed, checked: `ipp://`, `ipps://`, `http://` or `https://`, a host,
/// at most [`MAX_URL`] characters, no user name or password in it (it is shown back on the
/// page). Answers the URL trimmed, or the message shown under the field.
pub fn check_url(input: &str) -> Result<String, String> {
    let s = input.trim();
    if s.is_empty() {
        return Err("Enter the printer's IPP address, e.g. ipp://192.168.1.20:631/printers/Front.".into());
    }
    if s.chars().count() > MAX_URL {
        return Err(format!("The address is too long (at most {MAX_URL} characters)."));
    }
    let Some((scheme, _)) = s.split_once("://") else {
        return Err("Start the address with ipp://, ipps://, http:// or https://.".into());
    };
    if !matches!(scheme.to_ascii_lowercase().as_str(), "ipp" | "ipps" | "http" | "https") {
        return Err(format!("'{scheme}://' is not a printer address: use ipp://, ipps://, http:// or https://."));
    }
    let parsed = url::Url::parse(s).map_err(|e| format!("The address is not a valid URL ({e})."))?;
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err("Put the printer's host name or IP address after the scheme, e.g. ipp://192.168.1.20/printers/Front.".into());
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err("Leave the user name and password out of the address.".into());
    }
    if parsed.fragment().is_some() {
        return Err("Leave the '#…' part out of the address.".into());
    }
    if s.parse::<::ipp::prelude::Uri>().is_err() {
        return Err("The address has characters a printer address cannot have.".into());
    }
    Ok(s.to_string())
}

/// A printer as the Settings form sends it.
#[derive(Clone, Debug, Default)]
pub struct PrinterForm {
    pub name: String,
    pub url: String,
    /// `None`: any warehouse.
    pub warehouse_id: Option<i64>,
    pub active: bool,
}

/// The company's printers (role 4).
pub async fn printers(core: &Core, actor: &Actor) -> AppResult<Vec<Printer>> {
    only_approver(actor.role)?;
    let org = actor.org_id;
    core.db.run(move |c| store::printers(c, org)).await
}

/// One printer of the company (role 4); another company's id is not found.
pub async fn printer(core: &Core, actor: &Actor, id: i64) -> AppResult<Printer> {
    only_approver(actor.role)?;
    let org = actor.org_id;
    core.db.run(move |c| store::printer(c, org, id)).await
}

/// The company's latest print jobs (Settings › Printers lists them).
pub async fn recent_jobs(core: &Core, actor: &Actor, limit: i64) -> AppResult<Vec<PrintJob>> {
    only_approver(actor.role)?;
    let org = actor.org_id;
    core.db.run(move |c| store::recent(c, org, limit)).await
}

fn warehouse_name(c: &mut db::DbConn, org: i64, id: Option<i64>) -> AppResult<String> {
    match id {
        None => Ok("any".into()),
        Some(w) => Ok(warehouses::table.filter(warehouses::org_id.eq(org)).find(w).select(warehouses::name).first::<String>(c).optional()?.unwrap_or_else(|| format!("#{w}"))),
    }
}

fn describe(c: &mut db::DbConn, org: i64, p: &PrinterInput) -> AppResult<String> {
    Ok(format!("name={}; url={}; warehouse={}; active={}", p.name, p.url, warehouse_name(c, org, p.warehouse_id)?, p.active))
}

/// Adds (`id` None) or changes a printer; answers its id. Role 4 only; every change is
/// audited; a bad field is answered with its message and nothing is saved.
pub async fn save_printer(core: &Core, actor: &Actor, id: Option<i64>, form: PrinterForm) -> AppResult<i64> {
    only_approver(actor.role)?;
    let mut errors = BTreeMap::new();
    let name: String = form.name.trim().to_string();
    if name.is_empty() {
        errors.insert("name".to_string(), "Enter a name for the printer, e.g. Front counter.".to_string());
    } else if name.chars().count() > MAX_NAME {
        errors.insert("name".to_string(), format!("The name is too long (at most {MAX_NAME} characters)."));
    } else if name.chars().any(char::is_control) {
        errors.insert("name".to_string(), "The name cannot contain control characters.".to_string());
    }
    let url = match check_url(&form.url) {
        Ok(u) => u,
        Err(m) => {
            errors.insert("url".to_string(), m);
            String::new()
        }
    };
    let input = PrinterInput { name, url, warehouse_id: form.warehouse_id, active: form.active };
    let admin = actor.clone();
    core.db
        .write(move |c| {
            let org = admin.org_id;
            let mut errors = errors.clone();
            if let Some(w) = input.warehouse_id {
                let ours = warehouses::table.filter(warehouses::org_id.eq(org)).find(w).select(warehouses::id).first::<i64>(c).optional()?;
                if ours.is_none() {
                    errors.insert("warehouse_id".to_string(), "Choose one of the company's warehouses, or any.".to_string());
                }
            }
            if !input.name.is_empty() && !errors.contains_key("name") && store::name_taken(c, org, &input.name, id)? {
                errors.insert("name".to_string(), "Another printer already has this name.".to_string());
            }
            if !errors.is_empty() {
                return Err(AppError::Validation { message: "Check the printer's fields.".into(), errors });
            }
            let now = db::now();
            match id {
                None => {
                    let new = store::insert_printer(c, org, &input, now)?;
                    let detail = describe(c, org, &input)?;
                    audit_change(c, &admin, "printer", Some(new), "create", detail)?;
                    Ok(new)
                }
                Some(id) => {
                    let old = store::printer(c, org, id)?;
                    store::update_printer(c, org, id, &input, now)?;
                    let before = PrinterInput { name: old.name, url: old.url, warehouse_id: old.warehouse_id, active: old.active };
                    if before != input {
                        let detail = format!("{} → {}", describe(c, org, &before)?, describe(c, org, &input)?);
                        audit_change(c, &admin, "printer", Some(id), "update", detail)?;
                    }
                    Ok(id)
                }
            }
        })
        .await
}

/// Removes a printer (role 4, audited); its print history keeps its name.
pub async fn remove_printer(core: &Core, actor: &Actor, id: i64) -> AppResult<()> {
    only_approver(actor.role)?;
    let admin = actor.clone();
    core.db
        .write(move |c| {
            let p = store::printer(c, admin.org_id, id)?;
            store::delete_printer(c, admin.org_id, id)?;
            audit_change(c, &admin, "printer", Some(id), "delete", format!("name={}; url={}", p.name, p.url))
        })
        .await
}

/// The 'Test' button: asks the printer for its attributes. `Ok` with what it says of itself,
/// `Err` with why it could not be asked (role 4; another company's printer is not found).
pub async fn test_printer(core: &Core, actor: &Actor, id: i64) -> AppResult<Result<String, String>> {
    let p = printer(core, actor, id).await?;
    Ok(match ipp::attributes(&p.url).await {
        Ok(info) => Ok(info.summary()),
        Err(e) => Err(format!("{}: {}", p.name, e.message())),
    })
}

/// The printer a sheet prints on: one of its warehouse, else one for any warehouse.
pub async fn printer_of_sheet(core: &Core, org: i64, sheet: i64) -> AppResult<Option<Printer>> {
    core.db.run(move |c| printer_for(c, org, Choice::Sheet(sheet))).await
}

/// The printer of the lists' 'Print selected': the company's default warehouse's (users
/// have no warehouse of their own, issue 32), else one for any warehouse.
pub async fn list_printer(core: &Core, org: i64) -> AppResult<Option<Printer>> {
    core.db.run(move |c| printer_for(c, org, Choice::Selection)).await
}

/// Whose printer a print goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// 'Print' on a sheet: its warehouse's (another company's sheet is not found).
    Sheet(i64),
    /// 'Print selected' on a list: the company's default warehouse's.
    Selection,
}

pub fn printer_for(c: &mut db::DbConn, org: i64, choice: Choice) -> AppResult<Option<Printer>> {
    let warehouse = match choice {
        Choice::Sheet(id) => orders::table.filter(orders::org_id.eq(org)).find(id).select(orders::warehouse_id).first::<Option<i64>>(c).optional()?.ok_or(AppError::NotFound)?,
        Choice::Selection => organisations::table.find(org).select(organisations::default_warehouse_id).first::<Option<i64>>(c)?,
    };
    store::printer_for(c, org, warehouse)
}

/// A print job as queued: its id and the printer's name.
#[derive(Clone, Debug)]
pub struct Queued {
    pub id: i64,
    pub printer: String,
}

/// Sends `ids` to their printer as one print job: refused as a whole, like the print page,
/// when a sheet may not print; `Ok(None)` when the company has no printer for them (the
/// browser's print remains). The worker renders and sends it.
pub async fn send(core: &Core, actor: &Actor, ids: Vec<i64>, variant: Variant, choice: Choice) -> AppResult<Option<Queued>> {
    let who = actor.clone();
    let queued = core
        .db
        .write(move |c| {
            let org = who.org_id;
            crate::print::printable_sheets(c, org, &ids)?;
            let Some(printer) = printer_for(c, org, choice)? else { return Ok(None) };
            let id = store::enqueue(c, &printer, &ids, variant.as_str(), who.user_id, db::now())?;
            Ok(Some(Queued { id, printer: printer.name }))
        })
        .await?;
    if queued.is_some() {
        core.reports.wake.notify_one();
    }
    Ok(queued)
}

/// A print job of the company, as its status fragment shows it; another company's id is
/// not found.
pub async fn status(core: &Core, org: i64, id: i64) -> AppResult<PrintJob> {
    core.db.run(move |c| store::print_job(c, org, id)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printer_urls_need_an_ipp_or_http_scheme_and_a_host() {
        assert_eq!(check_url(" ipp://127.0.0.1:631/printers/Front ").unwrap(), "ipp://127.0.0.1:631/printers/Front");
        assert!(check_url("ipps://printer.example/ipp/print").is_ok());
        assert!(check_url("http://10.0.0.5:631/printers/A").is_ok());
        assert!(check_url("").unwrap_err().contains("Enter"));
        assert!(check_url("ftp://host/x").unwrap_err().contains("not a printer address"));
        assert!(check_url("printer.local").unwrap_err().contains("Start the address"));
        assert!(check_url("ipp:///printers/x").is_err());
        assert!(check_url("ipp://bob:secret@host/printers/x").unwrap_err().contains("password"));
        assert!(check_url(&format!("ipp://host/{}", "a".repeat(400))).unwrap_err().contains("too long"));
    }
}
