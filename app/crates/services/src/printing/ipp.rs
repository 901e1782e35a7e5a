//! The three IPP requests TyreDesk makes of a printer (the `ipp` crate's async client):
//! Get-Printer-Attributes (the Settings 'Test' button, and a look before each send),
//! Print-Job (the PDF) and Get-Jobs (after a send whose outcome is unknown). Every failure is
//! sorted into what a retry may cure and what it cannot.

use std::sync::Once;
use std::time::Duration;

use ::ipp::prelude::*;
use ::ipp::attribute::IppAttributeName;
use ::ipp::value::{IppKeyword, IppName};

/// How long one request may take before its outcome is unknown (a 100-sheet PDF over a slow
/// link included). Shorter than the queue's stale time, so a live worker is never taken over.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// Why a request did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fail {
    /// Not sent, or refused for now (connection refused, busy, not accepting jobs, stopped):
    /// a retry may print it.
    Temporary(String),
    /// Sent, but no answer came back (a timeout, a dropped connection): the printer may hold
    /// the job; the next attempt asks it before sending again.
    Unknown(String),
    /// The printer will not take it however often it is asked (bad format, no such queue).
    Permanent(String),
}

impl Fail {
    pub fn message(&self) -> &str {
        match self {
            Fail::Temporary(m) | Fail::Unknown(m) | Fail::Permanent(m) => m,
        }
    }
}

/// What a printer says of itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrinterInfo {
    /// idle, processing or stopped.
    pub state: String,
    pub make_and_model: String,
    pub accepting: bool,
    pub reasons: String,
    pub message: String,
}

impl PrinterInfo {
    /// The line Settings shows after 'Test'.
    pub fn summary(&self) -> String {
        let mut s = format!("{} — {}", if self.make_and_model.is_empty() { "Printer" } else { &self.make_and_model }, self.state);
        if !self.accepting {
            s.push_str(", not accepting jobs");
        }
        if !self.reasons.is_empty() && self.reasons != "none" {
            s.push_str(&format!(" ({})", self.reasons));
        }
        if !self.message.is_empty() {
            s.push_str(&format!(": {}", self.message));
        }
        s
    }

    /// Stopped or refusing jobs: a send now would wait or be refused.
    pub fn unavailable(&self) -> Option<String> {
        if self.state == "stopped" {
            return Some(format!("the printer is stopped{}", if self.message.is_empty() { String::new() } else { format!(" ({})", self.message) }));
        }
        (!self.accepting).then(|| "the printer is not accepting jobs".to_string())
    }
}

/// The process's TLS crypto provider for the `ipp` crate's reqwest: ring, the provider the
/// rest of the workspace's TLS already uses (installed once; a provider already installed
/// by someone else is kept).
fn tls() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

fn uri(url: &str) -> Result<Uri, Fail> {
    url.parse::<Uri>().map_err(|e| Fail::Permanent(format!("the printer's address is not a URL ({e})")))
}

fn client(uri: Uri) -> AsyncIppClient {
    tls();
    AsyncIppClient::builder(uri).request_timeout(REQUEST_TIMEOUT).build()
}

/// Sorts a transport failure: not connected (nothing sent) is temporary; a timeout or a
/// broken answer after the request went out leaves the outcome unknown.
fn transport(e: IppError, sent: bool) -> Fail {
    match e {
        IppError::AsyncClientError(e) if e.is_connect() => Fail::Temporary(format!("the printer could not be reached ({})", root_cause(&e))),
        IppError::AsyncClientError(e) if e.is_timeout() && sent => Fail::Unknown("the printer did not answer in time".into()),
        IppError::AsyncClientError(e) if e.is_timeout() => Fail::Temporary("the printer did not answer in time".into()),
        IppError::AsyncClientError(e) if sent => Fail::Unknown(format!("the connection to the printer broke ({})", root_cause(&e))),
        IppError::AsyncClientError(e) => Fail::Temporary(format!("the printer could not be reached ({})", root_cause(&e))),
        IppError::RequestError(404) => Fail::Permanent("the printer's server has no such printer (HTTP 404); check the URL".into()),
        IppError::RequestError(code @ (401 | 403)) => Fail::Permanent(format!("the printer refused TyreDesk (HTTP {code}); allow it on the printer or server")),
        IppError::RequestError(code) if code >= 500 => Fail::Temporary(format!("the printer's server answered HTTP {code}")),
        IppError::RequestError(code) => Fail::Permanent(format!("the printer's server answered HTTP {code}")),
        IppError::IoError(e) if sent => Fail::Unknown(format!("the connection to the printer broke ({e})")),
        IppError::IoError(e) => Fail::Temporary(format!("the printer could not be reached ({e})")),
        other if sent => Fail::Unknown(format!("the printer's answer could not be read ({other})")),
        other => Fail::Permanent(format!("the request could not be made ({other})")),
    }
}

fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause: &(dyn std::error::Error + 'static) = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// Sorts an IPP status that is not successful.
fn status_fail(status: StatusCode, message: &str) -> Fail {
    let code = status as i32;
    let said = if message.is_empty() { String::new() } else { format!(": {message}") };
    let name = status_name(status);
    match status {
        StatusCode::ServerErrorBusy | StatusCode::ServerErrorServiceUnavailable | StatusCode::ServerErrorTemporaryError | StatusCode::ServerErrorNotAcceptingJobs => {
            Fail::Temporary(format!("the printer answered {name}{said}"))
        }
        _ if (0x0500..0x0600).contains(&code) => Fail::Permanent(format!("the printer answered {name}{said}")),
        _ => Fail::Permanent(format!("the printer refused the document: {name}{said}")),
    }
}

/// The IPP keyword of a status (RFC 8011 §4.1.6), e.g. `client-error-not-found`.
pub fn status_name(status: StatusCode) -> String {
    let debug = format!("{status:?}");
    let mut out = String::new();
    for (i, ch) in debug.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

fn is_success(status: StatusCode) -> bool {
    (status as i32) < 0x0100
}

fn operation_attr(resp: &IppRequestResponse, name: &str) -> Option<String> {
    resp.attributes().groups_of(DelimiterTag::OperationAttributes).find_map(|g| g.get(name)).map(|a| a.value().to_string())
}

fn name_value(s: &str) -> Result<IppValue, Fail> {
    IppName::new(s.chars().take(255).collect::<String>()).map(IppValue::NameWithoutLanguage).map_err(|e| Fail::Permanent(format!("a name could not be sent ({e})")))
}

fn keyword(s: &str) -> IppValue {
    IppValue::Keyword(IppKeyword::new(s).expect("a short keyword"))
}

/// Get-Printer-Attributes: the printer's state, make and whether it takes jobs.
pub async fn attributes(url: &str) -> Result<PrinterInfo, Fail> {
    let uri = uri(url)?;
    let op = IppOperationBuilder::get_printer_attributes(uri.clone())
        .attributes(["printer-state", "printer-make-and-model", "printer-is-accepting-jobs", "printer-state-reasons", "printer-state-message"])
        .build()
        .map_err(|e| Fail::Permanent(format!("the request could not be made ({e})")))?;
    let resp = client(uri).send(op).await.map_err(|e| transport(e, false))?;
    let status = resp.header().status_code();
    if !is_success(status) {
        return Err(status_fail(status, &operation_attr(&resp, "status-message").unwrap_or_default()));
    }
    let group = resp.attributes().groups_of(DelimiterTag::PrinterAttributes).next();
    let get = |name: &str| group.and_then(|g| g.get(name)).map(|a| a.value().clone());
    let state = match get("printer-state") {
        Some(IppValue::Enum(3)) => "idle",
        Some(IppValue::Enum(4)) => "processing",
        Some(IppValue::Enum(5)) => "stopped",
        _ => "unknown state",
    };
    let text = |v: Option<IppValue>| match v {
        Some(IppValue::Array(a)) => a.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
        Some(v) => v.to_string(),
        None => String::new(),
    };
    Ok(PrinterInfo {
        state: state.into(),
        make_and_model: text(get("printer-make-and-model")),
        accepting: !matches!(get("printer-is-accepting-jobs"), Some(IppValue::Boolean(false))),
        reasons: text(get("printer-state-reasons")),
        message: text(get("printer-state-message")),
    })
}

/// Print-Job: sends the PDF; the printer's job-id once it accepted it (`None` when a
/// printer accepted without saying one, which IPP does not allow but is taken as printed).
pub async fn print(url: &str, user: &str, job_name: &str, pdf: Vec<u8>) -> Result<Option<i32>, Fail> {
    let uri = uri(url)?;
    let mut op = ::ipp::operation::PrintJob::new(uri.clone(), IppPayload::new(std::io::Cursor::new(pdf)), None::<&str>, None::<&str>, Some("application/pdf"))
        .map_err(|e| Fail::Permanent(format!("the request could not be made ({e})")))?;
    // Names longer than IPP's 255 octets are cut rather than refused.
    op.add_attribute(IppAttribute::new(IppAttributeName::REQUESTING_USER_NAME, name_value(user)?));
    op.add_attribute(IppAttribute::new(IppAttributeName::JOB_NAME, name_value(job_name)?));
    let resp = client(uri).send(op).await.map_err(|e| transport(e, true))?;
    let status = resp.header().status_code();
    if !is_success(status) {
        return Err(status_fail(status, &operation_attr(&resp, "status-message").unwrap_or_default()));
    }
    let id = resp.attributes().groups_of(DelimiterTag::JobAttributes).find_map(|g| g.get("job-id")).and_then(|a| match a.value() {
        IppValue::Integer(i) => Some(*i),
        _ => None,
    });
    Ok(id)
}

/// Get-Jobs (all of this user's, finished ones too): the job-id of the job named
/// `job_name`, when the printer holds one.
pub async fn find_job(url: &str, user: &str, job_name: &str) -> Result<Option<i32>, Fail> {
    let uri = uri(url)?;
    let mut req = IppRequestResponse::new(IppVersion::v1_1(), Operation::GetJobs, Some(uri.clone())).map_err(|e| Fail::Permanent(format!("the request could not be made ({e})")))?;
    let ops = DelimiterTag::OperationAttributes;
    req.attributes_mut().add(ops, IppAttribute::new(IppAttributeName::REQUESTING_USER_NAME, name_value(user)?));
    req.attributes_mut().add(ops, IppAttribute::new(IppAttributeName::WHICH_JOBS, keyword("all")));
    req.attributes_mut().add(ops, IppAttribute::new(IppAttributeName::MY_JOBS, IppValue::Boolean(true)));
    req.attributes_mut().add(ops, IppAttribute::new(IppAttributeName::REQUESTED_ATTRIBUTES, IppValue::Array(vec![keyword("job-id"), keyword("job-name")])));
    let resp = client(uri).send(req).await.map_err(|e| transport(e, false))?;
    let status = resp.header().status_code();
    if !is_success(status) {
        return Err(status_fail(status, &operation_attr(&resp, "status-message").unwrap_or_default()));
    }
    Ok(resp.attributes().groups_of(DelimiterTag::JobAttributes).find_map(|g| {
        let name = g.get("job-name").map(|a| a.value().to_string())?;
        if name != job_name {
            return None;
        }
        match g.get("job-id").map(IppAttribute::value) {
            Some(IppValue::Integer(i)) => Some(*i),
            _ => None,
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_as_their_ipp_keywords_and_sort_into_retry_or_not() {
        assert_eq!(status_name(StatusCode::ClientErrorDocumentFormatNotSupported), "client-error-document-format-not-supported");
        assert!(matches!(status_fail(StatusCode::ServerErrorBusy, ""), Fail::Temporary(m) if m.contains("server-error-busy")));
        assert!(matches!(status_fail(StatusCode::ServerErrorServiceUnavailable, ""), Fail::Temporary(_)));
        assert!(matches!(status_fail(StatusCode::ServerErrorNotAcceptingJobs, ""), Fail::Temporary(_)));
        assert!(matches!(status_fail(StatusCode::ClientErrorNotFound, "no queue"), Fail::Permanent(m) if m.ends_with("client-error-not-found: no queue")));
        assert!(matches!(status_fail(StatusCode::ClientErrorDocumentFormatNotSupported, ""), Fail::Permanent(_)));
    }

    #[test]
    fn a_stopped_or_refusing_printer_is_unavailable() {
        let idle = PrinterInfo { state: "idle".into(), accepting: true, ..Default::default() };
        assert_eq!(idle.unavailable(), None);
        assert!(PrinterInfo { state: "stopped".into(), accepting: true, ..Default::default() }.unavailable().is_some());
        assert!(PrinterInfo { state: "idle".into(), accepting: false, ..Default::default() }.unavailable().is_some());
    }
}
